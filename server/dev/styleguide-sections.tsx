// The sections of the styleguide's sheet (styleguide.tsx shows the sheet once per theme):
// plain markup where the stylesheet is all there is, the real React components where they
// render without a page around them.
import type { ReactNode } from 'react';
import { FormFeedback, TextField } from '../../client/components/form-feedback.tsx';
import { TagLinks } from '../../client/blog/tag-list.tsx';
import { ProjectCards } from '../../client/projects/project-list.tsx';
import { StateBadge } from '../../client/projects/state-badge.tsx';
import type { FormState } from '../../shared/page-data.ts';
import { PROJECT_STATES, type ProjectSummary } from '../../shared/projects.ts';
import type { Theme } from '../../shared/theme.ts';

const PROJECTS: ProjectSummary[] = [
  {
    id: 1,
    title: 'Accessibility audit of the customer portal',
    practice: 'digital',
    state: 'proposal',
    owner: { userName: 'carla', name: 'Carla', role: 'CLI' },
    company: { id: 1, name: 'Acme Retail S.L.' },
    organisation: 'Acme Retail',
    createdAt: '2026-03-02T09:00:00Z',
    updatedAt: '2026-03-09T09:00:00Z',
    unread: 2,
    waiting: 'answer_proposal',
  },
  {
    id: 2,
    title: 'Emissions reporting for the annual report',
    practice: 'sustainability',
    state: 'active',
    owner: { userName: 'olga', name: 'Olga', role: 'ORG' },
    company: { id: 2, name: 'Ayuntamiento de Villaverde' },
    organisation: null,
    createdAt: '2026-02-10T09:00:00Z',
    updatedAt: '2026-03-01T09:00:00Z',
    unread: 0,
    waiting: null,
  },
];

