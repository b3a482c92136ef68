// The documents of a project (the private area's projects): its proposal, and a report of where
// it stands (state, dates, experts, milestones, documents, history). Branded with the owner's
// colour (the caller passes it in the context) and localised like the other documents.
import { eventDetail, PROJECT_LIMITS, PROPOSAL_VALID_DAYS, type Project, type ProjectEvent } from '../../shared/projects.ts';
import type { ProjectSnapshot } from '../projects/service.ts';
import { DELETED_USER, isDeletedUser } from '../../shared/account.ts';
import { DISPLAY_FONT } from './fonts.ts';
import {
  documentFrame,
  keepHeadsWithBodies,
  MAX_CELL_CHARS,
  MAX_KEPT_HEADS,
  messageText,
  MUTED_COLOR,
  oneLine,
  PROFILE_WIDTHS,
  labelTableLayout,
  render,
  reportTableLayout,
  settingsOf,
  ZEBRA_COLOR,
  type Content,
  type PdfContext,
  type PdfRenderOptions,
  type Settings,
  type TableCell,
} from './documents.ts';
import { formatBytes } from '../../shared/file-size.ts';
import {
  formatBudget,
  formatDay,
  formatEuros,
  formatShortDay,
  formatStoredDate,
  formatStoredDateTime,
  formatStoredShortDateTime,
  practiceName,
  stateName,
} from './i18n.ts';

/**
 * Events and documents a report lists at most, the newest. A project keeps at most 200
 * documents, but its history only grows; 500 rows are about 15 pages and a second of layout.
 */
export const PROJECT_REPORT_NEWEST = 500;

/** The brief's description, the scope and the timeline: their own limits (5,000, 2,000) are below this. */
const MAX_PROSE_CHARS = 5000;
const MILESTONE_WIDTHS = ['52%', '20%', '28%'];
const DOCUMENT_WIDTHS = ['44%', '12%', '24%', '20%'];
const HISTORY_WIDTHS = ['22%', '22%', '56%'];
// Node ids that keep a section's heading on the page where its content starts.
const SECTION_ID = 'section-head-';
const SECTION_BODY_ID = 'section-body-';
const sectionBodyOf = (id: string) => (id.startsWith(SECTION_ID) ? `${SECTION_BODY_ID}${id.slice(SECTION_ID.length)}` : null);

/** A section: its heading with a short rule in the brand colour, then its content (ids for keepHeadsWithBodies). */
function section(key: string, title: string, brand: string, body: Content[]): Content[] {
  const margin: [number, number, number, number] = [0, 18, 0, 8];
  const head = {
    id: `${SECTION_ID}${key}`,
    margin,
    stack: [
      { text: title, bold: true, fontSize: 12 },
      { canvas: [{ type: 'line' as const, x1: 0, y1: 4, x2: 32, y2: 4, lineWidth: 2, lineColor: brand }] },
    ],
  };
  const content = { id: `${SECTION_BODY_ID}${key}`, stack: body };
  return [head, content];
}

/** Label and value rows, as in the profile; rows without a value are left out. */
function factsTable(rows: [string, string | null | undefined][]): Content {
  return {
    table: {
      widths: PROFILE_WIDTHS,
      body: rows.flatMap(([label, value]): TableCell[][] => (value ? [[{ text: label, style: 'label' }, { text: value }]] : [])),
    },
    layout: labelTableLayout(6),
  };
}

/** A visitor's prose (line breaks kept, capped like a contact message). */
function prose(value: string): Content {
  return { text: messageText(typeof value === 'string' ? value : '', MAX_PROSE_CHARS).text };
}

/** A table with its header row in the brand colour, repeated on every page. */
function brandedTable(brand: string, widths: string[], header: string[], rows: TableCell[][]): Content {
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths,
      body: [header.map((label): TableCell => ({ text: label, style: 'tableHeader' })), ...rows],
    },
    layout: reportTableLayout(brand),
  };
}

function muted(text: string, margin: [number, number, number, number] = [0, 0, 0, 6]): Content {
  return { text, color: MUTED_COLOR, margin };
}

