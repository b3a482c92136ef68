import { useEffect, useEffectEvent, useState } from 'react';
import type { Branding } from '../../../shared/branding.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import type { ApiAnswer } from '../api.ts';
import { failureText } from '../text.ts';
import { fetchBranding, type BrandingAnswer } from './branding-api.ts';
import { BRANDING_ERRORS, STALE_CODES } from './branding-rules.ts';

export type Loaded =
  { status: 'loading' } | { status: 'failed'; error: string; final: boolean } | { status: 'ready'; branding: Branding | null };

/**
 * One user's branding as the editor has it: loaded once per user and per "Try again" (`retry`),
 * then as each save answers it (`setLoaded`). A user gone or no longer brandable calls `onStale`.
 */
export function useBrandingLoad(userName: string, onStale: () => void) {
  const { t } = useI18n();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // The answer is read with the latest t/onStale.
  const onLoaded = useEffectEvent((answer: ApiAnswer<BrandingAnswer>) => {
    if (answer.ok) {
      setLoaded({ status: 'ready', branding: answer.value.branding });
      return;
    }
    const final = STALE_CODES.has(answer.error.code);
    setLoaded({ status: 'failed', error: failureText(t, answer.error, BRANDING_ERRORS), final });
    if (final) onStale();
  });
  useEffect(() => {
    let active = true;
    void fetchBranding(userName).then((answer) => {
      if (active) onLoaded(answer);
    });
    return () => {
      active = false;
    };
  }, [userName, attempt]);

  function retry() {
    setLoaded({ status: 'loading' });
    setAttempt((value) => value + 1);
  }

  return { loaded, setLoaded, retry };
}
