// The projects of the private area (docs/specification.md §17): what a project is, its states, and who may
// move it from one to another. Pure: the server enforces these rules, the client only uses them
// to offer the actions the server would accept.
import type { Locale } from './locales.ts';
import { sameIdentity } from './identity.ts';
import { BASE_ROUTES, localePath, type PageKey } from './routes.ts';
import { hasRole, roleArea, type SessionUser } from './user.ts';
import type { Practice } from './practices.ts';
import type { CursorPage, NumberedPage } from './paging.ts';

export { isPractice, PRACTICES, type Practice } from './practices.ts';

export const PROJECT_STATES = ['brief', 'proposal', 'active', 'delivered', 'closed', 'declined', 'cancelled'] as const;
export type ProjectState = (typeof PROJECT_STATES)[number];

/** Messages and documents are open in these; the others are read-only. */
export const WRITABLE_STATES: readonly ProjectState[] = ['brief', 'proposal', 'active', 'delivered'];
/** Admins may cancel, assign and propose in these (declined may get a new proposal). */
export const OPEN_STATES: readonly ProjectState[] = ['brief', 'proposal', 'active', 'delivered', 'declined'];

export const BUDGET_RANGES = ['lt10k', '10to50k', '50to150k', 'gt150k'] as const;
export type BudgetRange = (typeof BUDGET_RANGES)[number];

export const AVAILABILITY = ['available', 'busy'] as const;
export type Availability = (typeof AVAILABILITY)[number];

/**
 * The navbar's badge counts unread messages up to this many (it shows "99+" past 99): counting
 * every unread message of every project an admin sees would read them all on every page.
 */
export const UNREAD_BADGE_MAX = 100;

export const PROJECT_LIMITS = {
  title: 200,
  description: 5000,
  procurementRef: 100,
  organisation: 200,
  scope: 5000,
  timeline: 2000,
  /** Euros, whole. */
  feeMax: 10_000_000,
  message: 5000,
  milestoneTitle: 200,
  bio: 2000,
  dayRateMax: 100_000,
  /** Bytes of one document. */
  documentBytes: 10 * 1024 * 1024,
  documentName: 200,
  /** Documents of one project. */
  documentsPerProject: 200,
  /** Milestones of one project: enforced when one is added (a project's page shows them all). */
  milestonesPerProject: 50,
  /** Experts assigned to one project: enforced when one is assigned (a project's page shows them all). */
  expertsPerProject: 10,
} as const;

/**
 * The query parameters of a project's page: the history's and the conversation's page (their
 * "Show older" links: the id of the oldest item shown) and the admin's search of experts.
 */
export const PROJECT_PAGE_PARAMS = { historyBefore: 'historyBefore', messagesBefore: 'messagesBefore', expert: 'expert' } as const;

/** The project page's query parameter of the documents' page ("show older": `?documents=2`). */
export const DOCUMENTS_PAGE_PARAM = 'documents';

/** A proposal stands for this many days from the day it is sent (its PDF says until when). */
export const PROPOSAL_VALID_DAYS = 30;

/**
 * How the caller stands to a project: decides what they may see and do. `manager` and `member`:
 * the people of the company that owns it (shared/company.ts); a member works on it (messages,
 * documents) and the manager also decides (answers proposals, confirms deliveries, withdraws).
 */
export type Standing = 'admin' | 'manager' | 'member' | 'expert';

/**
 * The moves of the state machine: an action, the states it starts from, where it goes and who
 * may make it. `send_proposal` carries the proposal; the others carry nothing.
 */
export const TRANSITIONS = {
  send_proposal: { from: ['brief', 'proposal', 'declined'], to: 'proposal', by: ['admin'] },
  accept: { from: ['proposal'], to: 'active', by: ['manager'] },
  decline: { from: ['proposal'], to: 'declined', by: ['manager'] },
  deliver: { from: ['active'], to: 'delivered', by: ['admin', 'expert'] },
  close: { from: ['delivered'], to: 'closed', by: ['admin', 'manager'] },
  cancel: { from: OPEN_STATES, to: 'cancelled', by: ['admin'] },
  withdraw: { from: ['brief'], to: 'cancelled', by: ['manager'] },
} as const satisfies Record<string, { from: readonly ProjectState[]; to: ProjectState; by: readonly Standing[] }>;
export type ProjectAction = keyof typeof TRANSITIONS;
export const PROJECT_ACTIONS = Object.keys(TRANSITIONS) as ProjectAction[];

