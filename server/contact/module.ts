// The contact form and its inbox as a domain (the inbox's replies go out through the e-mail).
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import { deriveKeys } from '../auth/keys.ts';
import type { Db } from '../db/index.ts';
import { createRateLimiter } from '../db/rate-limit.ts';
import type { FormFailure } from '../http/form-answers.ts';
import { createContactForm, type ContactFormDeps } from './form.ts';
import { createFormTokens } from './form-token.ts';
import { contactMessages, type ContactStore } from './messages.ts';
import { createReplies, type Replies, type ReplyMail } from './replies.ts';

/** The admin's inbox: the messages, their status, and the replies sent from the console. */
export type Inbox = ContactStore & Replies;

export function contactModule<Queued>({ config, db, logger, mail }: { config: Config; db: Db; logger: Logger; mail: ReplyMail<Queued> }) {
  const formTokens = createFormTokens(deriveKeys(config.SESSION_SECRETS, 'contact form v1'));
  const store = contactMessages(db);
  const inbox: Inbox = { ...store, ...createReplies({ db, store, mail }) };
  return {
    formTokens,
    store,
    inbox,
    /** The form, once the e-mail is known (null: the site sends no e-mail). */
    form: (notify: ContactFormDeps['notify'], fail: FormFailure) =>
      createContactForm({
        store,
        limiter: createRateLimiter(db, config.CONTACT_WINDOW_MINUTES * 60_000),
        maxPerIp: config.CONTACT_MAX_PER_IP,
        tokens: formTokens,
        notify,
        logger,
        fail,
      }),
  };
}
