// What a company's people do with it (docs/decisions/041): see who is in it; its manager invites colleagues
// (the invitation flow of server/account-links/), removes them, hands the manager role over and
// renames it (a colleague removed before accepting their invitation is erased with it); an admin lists companies and moves a user into one. The API (server/api/company.ts)
// and the profile's forms (company-forms.ts) both come here; the rules of who belongs where are
// server/companies/companies.ts's. Every change is
// audited; invitations are counted per company (COMPANY_INVITATIONS_PER_HOUR), whoever manages it
// (docs/decisions/052: handing the role over does not start a new count).
import type { CompanyRole, CompanyView, Membership } from '../../shared/company.ts';
import type { Locale } from '../../shared/locales.ts';
import { canonicalIdentity } from '../../shared/identity.ts';
import type { ColleagueInvitation } from '../account-links/colleague-invitations.ts';
import type { Accounts } from '../account-links/service.ts';
import { noAudit, type Audit } from '../audit/types.ts';
import type { Db } from '../db/index.ts';
import type { RateLimiter } from '../db/rate-limit.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import type { Actor } from '../projects/access.ts';
import * as companies from '../companies/companies.ts';
import { eraseAccount } from './erase.ts';

export type CompanyServiceDeps = {
  db: Db;
  /** Invitations: null when the accounts are an external API's (no colleague can be invited here). */
  accounts: Accounts | null;
  audit?: Audit;
  invitations?: { limiter: RateLimiter; perHour: number };
};

/** Whom a manager invites: never a user name (docs/decisions/049). */
export type Colleague = { email: string; name: string; lastName: string };

const HOUR_MS = 3_600_000;

export function createCompanyService(deps: CompanyServiceDeps) {
  const { db } = deps;
  const audit = deps.audit ?? noAudit;

  async function managed(actor: Actor): Promise<Membership> {
    return companies.requireManager(await companies.ensureMembership(db, actor));
  }

  return {
    /** The actor's company with a page of its people (e-mail addresses for its managers); null for the other roles. */
    async view(actor: Actor, page?: number, pageSize?: number): Promise<CompanyView | null> {
      const membership = await companies.ensureMembership(db, actor);
      if (!membership) return null;
      const members = await companies.membersOf(db, membership.companyId, {
        page,
        pageSize,
        withEmail: membership.role === 'manager',
        pending: false,
      });
      return { ...membership, members: members.items, total: members.total, page: members.page, pageSize: members.pageSize };
    },

    /**
     * The manager invites a colleague by address, and is answered the same whether it has an
     * account or not (docs/decisions/049): a new address becomes an account of the company's kind
     * in it, with a user name made by the site, that chooses its password through the invitation's
     * link; an address that has an account gets a notice instead. The e-mail greets nobody by a
     * name the manager typed (the address is not verified yet).
     */
    async invite(actor: Actor, colleague: Colleague, locale: Locale, ip: string | null): Promise<ColleagueInvitation> {
      const membership = await managed(actor);
      if (!deps.accounts) throw new ApiError(501, 'not_implemented', 'Invitations need the built-in API');
      // Without a mail server an admin is handed the link to pass on; a manager never is: a link
      // exists only for an address without an account, so handing it over would tell the two apart
      // (decision 049), and a page form cannot hand a secret link over a redirect. Refused, before
      // the address is looked at.
      if (!deps.accounts.canSend) {
        throw new ApiError(503, 'mail_unavailable', "This site cannot send e-mail now: ask the site's staff to invite your colleague");
      }
      if (deps.invitations) {
        const { limiter, perHour } = deps.invitations;
        const wait = await limiter.take(`company-invitation:${membership.companyId}`, perHour, HOUR_MS);
        if (wait > 0) throw new TooManyAttemptsError(wait, 'too_many_invitations', 'Too many invitations');
      }
      const result = await deps.accounts.inviteColleague(
        { userName: actor.userName, ip },
        { ...colleague, role: membership.kind as 'CLI' | 'ORG', companyId: membership.companyId },
        locale,
      );
      // The audit log is the admins': it says what happened.
      await audit.record({
        action: 'colleague_invited',
        actor: actor.userName,
        target: result.userName,
        ip,
        detail: { company: membership.companyId, outcome: result.outcome },
      });
      return result.invitation;
    },

    async remove(actor: Actor, userName: string, ip: string | null): Promise<void> {
      const membership = await managed(actor);
      const outcome = await companies.removeColleague(db, { ...actor, membership }, userName, (trx, name) =>
        eraseAccount(trx, { userName: name }),
      );
      await audit.record({
        action: 'colleague_removed',
        actor: actor.userName,
        target: canonicalIdentity(userName),
        ip,
        detail: { company: membership.companyId, ...(outcome === 'invitation_withdrawn' ? { invitation: 'withdrawn' } : {}) },
      });
    },

    async handOver(actor: Actor, userName: string, ip: string | null): Promise<void> {
      const membership = await managed(actor);
      await companies.handOver(db, { ...actor, membership }, userName);
      await audit.record({
        action: 'manager_handed_over',
        actor: actor.userName,
        target: canonicalIdentity(userName),
        ip,
        detail: { company: membership.companyId },
      });
    },

    async rename(actor: Actor, name: string, ip: string | null): Promise<void> {
      const membership = await managed(actor);
      await companies.renameCompany(db, membership, name);
      await audit.record({
        action: 'company_renamed',
        actor: actor.userName,
        ip,
        detail: { company: membership.companyId, name: name.trim() },
      });
    },

    list: (query: { q?: string | undefined; page?: number | undefined; pageSize?: number | undefined }) =>
      companies.listCompanies(db, query),

    /** A company's people, as an admin sees them (with their addresses). */
    async members(companyId: number, page?: number, pageSize?: number) {
      const company = await db.k.selectFrom('companies').select(['id', 'name', 'kind']).where('id', '=', companyId).executeTakeFirst();
      if (!company) throw new ApiError(404, 'company_not_found', `No company ${companyId}`);
      const members = await companies.membersOf(db, companyId, { page, pageSize, withEmail: true, pending: true });
      return { id: company.id, name: company.name, kind: company.kind, ...members };
    },

    /** An admin moves a user into a company (or a new one), as its manager or a member. */
    async move(
      admin: Actor,
      userName: string,
      target: { companyId: number } | { newName: string },
      role: CompanyRole,
      ip: string | null,
    ): Promise<Membership> {
      const membership = await companies.moveUser(db, userName, target, role);
      await audit.record({
        action: 'company_changed',
        actor: admin.userName,
        target: canonicalIdentity(userName),
        ip,
        detail: { company: membership.companyId, role: membership.role },
      });
      return membership;
    },

    membershipOf: (userName: string) => companies.membershipOf(db.k, userName),
  };
}

export type CompanyService = ReturnType<typeof createCompanyService>;