/**
 * Moves that bind the owner to money, which a project's page makes only once the user has seen
 * what is agreed (fee, scope, timeline) and confirmed it: the form carries `confirmed=yes` (the
 * dialog adds it with JavaScript; without, the page's confirmation panel does). The API takes
 * them as it takes the others.
 */
export const CONFIRMED_MOVES = ['accept', 'close'] as const satisfies readonly ProjectAction[];

/** The milestones not done yet. */
export function openMilestones(project: Pick<Project, 'milestones'>): Milestone[] {
  return project.milestones.filter((m) => !m.doneAt);
}

/** Moves a page asks about while milestones are open (the move is recorded with how many). */
export function asksAboutOpenMilestones(action: ProjectAction): boolean {
  return action === 'deliver' || action === 'close';
}

/** Whether a page asks before this move: accepting and closing always (they bind to money), and the moves above while milestones are open. */
export function needsConfirmation(action: ProjectAction, openMilestoneCount = 0): boolean {
  return bindsToTerms(action) || (asksAboutOpenMilestones(action) && openMilestoneCount > 0);
}

/** The moves whose confirmation restates the proposal's terms. */
export function bindsToTerms(action: ProjectAction): boolean {
  return (CONFIRMED_MOVES as readonly ProjectAction[]).includes(action);
}

/** The notices a project's page shows at its top after a decisive step (`?done=`): a brief sent, a proposal sent, and every move. */
export const PROJECT_NOTICES = ['created', 'proposal', ...PROJECT_ACTIONS.filter((a) => a !== 'send_proposal')] as const;

export function isProjectState(value: unknown): value is ProjectState {
  return typeof value === 'string' && (PROJECT_STATES as readonly string[]).includes(value);
}

/** The actions a caller of this standing may take in this state. */
export function allowedActions(state: ProjectState, standing: Standing): ProjectAction[] {
  return PROJECT_ACTIONS.filter((action) => {
    const move = TRANSITIONS[action];
    return (move.from as readonly ProjectState[]).includes(state) && (move.by as readonly Standing[]).includes(standing);
  });
}

export function isWritable(state: ProjectState): boolean {
  return WRITABLE_STATES.includes(state);
}

/** Roles that own projects (submit briefs), and the area each sees them in. */
export function ownsProjects(user: Pick<SessionUser, 'role'> | null | undefined): boolean {
  return hasRole(user, 'CLI') || hasRole(user, 'ORG');
}

/** The route table's base of `page` in the area of `role` (roleArea); none for a role without one. */
function areaRoute(page: PageKey, role: string): string | undefined {
  const area = roleArea(role);
  return area && BASE_ROUTES.find((route) => route.page === page && 'area' in route && route.area === area)?.base;
}

/** The page of a project for a user of this role, in a locale; null for a role without an area. */
export function projectPath(role: string, id: number, locale: Locale): string | null {
  const base = areaRoute('project', role);
  return base ? localePath(base, locale, { id: String(id) }) : null;
}

/** Where a CLI/ORG user writes a new brief (the areas with a new-project page); null for the others. */
export function newBriefPath(role: string, locale: Locale): string | null {
  const base = ownsProjects({ role }) ? areaRoute('project-new', role) : undefined;
  return base ? localePath(base, locale) : null;
}

// What the server answers (API and page data alike).

export type PersonRef = { userName: string; name: string; role: string; deleted?: boolean };

/** What became of a proposal: answered, or replaced by a newer version, or left when the project ended. */
export type ProposalStatus = 'open' | 'accepted' | 'declined' | 'superseded' | 'withdrawn';

/** One version of a project's proposal (v1, v2 …): every proposal sent is kept. */
export type Proposal = {
  version: number;
  status: ProposalStatus;
  scope: string;
  /** Euros, whole. */
  fee: number;
  timeline: string;
  sentAt: string;
  sentBy: string;
  answeredAt: string | null;
  /** Who accepted or declined it. */
  answeredBy: string | null;
};

/** The versions a project's page lists (the newest first); older ones stay in the database and the history. */
export const PROPOSAL_VERSIONS_SHOWN = 20;

export type Milestone = {
  id: number;
  title: string;
  dueDate: string | null;
  doneAt: string | null;
  doneBy: string | null;
  /** The display name of who ticked it off, as they were then. */
  doneByName: string | null;
};

