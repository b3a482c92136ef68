// The profile's team forms (docs/decisions/041), posted to /profile with an intent, with or without
// JavaScript: the manager invites a colleague, removes one, hands the manager role over, renames
// the company. The rules are the company service's; a refusal is the form's error, what was
// typed kept (a look-alike address is refused, whoever has it: users.newIdentity).
import type { Request, Response } from 'express';
import { z } from 'zod';
import { COMPANY_NAME_MAX_LENGTH, type CompanyIntent } from '../../shared/company.ts';
import { routePath, type Route } from '../../shared/routes.ts';
import { isEmailAddress, NAME_MAX_LENGTH } from '../../shared/validation.ts';
import type { Session } from '../auth/session-cookie.ts';
import type { CompanyService } from './company-service.ts';
import { redirectAfterPost, stringValues, type FailWith, type FormFailure } from '../http/form-answers.ts';
import { fieldErrors } from '../http/form-fields.ts';
import { oneLine } from '../http/one-line.ts';

/** A name or a company's name: one plain line (http/one-line.ts). */
const text = (max: number) => oneLine().min(1, 'validation.required').max(max, 'validation.tooLong');
/** Whom the manager invites, by address: the site makes the user name (docs/decisions/049). */
const colleagueForm = z.object({
  name: text(NAME_MAX_LENGTH),
  lastName: text(NAME_MAX_LENGTH),
  email: z.string().trim().min(1, 'validation.required').refine(isEmailAddress, 'validation.invalidEmail'),
});
const renameForm = z.object({ companyName: text(COMPANY_NAME_MAX_LENGTH) });

/** The profile after a done action: which one (the page says so), at the team's section. */
function teamAfter(route: Route, saved: string): string {
  return `${routePath('profile', route)}?saved=${saved}#company-title`;
}

export function createCompanyForms(deps: { companies: CompanyService; fail: FormFailure; failWith: FailWith }) {
  const { companies, fail, failWith } = deps;

  return async function handle(intent: CompanyIntent, req: Request, res: Response, route: Route, session: Session): Promise<void> {
    const actor = session.user;
    const ip = req.ip ?? null;
    const colleague = typeof req.body?.colleague === 'string' ? req.body.colleague : '';
    try {
      switch (intent) {
        case 'inviteColleague': {
          const values = stringValues(req.body, ['name', 'lastName', 'email']);
          const parsed = colleagueForm.safeParse(req.body ?? {});
          if (!parsed.success) {
            return await fail(req, res, 422, {
              form: 'company',
              values,
              error: { code: 'invalid_request', message: 'Check the highlighted fields', fields: fieldErrors(parsed.error) },
            });
          }
          try {
            await companies.invite(actor, parsed.data, route.locale, ip);
          } catch (error) {
            return await failWith(req, res, 'company', error, values);
          }
          return redirectAfterPost(req, res, teamAfter(route, 'colleagueInvited'), 'colleagueInvited');
        }
        case 'removeColleague':
          await companies.remove(actor, colleague, ip);
          return redirectAfterPost(req, res, teamAfter(route, 'colleagueRemoved'), 'colleagueRemoved');
        case 'handOverManager':
          await companies.handOver(actor, colleague, ip);
          return redirectAfterPost(req, res, teamAfter(route, 'managerHandedOver'), 'managerHandedOver');
        case 'renameCompany': {
          const values = stringValues(req.body, ['companyName']);
          const parsed = renameForm.safeParse(req.body ?? {});
          if (!parsed.success) {
            return await fail(req, res, 422, {
              form: 'company',
              values,
              error: { code: 'invalid_request', message: 'Check the highlighted fields', fields: fieldErrors(parsed.error) },
            });
          }
          await companies.rename(actor, parsed.data.companyName, ip);
          return redirectAfterPost(req, res, teamAfter(route, 'companyRenamed'), 'companyRenamed');
        }
      }
    } catch (error) {
      await failWith(req, res, 'company', error, {});
    }
  };
}

export type CompanyForms = ReturnType<typeof createCompanyForms>;
