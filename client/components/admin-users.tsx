// The admin console's user management: list, search and paging, a form to create users, and
// per-row actions (role, disable/enable, password reset), each confirmed in an AlertDialog,
// and for CLI and ORG users the branding editor (admin-branding.tsx) under the list.
// It talks to the built-in API from the browser; the session cookie authenticates the calls.
import { useId, useRef, useState, useSyncExternalStore, type FormEvent, type ReactNode } from 'react';
import type { AdminUser, FormState, UserList } from '../../shared/page-data.ts';
import type { Translate } from '../../shared/translate.ts';
import { isRole, ROLES, type Role } from '../../shared/user.ts';
import { nameProblem, passwordProblem, PASSWORD_MAX_LENGTH, NAME_MAX_LENGTH, USER_NAME_PATTERN } from '../../shared/validation.ts';
import { useI18n } from '../i18n.tsx';
import { AdminBranding, isBrandable } from './admin-branding.tsx';
import { AlertDialog } from './alert-dialog.tsx';
import { FieldError, fieldProps } from './form-feedback.tsx';

/* ------------------------------------------------------------------------------------------ */
/* API calls                                                                                   */
/* ------------------------------------------------------------------------------------------ */

export type ApiFailure = { status: number; code: string; message: string; fields?: Record<string, string> };
export type ApiAnswer<T> = { ok: true; value: T } | { ok: false; error: ApiFailure };
/** A user as the admin endpoints answer it; `password` only when the server generated one. */
export type UserWithPassword = { user: AdminUser; password?: string | undefined };
export type NewUserInput = { userName: string; email?: string; name: string; lastName: string; role: Role; password?: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An AdminUser read from untrusted JSON, or null when the shape is wrong. */
export function readAdminUser(value: unknown): AdminUser | null {
  if (!isRecord(value)) return null;
  const { userName, name, lastName, role, email, disabled, avatar, scope, createdAt, updatedAt } = value;
  if (typeof userName !== 'string' || typeof name !== 'string' || typeof lastName !== 'string') return null;
  if (typeof role !== 'string' || typeof disabled !== 'boolean') return null;
  return {
    userName,
    name,
    lastName,
    role,
    disabled,
    email: typeof email === 'string' ? email : null,
    avatar: typeof avatar === 'string' ? avatar : null,
    scope: Array.isArray(scope) ? scope.filter((s): s is string => typeof s === 'string') : [],
    createdAt: typeof createdAt === 'string' ? createdAt : '',
    updatedAt: typeof updatedAt === 'string' ? updatedAt : '',
  };
}

export function readUserList(value: unknown): UserList | null {
  if (!isRecord(value) || !Array.isArray(value.items)) return null;
  const { total, page, pageSize } = value;
  if (typeof total !== 'number' || typeof page !== 'number' || typeof pageSize !== 'number') return null;
  const items: AdminUser[] = [];
  for (const item of value.items) {
    const user = readAdminUser(item);
    if (!user) return null;
    items.push(user);
  }
  return { items, total, page, pageSize };
}

export function readUserWithPassword(value: unknown): UserWithPassword | null {
  if (!isRecord(value)) return null;
  const user = readAdminUser(value.user);
  if (!user) return null;
  return { user, password: typeof value.password === 'string' ? value.password : undefined };
}

/** The API's `{error: {code, message, fields?}}`, or a generic failure for anything else. */
export function readFailure(status: number, body: unknown): ApiFailure {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string') {
    const { code, message, fields } = body.error;
    const failure: ApiFailure = { status, code, message: typeof message === 'string' ? message : code };
    if (isRecord(fields)) {
      const problems: Record<string, string> = {};
      for (const [field, problem] of Object.entries(fields)) if (typeof problem === 'string') problems[field] = problem;
      failure.fields = problems;
    }
    return failure;
  }
  const code = status === 503 || status === 502 ? 'api_unavailable' : status === 401 ? 'unauthorized' : 'internal';
  return { status, code, message: `HTTP ${status}` };
}

/** One API call; a Blob (an uploaded file) goes raw with its own type, anything else as JSON. */
export async function callApi<T>(path: string, read: (body: unknown) => T | null, method = 'GET', body?: unknown): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (body instanceof Blob) {
    headers['Content-Type'] = body.type || 'application/octet-stream';
    init.body = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    return { ok: false, error: { status: 0, code: 'network', message: 'Network error' } };
  }
  const answer: unknown = await response.json().catch(() => null);
  if (!response.ok) return { ok: false, error: readFailure(response.status, answer) };
  const value = read(answer);
  if (value === null) return { ok: false, error: { status: response.status, code: 'internal', message: 'Unexpected answer from the API' } };
  return { ok: true, value };
}

