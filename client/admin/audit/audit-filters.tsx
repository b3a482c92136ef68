import { useState, type FormEvent } from 'react';
import { AUDIT_QUERY_PARAMS, type AuditFilter } from '../../../shared/audit.ts';
import { useI18n } from '../../runtime/i18n.tsx';
import { actionLabel, filterOfForm, isFiltered } from './audit-text.ts';
import { EMAIL_MAX_LENGTH } from '../../../shared/validation.ts';

type Fields = { action: string; user: string; from: string; to: string };

const fieldsOf = (filter: AuditFilter): Fields => ({
  action: filter.action ?? '',
  user: filter.user ?? '',
  from: filter.from ?? '',
  to: filter.to ?? '',
});

/**
 * The audit's filter: action, user (as actor or target), days. A GET form to the admin page, so
 * that it works without JavaScript; with it, `onFilter` fetches the list instead.
 */
export function AuditFilters({
  actions,
  filter,
  action,
  enabled,
  onFilter,
  clearHref,
}: {
  actions: readonly string[];
  /** The filter of the list on screen. */
  filter: AuditFilter;
  /** Where the form goes without JavaScript (the admin page, at the screen). */
  action: string;
  enabled: boolean;
  onFilter: (filter: AuditFilter) => void;
  /** The unfiltered list's URL ("Show all" without JavaScript). */
  clearHref: string;
}) {
  const { t } = useI18n();
  const [fields, setFields] = useState<Fields>(() => fieldsOf(filter));
  const params = AUDIT_QUERY_PARAMS;
  const id = (name: string) => `admin-audit-${name}`;
  const set = (name: keyof Fields) => (event: { target: { value: string } }) => setFields({ ...fields, [name]: event.target.value });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!enabled) return;
    onFilter(filterOfForm(new FormData(event.currentTarget)));
  }

  return (
    <form
      className="admin-audit-filters"
      method="get"
      action={action}
      role="search"
      aria-label={t('adminAudit.filter.label')}
      noValidate
      onSubmit={onSubmit}
    >
      <div className="field">
        <label htmlFor={id('action')}>{t('adminAudit.filter.action')}</label>
        <select id={id('action')} name={params.action} value={fields.action} onChange={set('action')}>
          <option value="">{t('adminAudit.filter.allActions')}</option>
          {actions.map((name) => (
            <option key={name} value={name}>
              {actionLabel(t, name)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={id('user')}>{t('adminAudit.filter.user')}</label>
        <input
          id={id('user')}
          name={params.user}
          type="search"
          maxLength={EMAIL_MAX_LENGTH}
          autoCapitalize="none"
          spellCheck={false}
          value={fields.user}
          onChange={set('user')}
          aria-describedby={id('user-hint')}
        />
      </div>
      {/* Right under its field on a phone; under the whole row from 768 px (the grid's dense flow). */}
      <p className="field-hint" id={id('user-hint')}>
        {t('adminAudit.filter.userHint')}
      </p>
      <div className="field">
        <label htmlFor={id('from')}>{t('adminAudit.filter.from')}</label>
        <input id={id('from')} name={params.from} type="date" value={fields.from} max={fields.to || undefined} onChange={set('from')} />
      </div>
      <div className="field">
        <label htmlFor={id('to')}>{t('adminAudit.filter.to')}</label>
        <input id={id('to')} name={params.to} type="date" value={fields.to} min={fields.from || undefined} onChange={set('to')} />
      </div>
      <div className="admin-audit-filter-actions">
        <button type="submit" className="button button-primary button-small">
          {t('adminAudit.filter.apply')}
        </button>
        {isFiltered(filter) && (
          <a
            className="button button-secondary button-small"
            href={clearHref}
            onClick={(event) => {
              if (!enabled) return;
              event.preventDefault();
              setFields(fieldsOf({}));
              onFilter({});
            }}
          >
            {t('adminAudit.filter.clear')}
          </a>
        )}
      </div>
    </form>
  );
}
