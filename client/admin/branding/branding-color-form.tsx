import { useId } from 'react';
import type { Branding } from '../../../shared/branding.ts';
import { useBrand } from '../brand.tsx';
import { useI18n } from '../../runtime/i18n.tsx';
import { sixDigitColor } from './branding-rules.ts';
import { BrandingForm } from './branding-form.tsx';

/** The navbar colour: a picker and a hex code kept in step, Save and Reset to the default. */
export function BrandingColorForm({
  branding,
  text,
  previewColor,
  problem,
  enabled,
  saving,
  resetting,
  onType,
  onSave,
  onReset,
}: {
  /** What is saved now (null: the default). */
  branding: Branding | null;
  /** The code as typed (or the saved colour). */
  text: string;
  /** The typed colour when it is valid, else the saved one. */
  previewColor: string;
  /** A message key for the code field, or null. */
  problem: string | null;
  enabled: boolean;
  saving: boolean;
  resetting: boolean;
  onType: (text: string) => void;
  onSave: () => void;
  onReset: () => void;
}) {
  const { t } = useI18n();
  const defaultColor = useBrand().colors.primary;
  const id = useId();
  const describedBy = [`${id}-code-hint`, problem !== null && `${id}-code-error`].filter(Boolean).join(' ');

  return (
    <BrandingForm onSubmit={() => onSave()}>
      <fieldset>
        <legend>{t('adminConsole.branding.colorLegend')}</legend>
        <p className="field-hint">
          {branding === null
            ? t('adminConsole.branding.colorCurrentDefault', { color: defaultColor })
            : t('adminConsole.branding.colorCurrent', { color: branding.color })}
        </p>
        <div className="admin-branding-color">
          <div className="field">
            <label htmlFor={`${id}-picker`}>{t('adminConsole.branding.colorPicker')}</label>
            <input id={`${id}-picker`} type="color" value={sixDigitColor(previewColor)} onChange={(event) => onType(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-code`}>{t('adminConsole.branding.colorText')}</label>
            <input
              id={`${id}-code`}
              name="color"
              type="text"
              inputMode="text"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={7}
              size={9}
              value={text}
              onChange={(event) => onType(event.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={describedBy}
            />
          </div>
        </div>
        <p className="field-hint" id={`${id}-code-hint`}>
          {t('adminConsole.branding.colorHint')}
        </p>
        {problem && (
          <p className="field-error" id={`${id}-code-error`}>
            {t(problem)}
          </p>
        )}
        <div className="actions">
          <button className="button button-primary button-small" type="submit" disabled={!enabled}>
            {saving ? t('adminConsole.branding.saving') : t('adminConsole.branding.saveColor')}
          </button>
          <button className="button button-secondary button-small" type="button" disabled={!enabled} onClick={onReset}>
            {resetting ? t('adminConsole.branding.resetting') : t('adminConsole.branding.resetColor')}
          </button>
        </div>
      </fieldset>
    </BrandingForm>
  );
}
