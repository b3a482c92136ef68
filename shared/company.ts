// Client companies and organisations (docs/decisions/041): the account a client's or
// an organisation's people share. Every CLI/ORG user belongs to exactly one, as its manager
// (answers proposals, confirms deliveries, closes, invites and removes colleagues) or as a
// member (sees and works on every project of the company: messages, documents, briefs).

export const COMPANY_ROLES = ['manager', 'member'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

export function isCompanyRole(value: unknown): value is CompanyRole {
  return typeof value === 'string' && (COMPANY_ROLES as readonly string[]).includes(value);
}

/** The longest name a company takes. */
export const COMPANY_NAME_MAX_LENGTH = 120;

/** How the signed-in user stands in their company. */
export type Membership = { companyId: number; companyName: string; kind: string; role: CompanyRole };

/** One person of a company, as its members see them (the e-mail address for managers only). */
export type CompanyMember = {
  userName: string;
  name: string;
  lastName: string;
  role: CompanyRole;
  joinedAt: string;
  /** Invited and no password chosen yet. */
  invited: boolean;
  email?: string | null;
};

/** The user's company as the profile shows it: who is in it, a page at a time. */
export type CompanyView = Membership & {
  members: CompanyMember[];
  total: number;
  page: number;
  pageSize: number;
};

/** The profile's team forms (posted to /profile with an intent, with or without JavaScript). */
export const COMPANY_INTENTS = ['inviteColleague', 'removeColleague', 'handOverManager', 'renameCompany'] as const;
export type CompanyIntent = (typeof COMPANY_INTENTS)[number];

export function isCompanyIntent(value: unknown): value is CompanyIntent {
  return typeof value === 'string' && (COMPANY_INTENTS as readonly string[]).includes(value);
}

/** The profile's query parameter of the team's page (`?team=2`). */
export const TEAM_PAGE_PARAM = 'team';
