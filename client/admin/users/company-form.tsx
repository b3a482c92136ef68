// The row menu's company form (docs/decisions/041): the company a client or organisation user
// belongs to, chosen among the companies of their kind (suggested as the admin types) or a new
// one by its name, and their role in it. The change is confirmed first, like every row action.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { COMPANY_NAME_MAX_LENGTH, COMPANY_ROLES, isCompanyRole, type CompanyRole } from '../../../shared/company.ts';
import type { AdminUser } from '../../../shared/page-data.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { searchCompanies, type CompanyChoice } from '../api.ts';
import type { UserAction } from './user-actions.ts';

/** How long the field waits after a keystroke before it asks for suggestions. */
const SUGGEST_DELAY_MS = 250;

export function CompanyForm({ user, enabled, onAction }: { user: AdminUser; enabled: boolean; onAction: (action: UserAction) => void }) {
  const { t } = useI18n();
  const nameId = useId();
  const roleId = useId();
  const listId = useId();
  const [text, setText] = useState(user.company?.name ?? '');
  const [role, setRole] = useState<CompanyRole>(user.company?.role ?? 'member');
  const [choices, setChoices] = useState<CompanyChoice[]>([]);

  useEffect(() => {
    const q = text.trim();
    if (!q) return;
    let current = true;
    const timer = setTimeout(() => {
      void searchCompanies(q).then((answer) => {
        if (current && answer.ok) setChoices(answer.value.filter((c) => c.kind === user.role));
      });
    }, SUGGEST_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, user.role]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = text.trim();
    if (!name) return;
    // The company of that name, if there is one of the user's kind (asked now: the suggestions
    // may not have come yet); any other name is a new company, which the confirmation says.
    const found = await searchCompanies(name);
    const known = found.ok ? found.value : choices;
    const picked = known.find((c) => c.name === name && c.kind === user.role);
    onAction({ kind: 'company', user, role, target: picked ? { companyId: picked.id, name: picked.name } : { newCompany: name } });
  }

  return (
    <form className="admin-company-form" method="post" noValidate onSubmit={(event) => void onSubmit(event)}>
      <label htmlFor={nameId}>{t('adminConsole.company.label', { userName: user.userName })}</label>
      <input
        id={nameId}
        list={listId}
        value={text}
        maxLength={COMPANY_NAME_MAX_LENGTH}
        autoComplete="off"
        aria-describedby={`${nameId}-hint`}
        onChange={(event) => setText(event.target.value)}
      />
      <datalist id={listId}>
        {choices.map((c) => (
          <option key={c.id} value={c.name}>
            {t('adminConsole.company.choice', { count: c.members })}
          </option>
        ))}
      </datalist>
      <p id={`${nameId}-hint`} className="field-hint">
        {t('adminConsole.company.hint')}
      </p>
      <label htmlFor={roleId}>{t('adminConsole.company.roleLabel')}</label>
      <select
        id={roleId}
        value={role}
        onChange={(event) => {
          if (isCompanyRole(event.target.value)) setRole(event.target.value);
        }}
      >
        {COMPANY_ROLES.map((r) => (
          <option key={r} value={r}>
            {t(`company.role.${r}`)}
          </option>
        ))}
      </select>
      <button className="button button-secondary button-small" type="submit" disabled={!enabled || !text.trim()}>
        {t('adminConsole.company.submit')}
        <span className="visually-hidden"> {t('adminConsole.company.submitFor', { userName: user.userName })}</span>
      </button>
    </form>
  );
}
