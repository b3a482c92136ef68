// A form of the two-factor pages (runtime/use-page-form.ts): new recovery codes come back with
// the answer (`reveal`) and are handed to the page, which shows them once; any other success
// reads the page's data again. Only a refusal of this form is shown from the page's data.
import type { FormState } from '../../shared/page-data.ts';
import { usePageForm } from '../runtime/use-page-form.ts';

export type Revealed = { success: string; codes: string[] };

export function useTwoFactorForm(name: string, initial: FormState | undefined, onReveal?: (revealed: Revealed) => void) {
  const { state, pending, onSubmit, action } = usePageForm(name, initial?.error ? initial : undefined, {
    onSuccess: (answer) => {
      if (!answer.reveal || !onReveal) return false;
      onReveal({ success: answer.success ?? '', codes: answer.reveal });
      return true;
    },
  });
  return { state, pending, onSubmit, action };
}
