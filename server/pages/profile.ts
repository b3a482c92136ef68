// My Profile: the user's details and avatar, their sessions, the deletion of the account, and
// (built-in API) their e-mail address. Its forms: the details (name, last name), the avatar
// (an image posted as the body), the account's intents (server/my-account/profile-forms.ts) and
// "change my e-mail" (server/account-links/forms.ts).
import { z } from 'zod';
import { isAccountIntent } from '../../shared/account.ts';
import { isCalendarIntent } from '../../shared/calendar.ts';
import { MAIL_PREFERENCES_INTENT, MAIL_TOPICS } from '../../shared/mail-preferences.ts';
import { mailPreferencesBody } from '../mail/preferences.ts';
import { isCompanyIntent, TEAM_PAGE_PARAM } from '../../shared/company.ts';
import { ownsProjects } from '../../shared/projects.ts';
import { routePath } from '../../shared/routes.ts';
import { NAME_MAX_LENGTH } from '../../shared/validation.ts';
import { redirectAfterPost, stringValues } from '../http/form-answers.ts';
import { fieldErrors } from '../http/form-fields.ts';
import { oneLine } from '../http/one-line.ts';
import { requireSession, type PageAction, type PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'account' | 'accountPages' | 'backend' | 'calendarFeeds' | 'companies' | 'mailPreferences' | 'sessions'> & {
  forms: Pick<PageServices['forms'], 'calendar' | 'company' | 'links' | 'profile'>;
};

export const loader = (async (args) => {
  const session = requireSession(args);
  const { account, accountPages, companies, calendarFeeds, mailPreferences } = args.services;
  // The user the sign-in gave (the built-in API's, read with the session; an external API's
  // token's): no user-fetch call exists (docs/specification.md §13.1).
  const { user } = session;
  // The team's page (`?team=2`): a company's people are listed a page at a time.
  const teamPage = Number(args.query.get(TEAM_PAGE_PARAM) ?? '1');
  const [accountData, email, company, calendar, preferences] = await Promise.all([
    account ? account.profileData(session) : { sessions: [], sessionCount: 0, deletion: null },
    accountPages ? accountPages.emailSettings(user) : null,
    companies && ownsProjects(session.user) ? companies.view(session.user, Number.isSafeInteger(teamPage) ? teamPage : 1) : null,
    // The private calendar address: null when the user has none, absent where the site has none.
    calendarFeeds ? calendarFeeds.view(session.user.userName) : undefined,
    mailPreferences ? mailPreferences.store.get(session.user.userName) : undefined,
  ]);
  // What the user is e-mailed about, and when the daily summary goes.
  const mail =
    mailPreferences && preferences ? { preferences, digestHour: mailPreferences.digestHour, timeZone: mailPreferences.timeZone } : null;
  return {
    data: { user, account: accountData, email, company, mail, ...(calendarFeeds ? { calendar: calendar ?? null } : {}) },
  };
}) satisfies PageLoader<unknown, Uses>;

/** A name: one plain line (http/one-line.ts). */
const nameField = (max: number) => oneLine().min(1, 'validation.required').max(max, 'validation.tooLong');
const profileForm = z.object({ name: nameField(NAME_MAX_LENGTH), lastName: nameField(NAME_MAX_LENGTH) });

export const action: PageAction<Uses> = async ({ req, res, route, session, services, fail, failWith }) => {
  if (!session) return;
  const isImage = (req.get('content-type') ?? '').startsWith('image/');
  const body = req.body as { intent?: unknown; form?: unknown } | undefined;
  // The account's forms (sessions, deletion) name what they do; the details form names nothing.
  const intent: unknown = isImage ? undefined : body?.intent;
  if (isAccountIntent(intent)) return services.forms.profile(intent, req, res, route, session);
  if (isCompanyIntent(intent)) return services.forms.company(intent, req, res, route, session);
  if (isCalendarIntent(intent) && services.forms.calendar) return services.forms.calendar(intent, req, res, route, session);
  if (intent === MAIL_PREFERENCES_INTENT && services.mailPreferences) {
    const values = stringValues(req.body, ['reminderDays', ...MAIL_TOPICS]);
    const parsed = mailPreferencesBody.safeParse(values);
    if (!parsed.success) {
      return fail(req, res, 422, {
        form: 'mail',
        values,
        error: { code: 'invalid_request', message: 'Check the highlighted fields', fields: fieldErrors(parsed.error) },
      });
    }
    try {
      await services.mailPreferences.store.set(session.user.userName, parsed.data);
      return redirectAfterPost(
        req,
        res,
        `${routePath('profile', route)}?saved=${MAIL_PREFERENCES_INTENT}#mail-title`,
        MAIL_PREFERENCES_INTENT,
      );
    } catch (error) {
      return failWith(req, res, 'mail', error, values);
    }
  }
  // The second form, "change my e-mail", says which it is.
  if (!isImage && services.forms.links && body?.form === 'email') return services.forms.links.emailChange(req, res, route, session);
  const values = isImage ? {} : stringValues(req.body, ['name', 'lastName']);
  try {
    let answer: { token: string };
    if (isImage) {
      const image = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      answer = await services.backend.setAvatar(session.token, image, req.get('content-type') ?? '');
    } else {
      const parsed = profileForm.safeParse(req.body ?? {});
      if (!parsed.success) {
        return fail(req, res, 422, {
          form: 'profile',
          values,
          error: { code: 'invalid_request', message: 'Check the highlighted fields', fields: fieldErrors(parsed.error) },
        });
      }
      answer = await services.backend.updateProfile(session.token, parsed.data);
    }
    await services.sessions.refresh(session, answer.token);
    redirectAfterPost(req, res, `${routePath('profile', route)}?saved=${isImage ? 'avatar' : 'profile'}`, isImage ? 'avatar' : 'profile');
  } catch (error) {
    await failWith(req, res, isImage ? 'avatar' : 'profile', error, values);
  }
};
