// The contact form and its inbox as a domain.
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import { deriveKeys } from '../auth/keys.ts';
import type { Db } from '../db/index.ts';
import { createRateLimiter } from '../db/rate-limit.ts';
import type { FormFailure } from '../http/form-answers.ts';
import { createContactForm, type ContactFormDeps } from './form.ts';
import { createFormTokens } from './form-token.ts';
import { contactMessages } from './messages.ts';

export function contactModule({ config, db, logger }: { config: Config; db: Db; logger: Logger }) {
  const formTokens = createFormTokens(deriveKeys(config.SESSION_SECRETS, 'contact form v1'));
  const store = contactMessages(db);
  return {
    formTokens,
    store,
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