const userPath = (userName: string) => `/api/admin/users/${encodeURIComponent(userName)}`;

export function fetchUsers(q: string, page: number, pageSize: number): Promise<ApiAnswer<UserList>> {
  const params = new URLSearchParams({ q, page: String(page), pageSize: String(pageSize) });
  return callApi(`/api/admin/users?${params.toString()}`, readUserList);
}

export function createUserRequest(input: NewUserInput): Promise<ApiAnswer<UserWithPassword>> {
  return callApi('/api/admin/users', readUserWithPassword, 'POST', input);
}

export function updateUserRequest(userName: string, changes: { role?: Role; disabled?: boolean }): Promise<ApiAnswer<UserWithPassword>> {
  return callApi(userPath(userName), readUserWithPassword, 'PATCH', changes);
}

export function resetPasswordRequest(userName: string): Promise<ApiAnswer<UserWithPassword>> {
  return callApi(`${userPath(userName)}/password`, readUserWithPassword, 'POST', {});
}

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** The failure in the visitor's language: the console's own text, the shared one, or the API's. */
export function failureText(t: Translate, error: ApiFailure): string {
  const own = `adminConsole.errors.${error.code}`;
  const ownText = t(own);
  if (ownText !== own) return ownText;
  const shared = `formErrors.${error.code}`;
  const sharedText = t(shared, { seconds: 60 });
  return sharedText !== shared ? sharedText : error.message;
}

export function roleLabel(t: Translate, role: string): string {
  const key = `roles.${role}`;
  const label = t(key);
  return label === key ? role : label;
}

export function fullName(user: Pick<AdminUser, 'name' | 'lastName'>): string {
  return `${user.name} ${user.lastName}`.trim();
}

const subscribeNothing = () => () => {};

/**
 * False on the server and while hydrating, true once the page runs in the browser: the
 * buttons that need JavaScript stay disabled until it is there (no effect, no mismatch).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}

/* ------------------------------------------------------------------------------------------ */
/* The console                                                                                 */
/* ------------------------------------------------------------------------------------------ */

export type UserAction = { kind: 'role'; user: AdminUser; role: Role } | { kind: 'disable' | 'enable' | 'reset'; user: AdminUser };

/** What the console reports after an action: a message, and a password to show once. */
type Notice = { text: string; password?: string | undefined; passwordFor?: string };

