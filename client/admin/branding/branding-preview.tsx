import { useEffect, useRef } from 'react';
import { logoVariantOn } from '../../../shared/brand.ts';
import { useBrand } from '../brand.tsx';
import { useI18n } from '../../runtime/i18n.tsx';

/**
 * The navbar as the user will see it. The colours go in through CSSOM custom properties (the
 * CSP forbids style attributes, not element.style); the bar itself is decorative.
 */
export function BrandingPreview({
  color,
  textColor,
  logo,
  label,
}: {
  /** The colour shown (a valid hex) and the text colour that reads on it. */
  color: string;
  textColor: string;
  logo: string | null;
  /** The user's name, where the navbar shows the signed-in user. */
  label: string;
}) {
  const { t } = useI18n();
  const brand = useBrand();
  const barRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const bar = barRef.current;
    if (!bar) return;
    bar.style.setProperty('--preview-bg', color);
    bar.style.setProperty('--preview-fg', textColor);
  }, [color, textColor]);

  return (
    <figure className="admin-branding-preview">
      <div ref={barRef} className="admin-branding-bar" aria-hidden="true">
        <img src={logo ?? brand.logos[logoVariantOn(color)]} alt="" width="36" height="36" />
        <span className="admin-branding-bar-name">{label}</span>
        <span className="admin-branding-bar-link">{t('nav.blog')}</span>
      </div>
      <figcaption>
        <strong>{t('adminConsole.branding.previewTitle')}</strong> {t('adminConsole.branding.previewHint')}{' '}
        <span className="visually-hidden">
          {t('adminConsole.branding.previewDescription', {
            color,
            text: t(textColor === '#ffffff' ? 'adminConsole.branding.textLight' : 'adminConsole.branding.textDark'),
          })}
        </span>
      </figcaption>
    </figure>
  );
}
