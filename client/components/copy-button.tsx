// "Copy" for a text the person must take elsewhere (the calendar's address, the recovery codes).
// Shown only once the page runs in the browser: without JavaScript there is nothing it could do,
// and the text itself stays selectable. Says what happened in a live region: copied, or — where
// the browser refuses the clipboard — to select and copy the text by hand.
import { useState } from 'react';
import { useI18n } from '../runtime/i18n.tsx';
import { useHydrated } from '../runtime/use-hydrated.ts';

type Outcome = 'copied' | 'failed' | null;

export function CopyButton({ text, label, copied }: { text: string; label: string; copied: string }) {
  const { t } = useI18n();
  const hydrated = useHydrated();
  const [outcome, setOutcome] = useState<Outcome>(null);
  if (!hydrated) return null;
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome('copied');
    } catch {
      setOutcome('failed');
    }
  }
  return (
    <span className="copy-button">
      <button className="button button-secondary" type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span className="copy-outcome" role="status">
        {outcome === 'copied' ? copied : outcome === 'failed' ? t('copy.failed') : ''}
      </span>
    </span>
  );
}
