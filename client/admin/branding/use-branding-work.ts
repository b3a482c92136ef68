import { useState, type RefObject } from 'react';
import type { Branding } from '../../../shared/branding.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import type { ApiAnswer } from '../api.ts';
import { failureText } from '../text.ts';
import type { BrandingAnswer } from './branding-api.ts';
import { BRANDING_ERRORS, STALE_CODES } from './branding-rules.ts';
import type { Loaded } from './use-branding-load.ts';

export type Work = 'color' | 'reset' | 'logo' | 'remove';

export type BrandingWork = ReturnType<typeof useBrandingWork>;

/**
 * The editor's requests, one at a time: which is under way, and what the last one said (a
 * notice, an error, or a refused colour said by its field).
 */
export function useBrandingWork({
  enabled,
  headingRef,
  setLoaded,
  onStale,
}: {
  enabled: boolean;
  headingRef: RefObject<HTMLHeadingElement | null>;
  setLoaded: (loaded: Loaded) => void;
  onStale: () => void;
}) {
  const { t } = useI18n();
  const [working, setWorking] = useState<Work | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A message key for the colour field: said by the server, or by the editor's own check.
  const [colorProblem, setColorProblem] = useState<string | null>(null);

  /** The common ending of every request: a message, or an error (and a reload if stale). */
  function settle(answer: ApiAnswer<BrandingAnswer>, success: (value: Branding | null) => string): boolean {
    setWorking(null);
    if (!answer.ok) {
      const text = failureText(t, answer.error, BRANDING_ERRORS);
      if (STALE_CODES.has(answer.error.code)) {
        // Nothing left to edit: the controls go, the message stays by the heading.
        setLoaded({ status: 'failed', error: text, final: true });
        headingRef.current?.focus();
        onStale();
        return false;
      }
      // A refused colour is said by its field only (one message, not two).
      if (answer.error.fields?.color) setColorProblem('adminConsole.branding.colorInvalid');
      else setError(text);
      return false;
    }
    setLoaded({ status: 'ready', branding: answer.value.branding });
    setNotice(success(answer.value.branding));
    return true;
  }

  function start(work: Work): boolean {
    if (working || !enabled) return false;
    setWorking(work);
    setNotice(null);
    setError(null);
    return true;
  }

  return { working, notice, error, colorProblem, setNotice, setError, setColorProblem, start, settle };
}
