// The top of a project's page: where it belongs, its state and brief, its documents in PDF.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Project } from '../../shared/projects.ts';
import { localePath } from '../../shared/routes.ts';
import { roleArea } from '../../shared/user.ts';
import { FormattedDate } from '../components/formatted-date.tsx';
import { documentHref } from '../../shared/documents.ts';
import { companyName, personName } from '../../shared/account.ts';
import { useI18n } from '../runtime/i18n.tsx';
import { StateBadge } from './state-badge.tsx';

export function ProjectHeader({ project, role }: { project: Project; role: string }) {
  const { t, locale } = useI18n();
  const area = roleArea(role) ?? 'index';
  const rows: [string, string | ReactNode][] = [
    ...(project.company ? ([[t('projects.page.company'), companyName(t, project.company)]] as [string, string][]) : []),
    [t('projects.page.owner'), personName(t, project.owner)],
    ...(project.organisation ? ([[t('projects.page.organisation'), project.organisation]] as [string, string][]) : []),
    [t('projects.page.practice'), t(`projects.practices.${project.practice}`)],
    ...(project.budget ? ([[t('projects.page.budget'), t(`projects.budgets.${project.budget}`)]] as [string, string][]) : []),
    ...(project.wishedStart
      ? ([[t('projects.page.wishedStart'), <FormattedDate key="s" date={project.wishedStart} />]] as [string, ReactNode][])
      : []),
    ...(project.deadline
      ? ([[t('projects.page.deadline'), <FormattedDate key="d" date={project.deadline} />]] as [string, ReactNode][])
      : []),
    ...(project.procurementRef ? ([[t('projects.page.procurementRef'), project.procurementRef]] as [string, string][]) : []),
    [t('projects.page.created'), <FormattedDate key="c" date={project.createdAt.slice(0, 10)} />],
  ];
  return (
    <header className="project-header">
      <p>
        <Link to={localePath(area, locale)}>← {t('projects.page.back')}</Link>
      </p>
      <h1>{project.title}</h1>
      <p className="project-header-state">
        <StateBadge state={project.state} />
      </p>
      {project.state === 'declined' ? (
        // Declined is not the end: what happens next, for whoever reads it.
        <p className="notice" role="note">
          {t(`projects.page.declinedNext.${project.standing}`)}
        </p>
      ) : (
        !project.writable && (
          <p className="notice" role="note">
            {t('projects.page.readOnly', { state: t(`projects.states.${project.state}`) })}
          </p>
        )
      )}
      <section aria-labelledby="brief-title" className="project-section">
        <h2 id="brief-title">{t('projects.page.briefTitle')}</h2>
        <dl className="project-facts">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <p className="project-description">{project.description}</p>
        <p className="actions">
          <a className="button button-secondary button-small" href={documentHref('report', locale, { id: project.id })} download>
            {t('projects.page.reportPdf')}
          </a>
          {project.proposal && (
            <a className="button button-secondary button-small" href={documentHref('proposal', locale, { id: project.id })} download>
              {t('projects.page.proposalPdf')}
            </a>
          )}
        </p>
      </section>
    </header>
  );
}
