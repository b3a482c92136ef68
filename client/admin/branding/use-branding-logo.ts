import { useRef, useState } from 'react';
import { useI18n } from '../../runtime/i18n.tsx';
import { removeBrandingLogo, uploadBrandingLogo } from './branding-api.ts';
import { logoProblem } from './branding-rules.ts';
import type { BrandingWork } from './use-branding-work.ts';

/** The logo's part of the editor: the file chosen, its upload, and its removal after a confirmation. */
export function useBrandingLogo(userName: string, work: BrandingWork) {
  const { t } = useI18n();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [confirmingRemove, setConfirmingRemove] = useState(false);

  function choose(chosen: File | null) {
    setFile(chosen);
    setFileProblem(chosen ? logoProblem(chosen) : null);
  }

  async function upload(form: HTMLFormElement) {
    if (work.working) return;
    const problem = logoProblem(file);
    if (problem || !file) {
      work.setNotice(null);
      setFileProblem(problem);
      fileRef.current?.focus();
      return;
    }
    if (!work.start('logo')) return;
    const answer = await uploadBrandingLogo(userName, file);
    if (work.settle(answer, () => t('adminConsole.branding.logoSaved', { userName }))) {
      form.reset();
      setFile(null);
      setFileProblem(null);
    }
  }

  function askRemove() {
    if (work.working) return;
    work.setNotice(null);
    work.setError(null);
    setConfirmingRemove(true);
  }

  async function remove() {
    setConfirmingRemove(false);
    if (!work.start('remove')) return;
    const answer = await removeBrandingLogo(userName);
    const removed = work.settle(answer, () => t('adminConsole.branding.logoRemoved', { userName }));
    // The Remove button goes away with the logo: the focus goes on to the file field.
    if (removed) fileRef.current?.focus();
  }

  return {
    fileRef,
    fileProblem,
    confirmingRemove,
    choose,
    upload,
    askRemove,
    remove,
    cancelRemove: () => setConfirmingRemove(false),
  };
}
