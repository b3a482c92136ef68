// The public contact form, posted to its page (/Contact): checked again on the server, spam kept
// out without third parties (a honeypot, a signed fill-time token that sends one message, a
// per-address limit), and the message committed before the visitor hears "sent".
import type { Request, Response } from 'express';
import { routePath, type Route } from '../../shared/routes.ts';
import { CONTACT_LIMITS, contactProblems, singleLine } from '../../shared/validation.ts';
import type { RateLimiter } from '../db/rate-limit.ts';
import { redirectAfterPost, stringValues, type FormFailure } from '../http/form-answers.ts';
import type { Logger } from '../base/logger.ts';
import { MIN_FILL_MS, type FormTokens } from './form-token.ts';
import type { ContactMessage, ContactStore } from './messages.ts';

export type ContactFormDeps = {
  store: ContactStore;
  limiter: RateLimiter;
  maxPerIp: number;
  tokens: FormTokens;
  /** Queues the e-mail notification (server/mail/; never throws); null when the site sends no e-mail. */
  notify: ((message: ContactMessage) => Promise<void>) | null;
};

export function createContactForm(deps: ContactFormDeps & { logger: Logger; fail: FormFailure }) {
  const { fail } = deps;
  return async function contact(req: Request, res: Response, route: Route): Promise<void> {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : '');
    const values = stringValues(body, ['name', 'email', 'company', 'subject', 'message']);
    values.message = text('message').slice(0, CONTACT_LIMITS.message);
    const thanks = `${routePath('Contact', route)}?sent=1`;
    // A honeypot field people never see: a bot filled it. Answer as if sent, store nothing.
    if (text('website')) {
      deps.logger.info({ ip: req.ip }, 'contact spam dropped (honeypot)');
      return redirectAfterPost(req, res, thanks, 'contact');
    }
    const age = deps.tokens.age(body.formToken);
    if (age === null) {
      return fail(req, res, 400, {
        form: 'contact',
        values,
        error: { code: 'form_expired', message: 'The form has expired: reload the page and send it again' },
      });
    }
    if (age < MIN_FILL_MS) {
      return fail(req, res, 400, {
        form: 'contact',
        values,
        error: { code: 'too_fast', message: 'The form was sent too quickly: wait a moment and send it again' },
      });
    }
    const input = {
      // The name, the company and the subject go into the admins' e-mail: one plain line each.
      name: singleLine(text('name')),
      email: text('email'),
      company: singleLine(text('company')),
      subject: singleLine(text('subject')),
      message: text('message'),
      consent: ['yes', 'on', 'true'].includes(text('consent')),
    };
    const problems = contactProblems(input);
    if (Object.keys(problems).length > 0) {
      return fail(req, res, 422, {
        form: 'contact',
        values,
        error: { code: 'invalid_request', message: 'Check the highlighted fields', fields: problems },
      });
    }
    const ipKey = `contact:ip:${req.ip ?? 'unknown'}`;
    const wait = await deps.limiter.retryAfter(ipKey, deps.maxPerIp);
    if (wait > 0) {
      return fail(req, res, 429, {
        form: 'contact',
        values,
        error: { code: 'too_many_messages', message: `Too many messages: try again in ${wait} seconds`, retryAfter: wait },
      });
    }
    await deps.limiter.hit(ipKey);
    // Committed before the answer: a crash right after the "sent" loses nothing.
    const message = await deps.store.addOnce(
      String(body.formToken),
      {
        name: input.name.trim(),
        email: input.email.trim(),
        company: input.company.trim() || null,
        subject: input.subject.trim(),
        message: input.message.trim(),
        locale: route.locale,
        ip: req.ip ?? null,
      },
      deps.notify !== null,
    );
    if (!message) {
      return fail(req, res, 409, {
        form: 'contact',
        values,
        error: { code: 'form_used', message: 'This form has already been sent: reload the page to write another message' },
      });
    }
    deps.logger.info({ messageId: message.id }, 'contact message stored');
    await deps.notify?.(message);
    redirectAfterPost(req, res, thanks, 'contact');
  };
}

export type ContactForm = ReturnType<typeof createContactForm>;
