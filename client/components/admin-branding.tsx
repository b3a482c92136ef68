// The admin console's branding editor for one CLI or ORG user: the navbar colour (picker and
// hex code, with a live preview) and the logo (uploaded raw, removed after a confirmation).
// It talks to /api/admin/branding/:userName; the server checks everything again.
import { useEffect, useEffectEvent, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { IMAGE_MAX_BYTES, IMAGE_MIME_TYPES } from '../../shared/uploads.ts';
import { isHexColor, isSafeLogoPath, readableTextColor, sixDigitHex, type Branding } from '../../shared/branding.ts';
import { DEFAULT_NAVBAR_COLOR } from '../../shared/constants.ts';
import type { AdminUser } from '../../shared/page-data.ts';
import type { Translate } from '../../shared/translate.ts';
import { useI18n } from '../i18n.tsx';
import { callApi, failureText, fullName, type ApiAnswer, type ApiFailure } from './admin-users.tsx';
import { AlertDialog } from './alert-dialog.tsx';

/* ------------------------------------------------------------------------------------------ */
/* API calls                                                                                   */
/* ------------------------------------------------------------------------------------------ */

export type BrandingAnswer = { userName: string; branding: Branding | null };

/** Roles whose navbar can be branded (the server answers 409 not_brandable for the others). */
export function isBrandable(role: string): boolean {
  return role === 'CLI' || role === 'ORG';
}

/** `{userName, branding}` read from untrusted JSON; a logo that is not ours is dropped. */
export function readBrandingAnswer(value: unknown): BrandingAnswer | null {
  if (typeof value !== 'object' || value === null) return null;
  const { userName, branding } = value as Record<string, unknown>;
  if (typeof userName !== 'string') return null;
  if (branding === null) return { userName, branding: null };
  if (typeof branding !== 'object' || branding === undefined) return null;
  const { color, logo } = branding as Record<string, unknown>;
  if (!isHexColor(color)) return null;
  return { userName, branding: { color, logo: isSafeLogoPath(logo) ? logo : null } };
}

const brandingPath = (userName: string) => `/api/admin/branding/${encodeURIComponent(userName)}`;

export function fetchBranding(userName: string): Promise<ApiAnswer<BrandingAnswer>> {
  return callApi(brandingPath(userName), readBrandingAnswer);
}

/** A hex colour, or null to go back to the default. */
export function saveBrandingColor(userName: string, color: string | null): Promise<ApiAnswer<BrandingAnswer>> {
  return callApi(brandingPath(userName), readBrandingAnswer, 'PUT', { color });
}

/** The file goes as the raw body with its own Content-Type; the server checks the bytes. */
export function uploadBrandingLogo(userName: string, file: File): Promise<ApiAnswer<BrandingAnswer>> {
  return callApi(`${brandingPath(userName)}/logo`, readBrandingAnswer, 'PUT', file);
}

export function removeBrandingLogo(userName: string): Promise<ApiAnswer<BrandingAnswer>> {
  return callApi(`${brandingPath(userName)}/logo`, readBrandingAnswer, 'DELETE');
}

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

export const LOGO_MAX_BYTES = IMAGE_MAX_BYTES;
export const LOGO_TYPES = IMAGE_MIME_TYPES;

/** The browser's quick check of a chosen logo (a message key), or null when it may be sent. */
export function logoProblem(file: Pick<File, 'type' | 'size'> | null): string | null {
  if (!file) return 'adminConsole.branding.logoRequired';
  if (!LOGO_TYPES.includes(file.type)) return 'adminConsole.branding.logoType';
  if (file.size === 0) return 'adminConsole.branding.logoEmpty';
  if (file.size > LOGO_MAX_BYTES) return 'adminConsole.branding.logoTooLarge';
  return null;
}

/** `#rgb` or `#rrggbb` as the `#rrggbb` (lower case) that `<input type="color">` needs. */
export function sixDigitColor(hex: string): string {
  return sixDigitHex(hex).toLowerCase();
}

/** The editor's own text for a failure, else the console's and the shared ones. */
export function brandingFailureText(t: Translate, error: ApiFailure): string {
  const key = `adminConsole.branding.errors.${error.code}`;
  const text = t(key);
  return text !== key ? text : failureText(t, error);
}

/** Failures after which the editor has nothing left to edit (the list is reloaded). */
const STALE_CODES = new Set(['user_not_found', 'not_brandable']);

/* ------------------------------------------------------------------------------------------ */
/* The editor                                                                                  */
/* ------------------------------------------------------------------------------------------ */

type Loaded = { status: 'loading' } | { status: 'failed'; error: string; final: boolean } | { status: 'ready'; branding: Branding | null };
type Work = 'color' | 'reset' | 'logo' | 'remove';

/**
 * One user's branding. Mounted with `key={userName}`, so another user starts afresh; the
 * heading takes the focus when it opens and whenever `focusRequest` changes.
 */
export function AdminBranding({
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
  const id = useId();
  const { userName } = user;
  const name = fullName(user) || userName;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // What the admin typed; null shows the saved colour (so nothing needs syncing after a save).
  const [colorText, setColorText] = useState<string | null>(null);
  const [colorProblem, setColorProblem] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [working, setWorking] = useState<Work | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmingRemove, setConfirmingRemove] = useState(false);

  useEffect(() => {
    headingRef.current?.focus();
  }, [focusRequest]);

  // Loaded once per user and per "Try again" (the answer is read with the latest t/onStale).
  const onLoaded = useEffectEvent((answer: ApiAnswer<BrandingAnswer>) => {
    if (answer.ok) {
      setLoaded({ status: 'ready', branding: answer.value.branding });
      return;
    }
    const final = STALE_CODES.has(answer.error.code);
    setLoaded({ status: 'failed', error: brandingFailureText(t, answer.error), final });
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

  const branding = loaded.status === 'ready' ? loaded.branding : null;
  const savedColor = branding?.color ?? DEFAULT_NAVBAR_COLOR;
  const shownColor = colorText ?? savedColor;
  const typedColor = shownColor.trim();
  const previewColor = isHexColor(typedColor) ? typedColor : savedColor;
  const logo = branding?.logo ?? null;

  /** The common ending of every request: a message, or an error (and a reload if stale). */
  function settle(answer: ApiAnswer<BrandingAnswer>, success: (value: Branding | null) => string): boolean {
    setWorking(null);
    if (!answer.ok) {
      const text = brandingFailureText(t, answer.error);
      if (STALE_CODES.has(answer.error.code)) {
        // Nothing left to edit: the controls go, the message stays by the heading.
        setLoaded({ status: 'failed', error: text, final: true });
        headingRef.current?.focus();
        onStale();
        return false;
      }
      setError(text);
      if (answer.error.fields?.color) setColorProblem('adminConsole.branding.colorInvalid');
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

  async function onSaveColor(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (working) return;
    if (!isHexColor(typedColor)) {
      setNotice(null);
      setColorProblem('adminConsole.branding.colorInvalid');
      return;
    }
    if (!start('color')) return;
    setColorProblem(null);
    const answer = await saveBrandingColor(userName, typedColor);
    if (settle(answer, (value) => t('adminConsole.branding.colorSaved', { userName, color: value?.color ?? typedColor }))) {
      setColorText(null);
    }
  }

  async function onResetColor() {
    if (!start('reset')) return;
    setColorProblem(null);
    const answer = await saveBrandingColor(userName, null);
    if (settle(answer, () => t('adminConsole.branding.colorReset', { userName, color: DEFAULT_NAVBAR_COLOR }))) {
      setColorText(null);
    }
  }

  async function onUpload(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (working) return;
    const form = event.currentTarget;
    const problem = logoProblem(file);
    if (problem || !file) {
      setNotice(null);
      setFileProblem(problem);
      fileRef.current?.focus();
      return;
    }
    if (!start('logo')) return;
    const answer = await uploadBrandingLogo(userName, file);
    if (settle(answer, () => t('adminConsole.branding.logoSaved', { userName }))) {
      form.reset();
      setFile(null);
      setFileProblem(null);
    }
  }

  async function onRemoveLogo() {
    setConfirmingRemove(false);
    if (!start('remove')) return;
    const answer = await removeBrandingLogo(userName);
    const removed = settle(answer, () => t('adminConsole.branding.logoRemoved', { userName }));
    // The Remove button goes away with the logo: the focus goes on to the file field.
    if (removed) fileRef.current?.focus();
  }

  const fieldId = (field: string) => `${id}-${field}`;
  const describedBy = (...ids: (string | false)[]) => ids.filter(Boolean).join(' ') || undefined;
  const forUser = (key: string) => <span className="visually-hidden"> {t(key, { userName })}</span>;
  const previewText = readableTextColor(previewColor);

  return (
    <section
      className="admin-section admin-branding"
      aria-labelledby={fieldId('title')}
      aria-busy={loaded.status === 'loading' || working !== null}
    >
      <div className="admin-branding-head">
        <h2 id={fieldId('title')} ref={headingRef} tabIndex={-1}>
          {t('adminConsole.branding.title', { userName })}
        </h2>
        <button className="button button-secondary button-small" type="button" onClick={onClose}>
          {t('adminConsole.branding.close')}
          {forUser('adminConsole.branding.closeFor')}
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
            <button
              className="button button-secondary button-small"
              type="button"
              disabled={!enabled}
              onClick={() => {
                setLoaded({ status: 'loading' });
                setAttempt((value) => value + 1);
              }}
            >
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
          <BrandingPreview color={previewColor} textColor={previewText} logo={logo} label={name}>
            <figcaption>
              <strong>{t('adminConsole.branding.previewTitle')}</strong> {t('adminConsole.branding.previewHint')}{' '}
              <span className="visually-hidden">
                {t('adminConsole.branding.previewDescription', {
                  color: previewColor,
                  text: t(previewText === '#ffffff' ? 'adminConsole.branding.textLight' : 'adminConsole.branding.textDark'),
                })}
              </span>
            </figcaption>
          </BrandingPreview>

          <form className="admin-branding-form" method="post" noValidate onSubmit={(event) => void onSaveColor(event)}>
            <fieldset>
              <legend>{t('adminConsole.branding.colorLegend')}</legend>
              <p className="field-hint">
                {branding === null
                  ? t('adminConsole.branding.colorCurrentDefault', { color: DEFAULT_NAVBAR_COLOR })
                  : t('adminConsole.branding.colorCurrent', { color: branding.color })}
              </p>
              <div className="admin-branding-color">
                <div className="field">
                  <label htmlFor={fieldId('picker')}>{t('adminConsole.branding.colorPicker')}</label>
                  <input
                    id={fieldId('picker')}
                    type="color"
                    value={sixDigitColor(previewColor)}
                    onChange={(event) => {
                      setColorText(event.target.value);
                      setColorProblem(null);
                    }}
                  />
                </div>
                <div className="field">
                  <label htmlFor={fieldId('code')}>{t('adminConsole.branding.colorText')}</label>
                  <input
                    id={fieldId('code')}
                    name="color"
                    type="text"
                    inputMode="text"
                    autoComplete="off"
                    autoCapitalize="none"
                    spellCheck={false}
                    maxLength={7}
                    size={9}
                    value={shownColor}
                    onChange={(event) => {
                      setColorText(event.target.value);
                      setColorProblem(null);
                    }}
                    aria-invalid={colorProblem ? true : undefined}
                    aria-describedby={describedBy(fieldId('code-hint'), colorProblem !== null && fieldId('code-error'))}
                  />
                </div>
              </div>
              <p className="field-hint" id={fieldId('code-hint')}>
                {t('adminConsole.branding.colorHint')}
              </p>
              {colorProblem && (
                <p className="field-error" id={fieldId('code-error')}>
                  {t(colorProblem)}
                </p>
              )}
              <div className="actions">
                <button className="button button-primary button-small" type="submit" disabled={!enabled}>
                  {working === 'color' ? t('adminConsole.branding.saving') : t('adminConsole.branding.saveColor')}
                </button>
                <button
                  className="button button-secondary button-small"
                  type="button"
                  disabled={!enabled}
                  onClick={() => void onResetColor()}
                >
                  {working === 'reset' ? t('adminConsole.branding.resetting') : t('adminConsole.branding.resetColor')}
                </button>
              </div>
            </fieldset>
          </form>

          <form className="admin-branding-form" method="post" noValidate onSubmit={(event) => void onUpload(event)}>
            <fieldset>
              <legend>{t('adminConsole.branding.logoLegend')}</legend>
              <p className="field-hint">
                {t(logo ? 'adminConsole.branding.logoCurrentCustom' : 'adminConsole.branding.logoCurrentDefault')}
              </p>
              <div className="field">
                <label htmlFor={fieldId('logo')}>{t('adminConsole.branding.logoFile')}</label>
                <input
                  id={fieldId('logo')}
                  ref={fileRef}
                  name="logo"
                  type="file"
                  accept={LOGO_TYPES.join(',')}
                  onChange={(event) => {
                    const chosen = event.target.files?.[0] ?? null;
                    setFile(chosen);
                    setFileProblem(chosen ? logoProblem(chosen) : null);
                  }}
                  aria-invalid={fileProblem ? true : undefined}
                  aria-describedby={describedBy(fieldId('logo-hint'), fileProblem !== null && fieldId('logo-error'))}
                />
                <p className="field-hint" id={fieldId('logo-hint')}>
                  {t('adminConsole.branding.logoHint')}
                </p>
                {fileProblem && (
                  <p className="field-error" id={fieldId('logo-error')}>
                    {t(fileProblem)}
                  </p>
                )}
              </div>
              <div className="actions">
                <button className="button button-primary button-small" type="submit" disabled={!enabled}>
                  {working === 'logo' ? t('adminConsole.branding.uploading') : t('adminConsole.branding.upload')}
                </button>
                {logo && (
                  <button
                    className="button button-secondary button-small"
                    type="button"
                    disabled={!enabled}
                    onClick={() => {
                      if (working) return;
                      setNotice(null);
                      setError(null);
                      setConfirmingRemove(true);
                    }}
                  >
                    {working === 'remove' ? t('adminConsole.branding.removing') : t('adminConsole.branding.remove')}
                    {forUser('adminConsole.branding.removeFor')}
                  </button>
                )}
              </div>
            </fieldset>
          </form>
        </div>
      )}

      <AlertDialog
        open={confirmingRemove}
        title={t('adminConsole.branding.removeConfirmTitle', { userName })}
        confirmLabel={t('adminConsole.branding.removeConfirm')}
        cancelLabel={t('adminConsole.confirm.cancel')}
        onConfirm={() => void onRemoveLogo()}
        onCancel={() => setConfirmingRemove(false)}
      >
        <p>{t('adminConsole.branding.removeConfirmText', { name, userName })}</p>
      </AlertDialog>
    </section>
  );
}

/**
 * The navbar as the user will see it. The colours go in through CSSOM custom properties (the
 * CSP forbids style attributes, not element.style); the bar itself is decorative.
 */
function BrandingPreview({
  color,
  textColor,
  logo,
  label,
  children,
}: {
  color: string;
  textColor: string;
  logo: string | null;
  label: string;
  children: ReactNode;
}) {
  const { t } = useI18n();
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
        <img src={logo ?? '/logo.svg'} alt="" width="36" height="36" />
        <span className="admin-branding-bar-name">{label}</span>
        <span className="admin-branding-bar-link">{t('nav.blog')}</span>
      </div>
      {children}
    </figure>
  );
}