export function AdminUsers({ initial, currentUserName }: { initial: UserList; currentUserName: string | null }) {
  const { t } = useI18n();
  const hydrated = useHydrated();
  // The server-rendered first page is the initial state: nothing is fetched on mount.
  const [list, setList] = useState<UserList>(initial);
  const [query, setQuery] = useState('');
  const [searchText, setSearchText] = useState('');
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  // The action being confirmed; kept after the dialog closes so that it never renders empty.
  const [action, setAction] = useState<UserAction | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [working, setWorking] = useState(false);
  // The user whose branding is open below the list, and a counter that asks it for the focus.
  const [brandingUser, setBrandingUser] = useState<AdminUser | null>(null);
  const [brandingFocus, setBrandingFocus] = useState(0);
  const brandingOpener = useRef<HTMLElement | null>(null);
  const requestSeq = useRef(0);
  const current = useRef({ q: '', page: initial.page });
  const searchId = useId();

  const pages = Math.max(1, Math.ceil(list.total / Math.max(1, list.pageSize)));

  async function load(q: string, page: number): Promise<void> {
    const seq = ++requestSeq.current;
    current.current = { q, page };
    setLoading(true);
    const answer = await fetchUsers(q, page, list.pageSize);
    if (seq !== requestSeq.current) return; // a newer request has been sent since
    setLoading(false);
    if (!answer.ok) {
      setError(failureText(t, answer.error));
      return;
    }
    const last = Math.max(1, Math.ceil(answer.value.total / Math.max(1, answer.value.pageSize)));
    if (answer.value.items.length === 0 && page > last) {
      await load(q, last);
      return;
    }
    setList(answer.value);
    setQuery(q);
  }

  function reload(): Promise<void> {
    return load(current.current.q, current.current.page);
  }

  function onSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    void load(searchText.trim(), 1);
  }

  function onShowAll() {
    setSearchText('');
    setError(null);
    setNotice(null);
    void load('', 1);
  }

  function goTo(page: number) {
    setError(null);
    void load(query, page);
  }

  function openBranding(user: AdminUser, opener: HTMLElement) {
    brandingOpener.current = opener;
    setBrandingUser(user);
    setBrandingFocus((value) => value + 1);
  }

  function closeBranding() {
    const opener = brandingOpener.current;
    brandingOpener.current = null;
    setBrandingUser(null);
    // Back to the row's Branding button, when the row is still there.
    if (opener?.isConnected) opener.focus();
  }

  function ask(next: UserAction) {
    if (working) return;
    setError(null);
    if (next.kind === 'role' && next.role === next.user.role) {
      setNotice({ text: t('adminConsole.role.unchanged', { userName: next.user.userName, role: roleLabel(t, next.role) }) });
      return;
    }
    setNotice(null);
    setAction(next);
    setConfirming(true);
  }

  async function onConfirm() {
    const chosen = action;
    setConfirming(false);
    if (!chosen || working) return;
    const { user } = chosen;
    setWorking(true);
    setError(null);
    setNotice(null);
    let answer: ApiAnswer<UserWithPassword>;
    if (chosen.kind === 'role') answer = await updateUserRequest(user.userName, { role: chosen.role });
    else if (chosen.kind === 'reset') answer = await resetPasswordRequest(user.userName);
    else answer = await updateUserRequest(user.userName, { disabled: chosen.kind === 'disable' });
    setWorking(false);
    if (!answer.ok) {
      setError(failureText(t, answer.error));
      if (answer.error.code === 'user_not_found') await reload();
      return;
    }
    const updated = answer.value.user;
    // The row shows the change at once; the reload then brings the whole page up to date.
    setList((previous) => ({ ...previous, items: previous.items.map((item) => (item.userName === updated.userName ? updated : item)) }));
    const params = { userName: updated.userName, role: roleLabel(t, updated.role) };
    const text =
      chosen.kind === 'role'
        ? t('adminConsole.role.done', params)
        : chosen.kind === 'reset'
          ? t('adminConsole.reset.done', params)
          : t(chosen.kind === 'disable' ? 'adminConsole.disable.done' : 'adminConsole.enable.done', params);
    setNotice({ text, password: answer.value.password, passwordFor: updated.userName });
    await reload();
  }

  const summary = loading
    ? t('adminConsole.list.loading')
    : list.total === 0
      ? query
        ? t('adminConsole.list.noMatches', { q: query })
        : t('adminConsole.list.empty')
      : query
        ? t(list.total === 1 ? 'adminConsole.list.matchesOne' : 'adminConsole.list.matchesOther', { count: list.total, q: query })
        : t(list.total === 1 ? 'adminConsole.list.countOne' : 'adminConsole.list.countOther', { count: list.total });

  return (
    <div className="admin-console">
      <section className="admin-section" aria-labelledby="admin-users-title">
        <h2 id="admin-users-title">{t('adminConsole.list.title')}</h2>

        <form className="inline-form admin-search" role="search" method="get" onSubmit={onSearch}>
          <div className="field">
            <label htmlFor={`${searchId}-q`}>{t('adminConsole.search.label')}</label>
            <input
              id={`${searchId}-q`}
              name="q"
              type="search"
              maxLength={100}
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
              aria-describedby={`${searchId}-hint`}
            />
          </div>
          <div className="actions">
            <button className="button button-primary" type="submit" disabled={!hydrated}>
              {t('adminConsole.search.submit')}
            </button>
            {query && (
              <button className="button button-secondary" type="button" onClick={onShowAll} disabled={!hydrated}>
                {t('adminConsole.search.showAll')}
              </button>
            )}
          </div>
          {/* Below the whole row, so that the button lines up with the box, not with the hint. */}
          <p className="field-hint" id={`${searchId}-hint`}>
            {t('adminConsole.search.hint')}
          </p>
        </form>

        <p className="admin-summary" aria-live="polite">
          {summary}
        </p>

        {notice && <ActionNotice notice={notice} onDismiss={() => setNotice(null)} />}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}

        {list.items.length > 0 && (
          <div className="table-wrap" aria-busy={loading || working}>
            <table className="data-table admin-users-table cards-on-phone">
              <caption className="visually-hidden">{t('adminConsole.list.caption', { page: list.page, pages })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('adminConsole.list.userName')}</th>
                  <th scope="col">{t('adminConsole.list.name')}</th>
                  <th scope="col">{t('adminConsole.list.email')}</th>
                  <th scope="col">{t('adminConsole.list.role')}</th>
                  <th scope="col">{t('adminConsole.list.status')}</th>
                  <th scope="col">{t('adminConsole.list.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((user) => (
                  <UserRow
                    key={user.userName}
                    user={user}
                    self={user.userName === currentUserName}
                    enabled={hydrated}
                    onAction={ask}
                    onBranding={openBranding}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}

        {list.total > list.pageSize && (
          <nav className="pager" aria-label={t('adminConsole.pager.label')}>
            <button
              className="button button-secondary button-small"
              type="button"
              onClick={() => goTo(list.page - 1)}
              disabled={!hydrated || loading || list.page <= 1}
            >
              {t('adminConsole.pager.previous')}
            </button>
            <span aria-live="polite">{t('adminConsole.pager.status', { page: list.page, pages })}</span>
            <button
              className="button button-secondary button-small"
              type="button"
              onClick={() => goTo(list.page + 1)}
              disabled={!hydrated || loading || list.page >= pages}
            >
              {t('adminConsole.pager.next')}
            </button>
          </nav>
        )}
      </section>

      {brandingUser && (
        <AdminBranding
          key={brandingUser.userName}
          user={list.items.find((item) => item.userName === brandingUser.userName) ?? brandingUser}
          enabled={hydrated}
          focusRequest={brandingFocus}
          onClose={closeBranding}
          onStale={() => void reload()}
        />
      )}

      <CreateUserForm enabled={hydrated} onCreated={reload} />

      {action && (
        <AlertDialog
          open={confirming}
          title={confirmTitle(t, action)}
          confirmLabel={confirmLabel(t, action)}
          cancelLabel={t('adminConsole.confirm.cancel')}
          onConfirm={() => void onConfirm()}
          onCancel={() => setConfirming(false)}
        >
          <p>{confirmText(t, action)}</p>
        </AlertDialog>
      )}
    </div>
  );
}

export function confirmTitle(t: Translate, action: UserAction): string {
  return t(`adminConsole.${action.kind}.confirmTitle`, { userName: action.user.userName });
}

export function confirmLabel(t: Translate, action: UserAction): string {
  return t(`adminConsole.${action.kind}.confirm`);
}

export function confirmText(t: Translate, action: UserAction): string {
  const params = {
    userName: action.user.userName,
    name: fullName(action.user) || action.user.userName,
    from: roleLabel(t, action.user.role),
  };
  return action.kind === 'role'
    ? t('adminConsole.role.confirmText', { ...params, to: roleLabel(t, action.role) })
    : t(`adminConsole.${action.kind}.confirmText`, params);
}

/** The outcome of the last action (role=status); a generated password is shown once. */
function ActionNotice({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  return (
    <div className="form-success admin-notice" role="status">
      <p>{notice.text}</p>
      {notice.password && <OneTimePassword password={notice.password} userName={notice.passwordFor ?? ''} onDismiss={onDismiss} />}
    </div>
  );
}

export function OneTimePassword({ password, userName, onDismiss }: { password: string; userName: string; onDismiss: () => void }) {
  const { t } = useI18n();
  return (
    <>
      <p>
        {t('adminConsole.password.label', { userName })} <code className="admin-secret">{password}</code>
      </p>
      <p>{t('adminConsole.password.once')}</p>
      <button className="button button-secondary button-small" type="button" onClick={onDismiss}>
        {t('adminConsole.password.hide')}
        <span className="visually-hidden"> {t('adminConsole.password.hideFor', { userName })}</span>
      </button>
    </>
  );
}

/** One user's row with its actions; every button names the user for screen readers. */
export function UserRow({
  user,
  self,
  enabled,
  onAction,
  onBranding,
}: {
  user: AdminUser;
  self: boolean;
  enabled: boolean;
  onAction: (action: UserAction) => void;
  /** Opens the branding editor (CLI and ORG users only); the button gets the focus back. */
  onBranding?: ((user: AdminUser, opener: HTMLElement) => void) | undefined;
}) {
  const { t } = useI18n();
  const selectId = useId();
  // The role picked in the select, remembered against the role it was picked from: once the
  // user's role changes (after the action or a reload) a stale choice simply stops applying.
  const [choice, setChoice] = useState<{ from: string; role: Role } | null>(null);
  const selected: string = choice && choice.from === user.role ? choice.role : user.role;
  const forUser = (key: string) => <span className="visually-hidden"> {t(key, { userName: user.userName })}</span>;
  // On a phone each row is a card with no header row above it: its cells show their column's
  // name themselves (CSS, from data-label; screen readers keep the table's own headers).
  const column = (key: string) => t(`adminConsole.list.${key}`);

  function onRoleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isRole(selected)) onAction({ kind: 'role', user, role: selected });
  }

  return (
    <tr>
      <th scope="row">
        {user.userName}
        {self && <span className="admin-you"> {t('adminConsole.list.you')}</span>}
      </th>
      <td data-label={column('name')}>{fullName(user)}</td>
      <td data-label={column('email')}>
        {user.email ?? (
          <>
            <span aria-hidden="true">—</span>
            <span className="visually-hidden">{t('adminConsole.list.noEmail')}</span>
          </>
        )}
      </td>
      <td data-label={column('role')}>{roleLabel(t, user.role)}</td>
      <td data-label={column('status')}>
        <span className={user.disabled ? 'badge badge-off' : 'badge badge-on'}>
          {t(user.disabled ? 'adminConsole.status.disabled' : 'adminConsole.status.active')}
        </span>
      </td>
      <td>
        <div className="actions admin-row-actions">
          <form className="inline-form admin-role-form" method="post" onSubmit={onRoleSubmit}>
            <label className="visually-hidden" htmlFor={selectId}>
              {t('adminConsole.role.selectLabel', { userName: user.userName })}
            </label>
            <select
              id={selectId}
              value={selected}
              onChange={(event) => {
                const role = event.target.value;
                if (isRole(role)) setChoice({ from: user.role, role });
              }}
            >
              {!isRole(user.role) && (
                <option value={user.role} disabled>
                  {user.role}
                </option>
              )}
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {roleLabel(t, role)}
                </option>
              ))}
            </select>
            <button className="button button-secondary button-small" type="submit" disabled={!enabled}>
              {t('adminConsole.role.submit')}
              {forUser('adminConsole.role.submitFor')}
            </button>
          </form>
          <button
            className="button button-secondary button-small"
            type="button"
            disabled={!enabled}
            onClick={() => onAction({ kind: user.disabled ? 'enable' : 'disable', user })}
          >
            {t(user.disabled ? 'adminConsole.enable.button' : 'adminConsole.disable.button')}
            {forUser(user.disabled ? 'adminConsole.enable.buttonFor' : 'adminConsole.disable.buttonFor')}
          </button>
          <button
            className="button button-secondary button-small"
            type="button"
            disabled={!enabled}
            onClick={() => onAction({ kind: 'reset', user })}
          >
            {t('adminConsole.reset.button')}
            {forUser('adminConsole.reset.buttonFor')}
          </button>
          {onBranding && isBrandable(user.role) && (
            <button
              className="button button-secondary button-small"
              type="button"
              disabled={!enabled}
              onClick={(event) => onBranding(user, event.currentTarget)}
            >
              {t('adminConsole.branding.button')}
              {forUser('adminConsole.branding.buttonFor')}
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}

/* ------------------------------------------------------------------------------------------ */
/* Create a user                                                                               */
/* ------------------------------------------------------------------------------------------ */

/** The browser's quick checks (the server enforces the same rules); message keys by field. */
export function newUserProblems(input: NewUserInput): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!USER_NAME_PATTERN.test(input.userName))
    problems.userName = input.userName ? 'adminConsole.create.userNameInvalid' : 'validation.required';
  const name = nameProblem(input.name);
  if (name) problems.name = name;
  const lastName = nameProblem(input.lastName);
  if (lastName) problems.lastName = lastName;
  if (input.password !== undefined) {
    const password = passwordProblem(input.password, input.userName);
    if (password) problems.password = password;
  }
  return problems;
}

