// The branding of one CLI or ORG user, opened from the users list: the navbar colour (picker
// and hex code, with a live preview) and the logo (uploaded raw, removed after a confirmation).
// The server checks everything again.
import { useEffect, useId, useRef } from 'react';
import type { AdminUser } from '../../../shared/page-data.ts';
import { AlertDialog } from '../../components/alert-dialog.tsx';
import { useBrand } from '../brand.tsx';
import { useI18n } from '../../runtime/i18n.tsx';
import { fullName } from '../text.ts';
import { BrandingColorForm } from './branding-color-form.tsx';
import { BrandingLogoForm } from './branding-logo-form.tsx';
import { BrandingPreview } from './branding-preview.tsx';
import { useBrandingColor } from './use-branding-color.ts';
import { useBrandingLoad } from './use-branding-load.ts';
import { useBrandingLogo } from './use-branding-logo.ts';
import { useBrandingWork } from './use-branding-work.ts';

/**
 * One user's branding. Mounted with `key={userName}`, so another user starts afresh; the
 * heading takes the focus when it opens and whenever `focusRequest` changes.
 */
export function BrandingEditor({
  user,
  enabled,
  focusRequest,
  onClose,
  onStale,
}: {
  user: AdminUser;
  enabled: boolean;
  focusRequest: number;
  onClose: () => void;
  /** The user is gone or no longer brandable: the console reloads its list. */
  onStale: () => void;
}) {
  const { t } = useI18n();
  // The navbar's default colour: the brand's primary one (brand/brand.json).
  const defaultColor = useBrand().colors.primary;
  const id = useId();
  const { userName } = user;
  const name = fullName(user) || userName;
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, [focusRequest]);

  const { loaded, setLoaded, retry } = useBrandingLoad(userName, onStale);
  const work = useBrandingWork({ enabled, headingRef, setLoaded, onStale });
  const { working, notice, error } = work;
  const branding = loaded.status === 'ready' ? loaded.branding : null;
  const logo = branding?.logo ?? null;
  const color = useBrandingColor({ userName, savedColor: branding?.color ?? defaultColor, defaultColor, work });
  const logoForm = useBrandingLogo(userName, work);

  return (
    <section
      className="admin-section admin-branding"
      aria-labelledby={`${id}-title`}
      aria-busy={loaded.status === 'loading' || working !== null}
    >
      <div className="admin-branding-head">
        <h2 id={`${id}-title`} ref={headingRef} tabIndex={-1}>
          {t('adminConsole.branding.title', { userName })}
        </h2>
        <button className="button button-secondary button-small" type="button" onClick={onClose}>
          {t('adminConsole.branding.close')}
          <span className="visually-hidden"> {t('adminConsole.branding.closeFor', { userName })}</span>
        </button>
      </div>
      <p className="section-lead">{t('adminConsole.branding.lead', { name, userName })}</p>
      <p className="notice admin-branding-applies">{t('adminConsole.branding.applies', { userName })}</p>

      {loaded.status === 'loading' && (
        <p className="admin-summary" role="status">
          {t('adminConsole.branding.loading')}
        </p>
      )}
      {loaded.status === 'failed' && (
        <div className="form-error admin-branding-failed" role="alert">
          <p>{loaded.error}</p>
          {!loaded.final && (
            <button className="button button-secondary button-small" type="button" disabled={!enabled} onClick={retry}>
              {t('adminConsole.branding.retry')}
            </button>
          )}
        </div>
      )}

      {notice && (
        <p className="form-success admin-notice" role="status">
          {notice}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}

      {loaded.status === 'ready' && (
        <div className="admin-branding-body">
          <BrandingPreview color={color.previewColor} textColor={color.previewText} logo={logo} label={name} />
          <BrandingColorForm
            branding={branding}
            text={color.shownColor}
            previewColor={color.previewColor}
            problem={work.colorProblem}
            enabled={enabled}
            saving={working === 'color'}
            resetting={working === 'reset'}
            onType={color.type}
            onSave={() => void color.save()}
            onReset={() => void color.reset()}
          />
          <BrandingLogoForm
            userName={userName}
            logo={logo}
            problem={logoForm.fileProblem}
            enabled={enabled}
            uploading={working === 'logo'}
            removing={working === 'remove'}
            fileRef={logoForm.fileRef}
            onChoose={logoForm.choose}
            onUpload={(form) => void logoForm.upload(form)}
            onRemove={logoForm.askRemove}
          />
        </div>
      )}

      <AlertDialog
        open={logoForm.confirmingRemove}
        title={t('adminConsole.branding.removeConfirmTitle', { userName })}
        confirmLabel={t('adminConsole.branding.removeConfirm')}
        cancelLabel={t('adminConsole.confirm.cancel')}
        onConfirm={() => void logoForm.remove()}
        onCancel={logoForm.cancelRemove}
      >
        <p>{t('adminConsole.branding.removeConfirmText', { name, userName })}</p>
      </AlertDialog>
    </section>
  );
}
