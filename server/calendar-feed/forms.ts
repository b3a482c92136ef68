// The profile's calendar forms (docs/decisions/043): make the private calendar address, renew it (the old
// one stops working) or stop it — posted to /profile with an intent, with or without JavaScript.
import type { Request, Response } from 'express';
import type { CalendarIntent } from '../../shared/calendar.ts';
import { routePath, type Route } from '../../shared/routes.ts';
import type { Session } from '../auth/session-cookie.ts';
import { redirectAfterPost, type FailWith } from '../http/form-answers.ts';
import type { CalendarFeeds } from './feeds.ts';

export function createCalendarForms(deps: { feeds: CalendarFeeds; failWith: FailWith }) {
  return async function handle(intent: CalendarIntent, req: Request, res: Response, route: Route, session: Session): Promise<void> {
    const userName = session.user.userName;
    try {
      if (intent === 'calendarCreate') await deps.feeds.create(userName);
      else if (intent === 'calendarRenew') await deps.feeds.renew(userName);
      else await deps.feeds.stop(userName);
      redirectAfterPost(req, res, `${routePath('profile', route)}?saved=${intent}#calendar-title`, intent);
    } catch (error) {
      await deps.failWith(req, res, 'calendar', error, {});
    }
  };
}