export type ProjectSummary = {
  id: number;
  title: string;
  practice: Practice;
  state: ProjectState;
  /** Who submitted it (a person of its company). */
  owner: PersonRef;
  /** The company (or organisation) it belongs to; null once nobody is left to own it (docs/decisions/041). */
  company: { id: number; name: string } | null;
  organisation: string | null;
  createdAt: string;
  updatedAt: string;
  /** Messages the caller has not read yet, up to UNREAD_BADGE_MAX (counted no further). */
  unread: number;
  /** What waits for the caller here (e.g. 'answer_proposal'), first in dashboards. */
  waiting: string | null;
};

export type ProjectEvent = {
  id: number;
  at: string;
  actor: string;
  actorName: string;
  kind:
    | 'created'
    | 'state'
    | 'proposal'
    | 'expert_added'
    | 'expert_removed'
    | 'milestone_added'
    | 'milestone_done'
    | 'milestone_reopened'
    | 'document_deleted';
  from: ProjectState | null;
  to: ProjectState | null;
  detail: string | null;
};

export type ProjectDocument = {
  id: number;
  name: string;
  contentType: string;
  bytes: number;
  uploadedBy: string;
  uploadedAt: string;
};

/**
 * Who may delete a document: the person who uploaded it, and admins. An owner may not delete an
 * expert's document nor an expert the owner's (docs/decisions/031-document-quotas-and-deletion.md).
 */
export function mayDeleteDocument(user: Pick<SessionUser, 'role' | 'userName'>, document: Pick<ProjectDocument, 'uploadedBy'>): boolean {
  return hasRole(user, 'ADMIN') || sameIdentity(document.uploadedBy, user.userName);
}

export type ProjectMessage = {
  id: number;
  author: PersonRef;
  body: string;
  createdAt: string;
};

export type Project = ProjectSummary & {
  description: string;
  budget: BudgetRange | null;
  wishedStart: string | null;
  deadline: string | null;
  procurementRef: string | null;
  experts: PersonRef[];
  milestones: Milestone[];
  /** The newest proposal: the one to answer while it is open. */
  proposal: Proposal | null;
  /** Every version sent, newest first (at most PROPOSAL_VERSIONS_SHOWN). */
  proposals: Proposal[];
  /** Its history is not part of it: it grows without end, and is read a page at a time (`EventPage`). */
  documents: ProjectDocument[];
  /** How the caller stands to it, and what they may do now. */
  standing: Standing;
  actions: ProjectAction[];
  writable: boolean;
};

export type ProjectPage = NumberedPage<ProjectSummary>;
/** A page of a project's history, newest first (shared/paging.ts). */
export type EventPage = CursorPage<ProjectEvent>;
/** A page of a project's conversation, newest first (shared/paging.ts). */
export type MessagePage = CursorPage<ProjectMessage>;
/** The experts an admin may assign, a page of them. */
export type ExpertPage = NumberedPage<Expertise>;
/** A page of a project's documents, newest first; page 1 holds the newest. */
export type DocumentPage = NumberedPage<ProjectDocument>;

export type Expertise = {
  userName: string;
  name: string;
  practices: Practice[];
  bio: string;
  /** Euros per day, whole; null when not given. */
  dayRate: number | null;
  availability: Availability;
  /** With `busy`: until when (YYYY-MM-DD). */
  busyUntil: string | null;
  updatedAt: string | null;
};

/** What a history event's `detail` says of a proposal sent or a move (rows written before versions hold less). */
export type EventDetail = { action?: ProjectAction; version?: number; fee?: number; superseded?: number; openMilestones?: number };

export function eventDetail(event: Pick<ProjectEvent, 'kind' | 'detail'>): EventDetail {
  const detail = event.detail ?? '';
  if (event.kind === 'proposal') {
    const [a, b, c] = detail.split(':').map(Number);
    if (b === undefined) return Number.isFinite(a) && detail !== '' ? { fee: a! } : {};
    return { version: a!, fee: b, ...(c !== undefined && Number.isFinite(c) ? { superseded: c } : {}) };
  }
  if (event.kind === 'state') {
    // "accept:2" (the version answered), "deliver+3" (milestones still open).
    const match = /^([a-z_]+)(?::(\d+))?(?:\+(\d+))?$/.exec(detail);
    if (!match || !(PROJECT_ACTIONS as readonly string[]).includes(match[1]!)) return {};
    return {
      action: match[1] as ProjectAction,
      ...(match[2] ? { version: Number(match[2]) } : {}),
      ...(match[3] ? { openMilestones: Number(match[3]) } : {}),
    };
  }
  return {};
}