/** The display name of a user name (looked up without regard to case), else the user name itself. */
function nameIn(names: Record<string, string>) {
  return (userName: string | null | undefined) => {
    const key = (userName ?? '').toLowerCase();
    return oneLine(Object.hasOwn(names, key) ? names[key] : userName, MAX_CELL_CHARS);
  };
}

/** "Carla Acme, Acme Corp": the owner and, when given, their organisation. */
function ownerLine(project: Project): string {
  return [oneLine(project.owner.name) || oneLine(project.owner.userName), oneLine(project.organisation)].filter(Boolean).join(', ');
}

/** What the proposal's answer was, or until when it stands. */
function proposalStatus(project: Project, settings: Settings): string {
  const { locale, t } = settings;
  const proposal = project.proposal!;
  const version = { version: proposal.version };
  if (proposal.status === 'superseded' || proposal.status === 'withdrawn') return t(`projects.${proposal.status}`, version);
  if (proposal.answeredAt) {
    const date = formatStoredDate(oneLine(proposal.answeredAt, 40), locale);
    return t(proposal.status === 'declined' ? 'projects.declined' : 'projects.accepted', { date });
  }
  const sent = new Date(proposal.sentAt);
  if (Number.isNaN(sent.getTime())) return '';
  const until = new Date(sent.getTime() + PROPOSAL_VALID_DAYS * 86_400_000);
  return t('projects.validity', { days: PROPOSAL_VALID_DAYS, date: formatDay(until.toISOString().slice(0, 10), locale) });
}

/** The proposal sent to the project's owner: what the work is, what it costs, how long it takes. */
/** A deleted account's traces (owner, history, uploads) named "Deleted user" in the document's language. */
function withDeletedUserNamed(data: ProjectSnapshot, label: string): ProjectSnapshot {
  const { owner } = data.project;
  return {
    ...data,
    project: { ...data.project, owner: isDeletedUser(owner.userName) ? { ...owner, name: label } : owner },
    names: { ...data.names, [DELETED_USER]: label },
  };
}

export async function renderProposalPdf(input: ProjectSnapshot, ctx: PdfContext, options: PdfRenderOptions = {}): Promise<Buffer> {
  const settings = settingsOf(ctx);
  const { locale, t, brand } = settings;
  const data = withDeletedUserNamed(input, t('projects.deletedUser'));
  const { project } = data;
  const proposal = project.proposal;
  if (!proposal) throw new Error(`Project ${project.id} has no proposal to lay out`);
  const status = proposalStatus(project, settings);
  const content: Content = [
    { text: oneLine(project.title), style: 'heading' },
    { text: t('projects.preparedFor', { who: ownerLine(project) }), style: 'lead' },
    factsTable([
      [t('projects.fields.practice'), practiceName(project.practice, locale)],
      [t('projects.fields.procurementRef'), oneLine(project.procurementRef)],
      [t('projects.fields.sentAt'), formatStoredDate(oneLine(proposal.sentAt, 40), locale)],
    ]),
    ...section('brief', t('projects.sections.brief'), brand, [prose(project.description)]),
    ...section('scope', t('projects.sections.scope'), brand, [prose(proposal.scope)]),
    ...section('timeline', t('projects.sections.timeline'), brand, [prose(proposal.timeline)]),
    // The fee closes the proposal, in a box of its own with the validity under it.
    {
      unbreakable: true,
      margin: [0, 22, 0, 0],
      table: {
        widths: ['100%'],
        body: [
          [
            {
              fillColor: ZEBRA_COLOR,
              stack: [
                { text: t('projects.fields.fee'), bold: true, color: MUTED_COLOR, fontSize: 9 },
                { text: formatEuros(proposal.fee, locale), font: DISPLAY_FONT, fontSize: 22, margin: [0, 2, 0, 4] },
                ...(status ? [{ text: status, fontSize: 9 }] : []),
              ],
            },
          ],
        ],
      },
      layout: {
        hLineWidth: () => 0,
        vLineWidth: (i: number) => (i === 0 ? 4 : 0),
        vLineColor: () => brand,
        paddingLeft: () => 14,
        paddingRight: () => 14,
        paddingTop: () => 10,
        paddingBottom: () => 12,
      },
    },
  ];
  return render(
    documentFrame({
      settings,
      title: t('projects.proposal.title'),
      subject: t('projects.proposal.subject', { site: settings.siteName }),
      content,
      options,
      pageBreakBefore: keepHeadsWithBodies(MAX_KEPT_HEADS, sectionBodyOf),
    }),
  );
}