const TAGS = [
  { slug: 'accessibility', name: 'Accessibility' },
  { slug: 'data', name: 'Data' },
  { slug: 'sustainability', name: 'Sustainability' },
];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="sg-section">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** The colour tokens of client/styles/tokens.css, a chip each. */
export function ColourTokensSection({ tokens }: { tokens: string[] }) {
  return (
    <Section title="Colour tokens">
      <ul className="sg-swatches">
        {tokens.map((token) => (
          <li key={token} className="sg-swatch">
            <span className={`sg-chip sg-c${token.slice(7)}`} />
            <code>{token}</code>
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** The type scale: eyebrow, display, headings, lead, body and meta text. */
export function TypeSection() {
  return (
    <Section title="Type">
      <p className="eyebrow">Eyebrow</p>
      <h1 className="sg-display">Display heading for a hero</h1>
      <h3>Heading level 3</h3>
      <p className="lead">A lead paragraph introduces a page in a few calm words.</p>
      <p>
        Body text with <a href="#sg">a link</a>, <strong>strong words</strong> and <code className="admin-secret">a-secret-code</code>.
      </p>
      <p className="post-meta">Muted meta text · 12 March 2026</p>
    </Section>
  );
}

/** Buttons in their variants and sizes, enabled and disabled. */
export function ButtonsSection() {
  return (
    <Section title="Buttons">
      <div className="sg-row">
        <button type="button" className="button button-primary">
          Primary
        </button>
        <button type="button" className="button button-secondary">
          Secondary
        </button>
        <button type="button" className="button button-danger">
          Danger
        </button>
        <a className="button button-primary" href="#sg">
          A link as a button
        </a>
      </div>
      <div className="sg-row">
        <button type="button" className="button button-primary button-small">
          Small primary
        </button>
        <button type="button" className="button button-secondary button-small">
          Small secondary
        </button>
        <button type="button" className="button button-danger button-small">
          Small danger
        </button>
        <button type="button" className="link-button">
          Link button
        </button>
      </div>
      <div className="sg-row">
        <button type="button" className="button button-primary" disabled>
          Disabled
        </button>
        <button type="button" className="button button-secondary" disabled>
          Disabled
        </button>
        <button type="button" className="button button-secondary button-small" disabled>
          Small disabled
        </button>
      </div>
    </Section>
  );
}

/** A form with the real fields and feedback, two of them with an error. */
export function FormFieldsSection({ form }: { form: string }) {
  const noop = () => undefined;
  const failed: FormState = {
    form,
    error: {
      code: 'invalid_request',
      message: 'Check the fields',
      fields: { email: 'validation.invalidEmail', consent: 'validation.consentRequired' },
    },
  };
  return (
    <Section title="Form fields">
      <form className="form narrow" action="#sg" noValidate onSubmit={noop}>
        <FormFeedback state={failed} />
        <TextField form={form} state={failed} name="name" label="Name" defaultValue="Lucía Fernández" />
        <TextField form={form} state={failed} name="email" label="Email (with an error)" type="email" defaultValue="lucia@" />
        <div className="field">
          <label htmlFor={`${form}-practice`}>Practice</label>
          <select id={`${form}-practice`} defaultValue="data">
            <option value="digital">Digital</option>
            <option value="data">Data</option>
          </select>
          <p className="field-hint">A hint under a field.</p>
        </div>
        <div className="field">
          <label htmlFor={`${form}-message`}>Message</label>
          <textarea id={`${form}-message`} rows={3} defaultValue="Hello," />
        </div>
        <div className="field field-check">
          <input id={`${form}-consent`} type="checkbox" aria-invalid="true" aria-describedby={`${form}-consent-error`} />
          <label htmlFor={`${form}-consent`}>I accept the privacy policy</label>
          <p className="field-error" id={`${form}-consent-error`}>
            Please accept the privacy policy to send the message.
          </p>
        </div>
        <button type="button" className="button button-primary">
          Send
        </button>
      </form>
    </Section>
  );
}

/** Success, offline, notice, no-connection and empty states. */
export function AlertsSection({ form }: { form: string }) {
  return (
    <Section title="Alerts and notices">
      <FormFeedback state={{ form }} successText="Thank you: your message has been sent." />
      <p className="form-offline">You are offline: this form will not be sent.</p>
      <p className="notice">A notice: something worth knowing on this page.</p>
      <div className="offline-banner">
        <p>No connection: what you see may be out of date.</p>
      </div>
      <p className="empty-state">Nothing here yet: an empty state.</p>
    </Section>
  );
}

/** Badges, and the state badge of every project state. */
export function BadgesSection() {
  return (
    <Section title="Badges">
      <div className="sg-row">
        <span className="badge">Badge</span>
        <span className="badge badge-on">Active</span>
        <span className="badge badge-off">Disabled</span>
        <span className="badge badge-new">3 new</span>
        <span className="badge badge-invited">Invited</span>
      </div>
      <div className="sg-row">
        {PROJECT_STATES.map((state) => (
          <StateBadge key={state} state={state} />
        ))}
      </div>
    </Section>
  );
}

/** Plain cards, the project cards and a conversation message. */
export function CardsSection() {
  return (
    <Section title="Cards">
      <ul className="cards">
        <li className="card">
          <h3>Digital</h3>
          <p>A card: a title and a few lines on the surface colour.</p>
        </li>
        <li className="card">
          <h3>Data</h3>
          <p>Cards sit in a grid that wraps on a phone.</p>
        </li>
      </ul>
      <div className="sg-gap">
        <ProjectCards items={PROJECTS} role="ADMIN" showOwner />
      </div>
      <div className="thread-message sg-gap">
        <p className="thread-meta">Carla · 9 March 2026</p>
        <p>A message in a project&apos;s conversation.</p>
      </div>
    </Section>
  );
}

/** A table as the console lists it, a pager and the tag links. */
export function TableSection({ theme }: { theme: Theme }) {
  return (
    <Section title="Table (cards on a phone), pager, tags">
      <div className="table-wrap">
        <table className="data-table cards-on-phone">
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Role</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {[
              ['ada', 'Admin', 'on'],
              ['carla', 'Client', 'off'],
            ].map(([user, role, state]) => (
              <tr key={user}>
                <th scope="row">{user}</th>
                <td data-label="Role">{role}</td>
                <td data-label="State">
                  <span className={`badge badge-${state}`}>{state === 'on' ? 'Active' : 'Disabled'}</span>
                </td>
                <td>
                  <div className="actions">
                    <button type="button" className="button button-secondary button-small">
                      Reset password
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav className="pager" aria-label={`Pages (${theme})`}>
        <a href="#sg" rel="prev">
          Previous
        </a>
        <span>Page 2 of 5</span>
        <a href="#sg" rel="next">
          Next
        </a>
      </nav>
      <TagLinks tags={TAGS} current="data" label={`Tags (${theme})`} />
    </Section>
  );
}

/** The alert dialog, open, and the spinner. */
export function DialogSection({ form }: { form: string }) {
  return (
    <Section title="Dialog and spinner">
      <div className="sg-stage">
        <dialog open className="alert-dialog" aria-labelledby={`${form}-dialog`}>
          <h2 id={`${form}-dialog`}>Sign out?</h2>
          <p>An alert dialog, as the logout confirmation shows it.</p>
          <div className="alert-dialog-actions">
            <button type="button" className="alert-cancel">
              Cancel
            </button>
            <button type="button" className="alert-confirm">
              Sign out
            </button>
          </div>
        </dialog>
      </div>
      <div className="sg-row sg-gap">
        <span className="spinner" aria-hidden="true" />
      </div>
    </Section>
  );
}
