// Sign-in as a domain: the API's token key (built-in) or verifier (external API), the session's
// seal, the session rows every private answer asks who the user is now, the backend the forms
// talk to, and the shared password-guess limits (docs/decisions/009).
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import type { ChangeFeed } from '../db/changes.ts';
import type { Db } from '../db/index.ts';
import { createRateLimiter } from '../db/rate-limit.ts';
import type { ImageUploads } from '../uploads/images.ts';
import { embeddedBackend, httpBackend } from './backend.ts';
import { createDeviceCookies } from './device-cookie.ts';
import { deriveKeys } from './keys.ts';
import { createCurrentPasswordGuard, createLoginGuard, type PasswordLimits } from './login.ts';
import { createSessionCodec } from './session-cookie.ts';
import { createSessions } from './session-store.ts';
import { hmacVerifier, jwksVerifier, keyFromSecret, TOKEN_ISSUER, unverifiedDecoder, type TokenVerifier } from './tokens.ts';

export type AuthModuleDeps = {
  config: Config;
  db: Db;
  changes: ChangeFeed;
  logger: Logger;
  uploads: ImageUploads;
  /** The error codes the site has words for: an external API's others are not passed on. */
  errorCodes: ReadonlySet<string>;
  /** For the external API mode in tests. */
  fetch?: typeof fetch | undefined;
};

export function authModule({ config, db, changes, logger, uploads, errorCodes, fetch }: AuthModuleDeps) {
  // Signed with the newest key, verified with any (SESSION_SECRETS, docs/decisions/051); API_JWT_SECRET is one key.
  const apiKeys = (config.API_JWT_SECRET ? [config.API_JWT_SECRET] : deriveKeys(config.SESSION_SECRETS, 'api token v1')).map(keyFromSecret);
  const apiKey = apiKeys[0]!;
  const external = config.API_URL !== undefined;
  const verify: TokenVerifier = !external
    ? hmacVerifier(apiKeys, TOKEN_ISSUER)
    : config.API_JWKS_URL
      ? jwksVerifier(config.API_JWKS_URL)
      : config.API_JWT_SECRET
        ? hmacVerifier(apiKey)
        : unverifiedDecoder();
  const codec = createSessionCodec(config.SESSION_SECRETS);
  const ttlMinutes = config.TOKEN_TTL_MINUTES;
  const sessions = createSessions({ db, codec, verify, builtIn: !external, ttlMinutes, logger, changes });
  const backend = external
    ? httpBackend(config.API_URL!, errorCodes, fetch)
    : embeddedBackend({ db, sessions, key: apiKey, ttlMinutes, verify, uploads });
  // Password guesses, on the login and change-password forms and the API.
  const passwordLimiter = createRateLimiter(db, config.LOGIN_WINDOW_MINUTES * 60_000);
  const passwordLimits: PasswordLimits = {
    perIdentifierIp: config.LOGIN_MAX_FAILURES_PER_IDENTIFIER_IP,
    perIp: config.LOGIN_MAX_FAILURES_PER_IP,
    slowdownAfter: config.LOGIN_SLOWDOWN_FAILURES_PER_IDENTIFIER,
    slowdownSeconds: config.LOGIN_SLOWDOWN_SECONDS,
    perAccountPasswordChange: config.PASSWORD_CHANGE_MAX_FAILURES_PER_ACCOUNT,
  };
  // A browser that signed in as an identifier is exempt from what others' failures do to it.
  const deviceCookies = createDeviceCookies(deriveKeys(config.SESSION_SECRETS, 'device cookie v1'));
  if (config.sessionSecretGenerated) {
    logger.warn('SESSION_SECRET is not set: using a random one for this process (sessions end when it restarts)');
  }
  return {
    /** The users are another API's (API_URL): the site's own account features are off. */
    external,
    verify,
    codec,
    sessions,
    backend,
    passwordLimiter,
    loginGuard: createLoginGuard(passwordLimiter, passwordLimits, deviceCookies),
    currentPasswordGuard: createCurrentPasswordGuard(passwordLimiter, passwordLimits),
  };
}

export type AuthModule = ReturnType<typeof authModule>;