/** One line of the history: what happened, in words. */
function eventText(event: ProjectEvent, data: ProjectSnapshot, settings: Settings): string {
  const { locale, t } = settings;
  // A milestone's title or a document's name, whole (events name milestones, documents and experts; a fee is a number).
  const detail = oneLine(event.detail, PROJECT_LIMITS.milestoneTitle);
  switch (event.kind) {
    case 'state':
      return t('projects.events.state', { from: stateName(event.from ?? '', locale), to: stateName(event.to ?? '', locale) });
    case 'proposal': {
      // "2:7800:1" (version, fee, the version it replaced) or, before versions, the fee alone.
      const { version, fee } = eventDetail(event);
      const amount = fee !== undefined ? formatEuros(fee, locale) : detail;
      return t('projects.events.proposal', { fee: version !== undefined ? `${amount} (v${version})` : amount });
    }
    case 'expert_added':
    case 'expert_removed':
      return t(`projects.events.${event.kind}`, { detail: nameIn(data.names)(event.detail) });
    case 'created':
    case 'milestone_added':
    case 'milestone_done':
    case 'milestone_reopened':
    case 'document_deleted':
      return t(`projects.events.${event.kind}`, { detail });
    default:
      // A kind this code does not know yet (a newer server's row): shown as stored.
      return oneLine(`${String(event.kind)} ${detail}`, MAX_CELL_CHARS);
  }
}

/** "Se muestran los 500 … más recientes de 812." when the report holds only the newest. */
function newestNote(kind: 'newestEvents' | 'newestDocuments', shown: number, total: number, settings: Settings): Content[] {
  if (total <= shown) return [];
  return [muted(settings.t(`projects.${kind}`, { shown, total }))];
}