function text(data: FormData, field: string): string {
  const value = data.get(field);
  return typeof value === 'string' ? value : '';
}

export function CreateUserForm({ enabled, onCreated }: { enabled: boolean; onCreated: () => Promise<void> }) {
  const { t } = useI18n();
  const id = useId();
  const [state, setState] = useState<FormState | undefined>(undefined);
  const [created, setCreated] = useState<UserWithPassword | null>(null);
  const [pending, setPending] = useState(false);
  const fieldId = (field: string) => `${id}-${field}`;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    const role = text(data, 'role');
    const email = text(data, 'email').trim();
    const password = text(data, 'password');
    const input: NewUserInput = {
      userName: text(data, 'userName').trim(),
      name: text(data, 'name').trim(),
      lastName: text(data, 'lastName').trim(),
      role: isRole(role) ? role : 'CLI',
      ...(email ? { email } : {}),
      ...(password ? { password } : {}),
    };
    setCreated(null);
    const problems = newUserProblems(input);
    if (Object.keys(problems).length > 0) {
      setState({ form: 'adminCreateUser', error: { code: 'invalid_request', message: '', fields: problems } });
      return;
    }
    setState(undefined);
    setPending(true);
    const answer = await createUserRequest(input);
    setPending(false);
    if (!answer.ok) {
      setState({
        form: 'adminCreateUser',
        error: {
          code: answer.error.code,
          // With field errors the details are under the fields; the summary just points there.
          message:
            answer.error.fields && Object.keys(answer.error.fields).length > 0
              ? t('formErrors.invalid_request')
              : failureText(t, answer.error),
          ...(answer.error.fields ? { fields: answer.error.fields } : {}),
        },
      });
      return;
    }
    form.reset();
    setCreated(answer.value);
    await onCreated();
  }

  const error = state?.error;
  const errorText = error ? (error.code === 'invalid_request' && !error.message ? t('formErrors.invalid_request') : error.message) : null;

  return (
    <section className="admin-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('adminConsole.create.title')}</h2>
      <p className="section-lead">{t('adminConsole.create.lead')}</p>
      {errorText && (
        <p className="form-error" role="alert">
          {errorText}
        </p>
      )}
      {created && (
        <div className="form-success admin-notice" role="status">
          <p>{t('adminConsole.create.done', { userName: created.user.userName, role: roleLabel(t, created.user.role) })}</p>
          {created.password && (
            <OneTimePassword password={created.password} userName={created.user.userName} onDismiss={() => setCreated(null)} />
          )}
        </div>
      )}
      <form className="form admin-create-form" method="post" onSubmit={onSubmit} aria-busy={pending}>
        <Field
          id={fieldId('userName')}
          label={t('adminConsole.create.userName')}
          state={state}
          field="userName"
          hint={t('adminConsole.create.userNameHint')}
        >
          {(props) => (
            <input
              {...props}
              name="userName"
              type="text"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              required
              maxLength={40}
            />
          )}
        </Field>
        <Field id={fieldId('email')} label={t('adminConsole.create.email')} state={state} field="email">
          {(props) => <input {...props} name="email" type="email" autoComplete="off" maxLength={254} />}
        </Field>
        <Field id={fieldId('name')} label={t('adminConsole.create.name')} state={state} field="name">
          {(props) => <input {...props} name="name" type="text" autoComplete="off" required maxLength={NAME_MAX_LENGTH} />}
        </Field>
        <Field id={fieldId('lastName')} label={t('adminConsole.create.lastName')} state={state} field="lastName">
          {(props) => <input {...props} name="lastName" type="text" autoComplete="off" required maxLength={NAME_MAX_LENGTH} />}
        </Field>
        <Field id={fieldId('role')} label={t('adminConsole.create.role')} state={state} field="role">
          {(props) => (
            <select {...props} name="role" defaultValue="CLI" required>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {roleLabel(t, role)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          id={fieldId('password')}
          label={t('adminConsole.create.password')}
          state={state}
          field="password"
          hint={t('adminConsole.create.passwordHint')}
        >
          {(props) => <input {...props} name="password" type="password" autoComplete="new-password" maxLength={PASSWORD_MAX_LENGTH} />}
        </Field>
        <div className="actions">
          <button className="button button-primary" type="submit" disabled={!enabled || pending}>
            {pending ? t('adminConsole.create.pending') : t('adminConsole.create.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}

type FieldInputProps = { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string };

/** A labelled field with an optional hint and its error under it, both tied to the input. */
export function Field({
  id,
  label,
  hint,
  state,
  field,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  state: FormState | undefined;
  field: string;
  children: (props: FieldInputProps) => ReactNode;
}) {
  const problem = fieldProps(state, field, id);
  const describedBy = [hint ? `${id}-hint` : null, problem['aria-describedby'] ?? null].filter(Boolean).join(' ');
  const props: FieldInputProps = { id };
  if (problem['aria-invalid']) props['aria-invalid'] = true;
  if (describedBy) props['aria-describedby'] = describedBy;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(props)}
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldError state={state} field={field} id={id} />
    </div>
  );
}
