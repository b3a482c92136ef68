import { useId, type RefObject } from 'react';
import { IMAGE_MIME_TYPES } from '../../../shared/uploads.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { BrandingForm } from './branding-form.tsx';

/** The logo: a file to upload, and Remove (after a confirmation) while there is one. */
export function BrandingLogoForm({
  userName,
  logo,
  problem,
  enabled,
  uploading,
  removing,
  fileRef,
  onChoose,
  onUpload,
  onRemove,
}: {
  userName: string;
  logo: string | null;
  /** A message key for the file field, or null. */
  problem: string | null;
  enabled: boolean;
  uploading: boolean;
  removing: boolean;
  /** The file field, focused by the editor when a problem or a removal leaves nothing else. */
  fileRef: RefObject<HTMLInputElement | null>;
  onChoose: (file: File | null) => void;
  /** With the form, to clear it once the logo is saved. */
  onUpload: (form: HTMLFormElement) => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const describedBy = [`${id}-logo-hint`, problem !== null && `${id}-logo-error`].filter(Boolean).join(' ');

  return (
    <BrandingForm onSubmit={onUpload}>
      <fieldset>
        <legend>{t('adminConsole.branding.logoLegend')}</legend>
        <p className="field-hint">{t(logo ? 'adminConsole.branding.logoCurrentCustom' : 'adminConsole.branding.logoCurrentDefault')}</p>
        <div className="field">
          <label htmlFor={`${id}-logo`}>{t('adminConsole.branding.logoFile')}</label>
          <input
            id={`${id}-logo`}
            ref={fileRef}
            name="logo"
            type="file"
            accept={IMAGE_MIME_TYPES.join(',')}
            onChange={(event) => onChoose(event.target.files?.[0] ?? null)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={describedBy}
          />
          <p className="field-hint" id={`${id}-logo-hint`}>
            {t('adminConsole.branding.logoHint')}
          </p>
          {problem && (
            <p className="field-error" id={`${id}-logo-error`}>
              {t(problem)}
            </p>
          )}
        </div>
        <div className="actions">
          <button className="button button-primary button-small" type="submit" disabled={!enabled}>
            {uploading ? t('adminConsole.branding.uploading') : t('adminConsole.branding.upload')}
          </button>
          {logo && (
            <button className="button button-secondary button-small" type="button" disabled={!enabled} onClick={onRemove}>
              {removing ? t('adminConsole.branding.removing') : t('adminConsole.branding.remove')}
              <span className="visually-hidden"> {t('adminConsole.branding.removeFor', { userName })}</span>
            </button>
          )}
        </div>
      </fieldset>
    </BrandingForm>
  );
}