/** Where a project stands: its facts, proposal, experts, milestones, documents and history. */
export async function renderProjectReportPdf(input: ProjectSnapshot, ctx: PdfContext, options: PdfRenderOptions = {}): Promise<Buffer> {
  const settings = settingsOf(ctx);
  const { locale, t, brand } = settings;
  const data = withDeletedUserNamed(input, t('projects.deletedUser'));
  const { project } = data;
  const name = nameIn(data.names);
  // The route reads at most PROJECT_REPORT_NEWEST of each; a caller passing more is cut here too.
  const events = data.events.slice(-PROJECT_REPORT_NEWEST);
  const documents = project.documents.slice(-PROJECT_REPORT_NEWEST);
  const proposal = project.proposal;

  const milestoneRows = project.milestones.map((milestone): TableCell[] => [
    { text: oneLine(milestone.title, PROJECT_LIMITS.milestoneTitle) },
    milestone.dueDate
      ? { text: formatShortDay(oneLine(milestone.dueDate, 40), locale) }
      : { text: t('projects.noDate'), color: MUTED_COLOR },
    milestone.doneAt
      ? {
          text: t('projects.doneBy', {
            date: formatStoredDate(oneLine(milestone.doneAt, 40), locale),
            who: milestone.doneByName ? oneLine(milestone.doneByName, MAX_CELL_CHARS) : name(milestone.doneBy),
          }),
        }
      : { text: t('projects.pending'), bold: true },
  ]);
  const documentRows = documents.map((document): TableCell[] => [
    { text: oneLine(document.name, PROJECT_LIMITS.documentName) },
    { text: formatBytes(Number(document.bytes) || 0, locale), noWrap: true },
    { text: name(document.uploadedBy) },
    { text: formatStoredDate(oneLine(document.uploadedAt, 40), locale) },
  ]);
  const historyRows = events.map((event): TableCell[] => [
    { text: formatStoredShortDateTime(oneLine(event.at, 40), locale) },
    { text: oneLine(event.actorName || name(event.actor), MAX_CELL_CHARS) },
    { text: eventText(event, data, settings) },
  ]);

  const content: Content = [
    { text: oneLine(project.title), style: 'heading' },
    { text: `${ownerLine(project)} · ${practiceName(project.practice, locale)}`, style: 'lead' },
    factsTable([
      [t('projects.fields.state'), stateName(project.state, locale)],
      [t('projects.fields.procurementRef'), oneLine(project.procurementRef)],
      [t('projects.fields.budget'), project.budget ? formatBudget(project.budget, locale) : null],
      [t('projects.fields.wishedStart'), project.wishedStart ? formatDay(oneLine(project.wishedStart, 40), locale) : null],
      [t('projects.fields.deadline'), project.deadline ? formatDay(oneLine(project.deadline, 40), locale) : null],
      [t('projects.fields.createdAt'), formatStoredDateTime(oneLine(project.createdAt, 40), locale)],
      [t('projects.fields.updatedAt'), formatStoredDateTime(oneLine(project.updatedAt, 40), locale)],
    ]),
    ...section('proposal', t('projects.sections.proposal'), brand, [
      proposal
        ? {
            text: [
              {
                text: t('projects.proposalLine', {
                  fee: formatEuros(proposal.fee, locale),
                  date: formatStoredDate(oneLine(proposal.sentAt, 40), locale),
                }),
                bold: true,
              },
              ...(proposal.answeredAt
                ? [
                    ' · ',
                    t(project.state === 'declined' ? 'projects.declined' : 'projects.accepted', {
                      date: formatStoredDate(oneLine(proposal.answeredAt, 40), locale),
                    }),
                  ]
                : []),
            ],
          }
        : muted(t('projects.noProposal'), [0, 0, 0, 0]),
    ]),
    ...section('experts', t('projects.sections.experts'), brand, [
      project.experts.length === 0
        ? muted(t('projects.noExperts'), [0, 0, 0, 0])
        : { ul: project.experts.map((expert) => oneLine(expert.name) || oneLine(expert.userName)), markerColor: brand },
    ]),
    ...section('milestones', t('projects.sections.milestones'), brand, [
      milestoneRows.length === 0
        ? muted(t('projects.noMilestones'), [0, 0, 0, 0])
        : brandedTable(
            brand,
            MILESTONE_WIDTHS,
            [t('projects.milestoneColumns.milestone'), t('projects.milestoneColumns.due'), t('projects.milestoneColumns.done')],
            milestoneRows,
          ),
    ]),
    ...section('documents', t('projects.sections.documents'), brand, [
      ...newestNote('newestDocuments', documents.length, data.documentCount, settings),
      documentRows.length === 0
        ? muted(t('projects.noDocuments'), [0, 0, 0, 0])
        : brandedTable(
            brand,
            DOCUMENT_WIDTHS,
            [
              t('projects.documentColumns.name'),
              t('projects.documentColumns.size'),
              t('projects.documentColumns.uploadedBy'),
              t('projects.documentColumns.date'),
            ],
            documentRows,
          ),
    ]),
    ...section('history', t('projects.sections.history'), brand, [
      ...newestNote('newestEvents', events.length, data.eventCount, settings),
      brandedTable(
        brand,
        HISTORY_WIDTHS,
        [t('projects.historyColumns.when'), t('projects.historyColumns.who'), t('projects.historyColumns.what')],
        historyRows,
      ),
    ]),
  ];
  return render(
    documentFrame({
      settings,
      title: t('projects.report.title'),
      subject: t('projects.report.subject', { site: settings.siteName }),
      content,
      options,
      pageBreakBefore: keepHeadsWithBodies(MAX_KEPT_HEADS, sectionBodyOf),
    }),
  );
}
