// The branding of one CLI or ORG user, opened from the users list: the navbar colour (picker
// and hex code, with a live preview) and the logo (uploaded raw, removed after a confirmation).
// The server checks everything again.
import { useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { isHexColor, readableTextColor, type Branding } from '../../../shared/branding.ts';
import type { AdminUser } from '../../../shared/page-data.ts';
import { AlertDialog } from '../../components/alert-dialog.tsx';
import { useBrand } from '../brand.tsx';
import { useI18n } from '../../runtime/i18n.tsx';
import type { ApiAnswer } from '../api.ts';
import { fetchBranding, removeBrandingLogo, saveBrandingColor, uploadBrandingLogo, type BrandingAnswer } from './branding-api.ts';
import { failureText, fullName } from '../text.ts';
import { BrandingColorForm } from './branding-color-form.tsx';
import { BrandingLogoForm } from './branding-logo-form.tsx';
import { BrandingPreview } from './branding-preview.tsx';
import { BRANDING_ERRORS, logoProblem, STALE_CODES } from './branding-rules.ts';

type Loaded = { status: 'loading' } | { status: 'failed'; error: string; final: boolean } | { status: 'ready'; branding: Branding | null };
type Work = 'color' | 'reset' | 'logo' | 'remove';

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
    setLoaded({ status: 'failed', error: failureText(t, answer.error, BRANDING_ERRORS), final });
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
  const savedColor = branding?.color ?? defaultColor;
  const shownColor = colorText ?? savedColor;
  const typedColor = shownColor.trim();
  const previewColor = isHexColor(typedColor) ? typedColor : savedColor;
  const previewText = readableTextColor(previewColor);
  const logo = branding?.logo ?? null;

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

  async function saveColor() {
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

  async function resetColor() {
    if (!start('reset')) return;
    setColorProblem(null);
    const answer = await saveBrandingColor(userName, null);
    if (settle(answer, () => t('adminConsole.branding.colorReset', { userName, color: defaultColor }))) {
      setColorText(null);
    }
  }

  async function upload(form: HTMLFormElement) {
    if (working) return;
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

  async function removeLogo() {
    setConfirmingRemove(false);
    if (!start('remove')) return;
    const answer = await removeBrandingLogo(userName);
    const removed = settle(answer, () => t('adminConsole.branding.logoRemoved', { userName }));
    // The Remove button goes away with the logo: the focus goes on to the file field.
    if (removed) fileRef.current?.focus();
  }

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
          <BrandingPreview color={previewColor} textColor={previewText} logo={logo} label={name} />
          <BrandingColorForm
            branding={branding}
            text={shownColor}
            previewColor={previewColor}
            problem={colorProblem}
            enabled={enabled}
            saving={working === 'color'}
            resetting={working === 'reset'}
            onType={(text) => {
              setColorText(text);
              setColorProblem(null);
            }}
            onSave={() => void saveColor()}
            onReset={() => void resetColor()}
          />
          <BrandingLogoForm
            userName={userName}
            logo={logo}
            problem={fileProblem}
            enabled={enabled}
            uploading={working === 'logo'}
            removing={working === 'remove'}
            fileRef={fileRef}
            onChoose={(chosen) => {
              setFile(chosen);
              setFileProblem(chosen ? logoProblem(chosen) : null);
            }}
            onUpload={(form) => void upload(form)}
            onRemove={() => {
              if (working) return;
              setNotice(null);
              setError(null);
              setConfirmingRemove(true);
            }}
          />
        </div>
      )}

      <AlertDialog
        open={confirmingRemove}
        title={t('adminConsole.branding.removeConfirmTitle', { userName })}
        confirmLabel={t('adminConsole.branding.removeConfirm')}
        cancelLabel={t('adminConsole.confirm.cancel')}
        onConfirm={() => void removeLogo()}
        onCancel={() => setConfirmingRemove(false)}
      >
        <p>{t('adminConsole.branding.removeConfirmText', { name, userName })}</p>
      </AlertDialog>
    </section>
  );
}
