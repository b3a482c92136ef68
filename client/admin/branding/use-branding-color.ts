import { useState } from 'react';
import { isHexColor, readableTextColor } from '../../../shared/branding.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { saveBrandingColor } from './branding-api.ts';
import type { BrandingWork } from './use-branding-work.ts';

/** The colour's part of the editor: what the admin typed, the preview it gives, saving and resetting it. */
export function useBrandingColor({
  userName,
  savedColor,
  defaultColor,
  work,
}: {
  userName: string;
  savedColor: string;
  defaultColor: string;
  work: BrandingWork;
}) {
  const { t } = useI18n();
  // What the admin typed; null shows the saved colour (so nothing needs syncing after a save).
  const [colorText, setColorText] = useState<string | null>(null);
  const shownColor = colorText ?? savedColor;
  const typedColor = shownColor.trim();
  const previewColor = isHexColor(typedColor) ? typedColor : savedColor;
  const previewText = readableTextColor(previewColor);

  function type(text: string) {
    setColorText(text);
    work.setColorProblem(null);
  }

  async function save() {
    if (work.working) return;
    if (!isHexColor(typedColor)) {
      work.setNotice(null);
      work.setColorProblem('adminConsole.branding.colorInvalid');
      return;
    }
    if (!work.start('color')) return;
    work.setColorProblem(null);
    const answer = await saveBrandingColor(userName, typedColor);
    if (work.settle(answer, (value) => t('adminConsole.branding.colorSaved', { userName, color: value?.color ?? typedColor }))) {
      setColorText(null);
    }
  }

  async function reset() {
    if (!work.start('reset')) return;
    work.setColorProblem(null);
    const answer = await saveBrandingColor(userName, null);
    if (work.settle(answer, () => t('adminConsole.branding.colorReset', { userName, color: defaultColor }))) {
      setColorText(null);
    }
  }

  return { shownColor, previewColor, previewText, type, save, reset };
}
