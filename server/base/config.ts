// Configuration: read from the environment once at start, validated, typed. An invalid value
// stops the server with a message that names the variable.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { z } from 'zod';
import { PARSE_ONCE } from './parse-once.ts';
import { COMPANY_TIME_ZONE } from '../../shared/time-zone.ts';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).transform((v) => ['true', '1', 'yes', 'on'].includes(v));

// A DNS host name: dot-separated labels, the last one starting with a letter (so neither an IP
// address nor a bare `localhost`), no port, no wildcard.
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** One CMS_MEDIA_HOSTS entry (`cdn.example.com` or `https://cdn.example.com`) → its host name. */
function mediaHost(entry: string): { host: string } | { error: string } {
  // Named in the error, but never with a password someone put in it.
  const shown = JSON.stringify(entry.replace(/\/\/[^/]*@/, '//…@'));
  let host = entry.toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//.exec(host)?.[1];
  if (scheme !== undefined) {
    if (scheme !== 'https') return { error: `${shown} is not https: media are only loaded over https` };
    host = host.slice('https://'.length).replace(/\/$/, '');
  }
  if (!HOST_NAME.test(host)) {
    return { error: `${shown} is not a bare host name (like cdn.example.com: no path, port, wildcard or IP address)` };
  }
  return { host };
}

/** Comma-separated host names of a Strapi upload provider (S3, Cloudinary, Strapi Cloud). */
const mediaHosts = z
  .string()
  .default('')
  .transform((value, context) => {
    const hosts = new Set<string>();
    for (const entry of value.split(',').map((part) => part.trim())) {
      if (entry === '') continue;
      const parsed = mediaHost(entry);
      if ('error' in parsed) context.addIssue({ code: 'custom', message: parsed.error });
      else hosts.add(parsed.host);
    }
    return [...hosts];
  });

/** Comma-separated secrets, each at least 32 characters (spaces around the commas are dropped). */
const secretList = z
  .string()
  .transform((value) => value.split(',').map((part) => part.trim()))
  .pipe(
    z
      .array(z.string().min(32, 'each secret must be at least 32 characters (they are separated by commas)'))
      .min(1)
      .refine((secrets) => new Set(secrets).size === secrets.length, 'a secret is listed twice'),
  );

/** A whole number from `min` to `max`, `fallback` when unset or empty. */
const count = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** A size in MB (decimals allowed), `fallback` when unset or empty. */
const megabytes = (fallback: number) => z.coerce.number().min(0.01).max(1_000_000).default(fallback);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Origin used for canonical URLs, hreflang, the sitemap and e-mails; never taken from the Host header. Required in production. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  SITE_NAME: z.string().trim().min(1).max(80).default('the product'),
  /** The name under an installed app's icon (web manifest short_name, 12 characters or fewer read best); default SITE_NAME. */
  SITE_SHORT_NAME: z.string().trim().min(1).max(30).optional(),
  /** The i18n_redirected cookie is supported but off by default. */
  LOCALE_COOKIE: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Worker processes on the same port (node:cluster); sessions and rate limits are shared. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Memory for reusing rendered page markup (server/render/render-cache.ts), in MiB; 0 turns it off. */
  RENDER_CACHE_MB: z.coerce.number().int().min(0).max(1024).default(16),
  /** How long in-flight requests may take to finish after SIGTERM/SIGINT, in seconds. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
  /**
   * After SIGTERM, how long the server keeps answering (with Connection: close, /readyz 503) so
   * that a load balancer stops sending and queued connections are served, before it closes.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(60).default(1),
  /**
   * Behind a reverse proxy: which proxies to trust for the client IP and HTTPS detection
   * (Express "trust proxy": true, a hop count, or addresses/subnets like "loopback, 10.0.0.0/8").
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((v): boolean | number | string =>
      v === 'true' ? true : v === 'false' || v === '' ? false : /^\d+$/.test(v) ? Number(v) : v,
    ),
  /**
   * Limits for slow or idle clients (server/http/server.ts): the headers must arrive within
   * HTTP_HEADERS_TIMEOUT_SECONDS, the whole request within HTTP_REQUEST_TIMEOUT_SECONDS; idle
   * keep-alive connections close after HTTP_KEEP_ALIVE_TIMEOUT_SECONDS; at most
   * HTTP_MAX_CONNECTIONS connections at once per process.
   */
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Uploads (avatars, branding logos) one user may make per minute, and the bytes one user may have stored. */
  UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(10),
  UPLOAD_QUOTA_MB: z.coerce.number().min(1).max(10_000).default(5),
  /** Briefs one client or organisation may submit per hour. */
  PROJECT_BRIEFS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Project messages one user may post per minute. */
  PROJECT_MESSAGES_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
  /** Project documents one user may upload per minute. */
  PROJECT_UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * Byte quotas of project documents (docs/decisions/031-document-quotas-and-deletion.md), in MB
   * of 1,048,576 bytes, counted in the database: what one user's documents may take over every
   * project together, and what one project's documents may take whoever uploaded them (413 past
   * either). Deleting a document frees its bytes.
   */
  PROJECT_DOCUMENTS_QUOTA_MB_PER_USER: megabytes(200),
  PROJECT_DOCUMENTS_QUOTA_MB_PER_PROJECT: megabytes(500),
  /** Milestones one user may add, mark done or reopen per minute (each may e-mail every participant). */
  PROJECT_MILESTONE_CHANGES_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
  /** Moves of a project's state (a proposal sent included) one user may make per hour. */
  PROJECT_STATE_CHANGES_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(60),
  /**
   * One user's toggles of one milestone within this many minutes are one history line and one
   * e-mail, which is held that long (a toggle back withdraws both); 0: every toggle is its own.
   */
  PROJECT_MILESTONE_COLLAPSE_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  /**
   * E-mail changes (server/account-links/): requests one user may make per EMAIL_CHANGE_WINDOW_MINUTES
   * before 429; e-mails they may send to one address in the same window (more requests are
   * answered the same but send nothing there, so that the limit tells nothing about the address).
   */
  EMAIL_CHANGE_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(3),
  EMAIL_CHANGE_MAX_PER_ADDRESS: z.coerce.number().int().min(1).max(1000).default(3),
  EMAIL_CHANGE_WINDOW_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  /** Invitations one admin may resend per hour, and invitations resent to one invited user per hour (429 past either). */
  INVITATION_RESENDS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
  INVITATION_RESENDS_PER_USER_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(3),
  /** Colleagues one company manager may invite per hour (each is an e-mail to an unverified address). */
  COMPANY_INVITATIONS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(10),
  /** Live streams (GET /live, one per signed-in tab) one user may have open on one instance, and one instance holds at most (429 past either). */
  LIVE_STREAMS_PER_USER: z.coerce.number().int().min(1).max(1000).default(10),
  LIVE_STREAMS_MAX: z.coerce.number().int().min(1).max(100_000).default(2000),
  /** A live stream's heartbeat (a comment line that keeps proxies from closing it and finds dead clients). */
  LIVE_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(25),
  /** A live stream ends after this long; the browser reconnects at once (its session is read again). */
  LIVE_STREAM_MAX_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  /** Reads of one private calendar address per hour (429 past it; a calendar app reads it every hour or so). */
  CALENDAR_READS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(120),
  /** The hour (0–23, in JOBS_TIME_ZONE) from which each day's e-mail digest and milestone reminders go out. */
  DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(7),
  /** The time zone of DIGEST_HOUR and of "today" for reminders (an IANA name). */
  JOBS_TIME_ZONE: z
    .string()
    .refine((zone) => {
      try {
        // Any locale: only the zone is checked.
        new Intl.DateTimeFormat(undefined, { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'an IANA time zone, such as Europe/Madrid')
    .default(COMPANY_TIME_ZONE),
  /** Notifications older than this are deleted (once a day). */
  NOTIFICATIONS_KEEP_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  /** Downloads of everything the site holds about them ("my data") one user may make per hour. */
  DATA_EXPORTS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * Downloads (docs/decisions/028-downloads-stream-with-deadlines.md): a download whose client
   * takes nothing for DOWNLOAD_STALL_SECONDS is ended (documents, images, the data export, the
   * PDFs); DOWNLOADS_PER_USER project documents one user downloads at once (429 past it);
   * EXPORTS_MAX_CONCURRENT data exports one process makes at once (503 past it; one per user,
   * 429 for a second), each ended when not done within EXPORT_DEADLINE_SECONDS (decision 056);
   * PDF_JOBS_PER_USER PDFs one user may have waiting or being laid out (429 past it, the others'
   * served in turn, a full queue making room for a newcomer and for an admin).
   */
  DOWNLOAD_STALL_SECONDS: count(1, 3600, 30),
  DOWNLOADS_PER_USER: count(1, 100, 4),
  EXPORTS_MAX_CONCURRENT: count(1, 100, 2),
  EXPORT_DEADLINE_SECONDS: count(1, 3600, 60),
  PDF_JOBS_PER_USER: count(1, 100, 2),
  /**
   * Project documents this process reads at once (each upload holds its file, up to 10 MB, in
   * memory until it is stored); one past them waits its turn up to UPLOADS_WAIT_SECONDS (0: not
   * at all), then gets 503 `uploads_busy` with Retry-After (docs/decisions/031).
   */
  UPLOADS_MAX_CONCURRENT: count(1, 100, 4),
  UPLOADS_WAIT_SECONDS: count(0, 60, 10),
  /**
   * postgres://user:password@host:5432/db selects PostgreSQL (several machines share it);
   * unset, the embedded SQLite database in DATA_DIR/site.db.
   */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(?:ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** PostgreSQL connections per process (WEB_CONCURRENCY processes each have their own pool). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** Where the embedded SQLite database lives (and, before they moved into it, the uploads). */
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * Turns /metrics (Prometheus text) on, for scrapers that send `Authorization: Bearer <token>`.
   * Unset (and METRICS_PORT unset): no /metrics at all.
   */
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Serves /metrics on this port of HOST instead, for a network only the scraper reaches (the
   * token is then asked there too when set). With WEB_CONCURRENCY > 1 the primary serves it,
   * summing the workers.
   */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Seals the session cookie (authenticated encryption) and derives every other key of the site. Required in production (or SESSION_SECRETS). */
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Key rotation (docs/decisions/051): the secrets, comma-separated, newest first. The first
   * seals and signs; every one opens and verifies, so what an older one made keeps working until
   * it is taken out of the list. Enough on its own; SESSION_SECRET alone is a list of one.
   */
  SESSION_SECRETS: secretList.optional(),
  /** External API base (e.g. https://api.example.com). Unset: the built-in API at /api. */
  API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Key of the API's HS256 tokens: the built-in API signs with it; an external API's tokens are verified with it. */
  API_JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** JWKS of an external API, to verify its tokens (instead of API_JWT_SECRET). */
  API_JWKS_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Strapi (v4 or v5) base URL; unset: Markdown content in content/ and branding in the database. */
  CMS_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** A Strapi API token (read access to posts, legal pages and the *-customs collections)… */
  CMS_TOKEN: z.string().min(1).optional(),
  /**
   * …or a service account, signed in with POST {CMS_URL}/api/auth/local, for the branding only
   * (posts and legal pages are then read anonymously: a jwt would lose the Public role's rights).
   */
  CMS_IDENTIFIER: z.string().min(1).optional(),
  CMS_PASSWORD: z.string().min(1).optional(),
  /**
   * Hosts of the CMS's upload provider (S3, Cloudinary, Strapi Cloud), whose media URLs are
   * absolute: images there are shown (https only), and the CSP's img-src allows exactly them.
   */
  CMS_MEDIA_HOSTS: mediaHosts,
  /** Seconds a user's branding and the CMS content are cached. */
  CMS_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /**
   * Draft preview (server/preview/): the secret Strapi's preview handler puts in the /preview
   * link, and a Strapi API token that may read drafts (find and findOne on posts and legal
   * pages). Both, with CMS_URL, turn the preview on; without them /preview is a 404.
   */
  CMS_PREVIEW_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  CMS_PREVIEW_TOKEN: z.string().min(1).optional(),
  /** The secret Strapi's webhooks send (`Authorization: Bearer …`) to POST /cms/webhook; unset, the webhook is a 404. */
  CMS_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Google Tag Manager container (GTM-XXXX) and Google Analytics 4 property (G-XXXX): loaded only after consent. */
  ANALYTICS_GTM_ID: z
    .string()
    .regex(/^GTM-[A-Z0-9]{4,10}$/, 'must look like GTM-XXXXXX')
    .optional(),
  ANALYTICS_GA_ID: z
    .string()
    .regex(/^G-[A-Z0-9]{4,12}$/, 'must look like G-XXXXXXXXXX')
    .optional(),
  /** Lifetime of tokens issued by the built-in API, in minutes. */
  TOKEN_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(60 * 24 * 30)
    .default(480),
  /**
   * Password guesses (docs/decisions/009-login-limits.md), all counted in windows of
   * LOGIN_WINDOW_MINUTES that start with the first failure and are never extended:
   * failed sign-ins on one identifier (user name or e-mail, as typed) from one IP before that IP
   * gets 429 for it; wrong passwords from one IP (sign-in and change password, any account)
   * before it gets 429; failed sign-ins on one identifier from all IPs before it is paced to one
   * attempt per LOGIN_SLOWDOWN_SECONDS; wrong current passwords of one account in change password.
   */
  LOGIN_MAX_FAILURES_PER_IDENTIFIER_IP: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(20),
  LOGIN_SLOWDOWN_FAILURES_PER_IDENTIFIER: z.coerce.number().int().min(1).default(50),
  LOGIN_SLOWDOWN_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  PASSWORD_CHANGE_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  /** Contact messages accepted per IP per CONTACT_WINDOW_MINUTES before 429. */
  CONTACT_MAX_PER_IP: z.coerce.number().int().min(1).default(5),
  CONTACT_WINDOW_MINUTES: z.coerce.number().int().min(1).default(10),
  /**
   * The mail server every e-mail of the site goes through (server/mail/), e.g.
   * smtps://user:pass@smtp.example.com:465. Unset: development and tests write the e-mails to
   * the log; production sends none.
   */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** The sender of the site's e-mails; default no-reply@<host of PUBLIC_URL>. */
  MAIL_FROM: z.email().optional(),
  /** Who gets contact messages by e-mail; unset: the enabled ADMIN users with an e-mail address. */
  CONTACT_NOTIFY_TO: z.email().optional(),
  /** The older name of MAIL_FROM, still read when MAIL_FROM is unset. */
  CONTACT_NOTIFY_FROM: z.email().optional(),
  /** Administrators must use two-factor authentication: signed in without it, they can only set it up. */
  ADMIN_REQUIRE_2FA: bool.default(false),
  /** Wrong two-factor codes for one account (sign-in, turning 2FA off) per LOGIN_WINDOW_MINUTES before 429. */
  TWO_FACTOR_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  /**
   * Forgotten-password requests (server/account-links/): from one IP per PASSWORD_RESET_WINDOW_MINUTES
   * before 429; e-mails to one account in the same window (more requests are answered the same
   * but send nothing, so that the limit tells nobody the account exists).
   */
  PASSWORD_RESET_MAX_PER_IP: z.coerce.number().int().min(1).default(10),
  PASSWORD_RESET_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).default(3),
  PASSWORD_RESET_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
});

export type Config = Omit<z.infer<typeof schema>, 'PUBLIC_URL' | 'SESSION_SECRET' | 'SESSION_SECRETS' | 'MAIL_FROM'> & {
  PUBLIC_URL: string;
  MAIL_FROM: string;
  /** The newest secret: what seals and signs (SESSION_SECRETS' first, or SESSION_SECRET). */
  SESSION_SECRET: string;
  /** Every secret, newest first: any of them opens and verifies (docs/decisions/051). */
  SESSION_SECRETS: readonly string[];
  /** True when SESSION_SECRET was generated for this process (development only). */
  sessionSecretGenerated: boolean;
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * What production cannot guess: a secret made for the process would sign everybody out at each
 * restart, and an origin taken from the port would put http://localhost into canonical links, the
 * sitemap, the feeds and every e-mail. Each missing one is named with the line that sets it.
 */
function requireInProduction(config: Pick<z.infer<typeof schema>, 'SESSION_SECRET' | 'SESSION_SECRETS' | 'PUBLIC_URL'>): void {
  const missing: string[] = [];
  if (!config.SESSION_SECRET && !config.SESSION_SECRETS) {
    missing.push(
      'SESSION_SECRET is required in production (or SESSION_SECRETS, newest first): set it to a random string of at least 32 characters ' +
        '(for example: node -e "console.log(crypto.randomBytes(32).toString(\'base64url\'))").',
    );
  }
  if (!config.PUBLIC_URL) {
    missing.push(
      "PUBLIC_URL is required in production: set it to the site's public origin, a line PUBLIC_URL=https://www.example.com " +
        'in the environment file (/etc/site/site.env, or docker run --env-file); canonical links, the sitemap, the feeds ' +
        'and the links in e-mails are built from it.',
    );
  }
  if (missing.length > 0) throw new ConfigError(missing.join('\n'));
}

/**
 * The secrets, newest first: SESSION_SECRETS, or SESSION_SECRET alone, or one made for this
 * process (development). Both set, SESSION_SECRET must be one of the list: a rotation half done
 * (the new list set, the old variable left) starts, a contradiction does not.
 */
function sessionSecrets(config: Pick<z.infer<typeof schema>, 'SESSION_SECRET' | 'SESSION_SECRETS'>): string[] {
  const { SESSION_SECRET: single, SESSION_SECRETS: list } = config;
  if (list && single && !list.includes(single)) {
    throw new ConfigError(
      'SESSION_SECRET and SESSION_SECRETS are both set and SESSION_SECRET is not in the list: SESSION_SECRETS replaces it. ' +
        'Put the secret in use last in SESSION_SECRETS (SESSION_SECRETS=<new>,<old>) and unset SESSION_SECRET (docs/operating.md, "Rotating the secret").',
    );
  }
  return list ? [...list] : [single ?? randomBytes(32).toString('base64url')];
}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  // An empty value (`NAME=` in a .env or compose file) means unset for every variable: the
  // default applies (`SMTP_URL=` starts without mail instead of failing as an invalid URL).
  const env = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== ''));
  // A renamed limit must not be dropped in silence: whoever set it meant something by it.
  if (env.LOGIN_MAX_FAILURES_PER_ACCOUNT !== undefined) {
    throw new ConfigError(
      'LOGIN_MAX_FAILURES_PER_ACCOUNT is no longer read: failed sign-ins now refuse one identifier from one IP ' +
        '(LOGIN_MAX_FAILURES_PER_IDENTIFIER_IP, default 5) and slow one identifier down from all IPs ' +
        '(LOGIN_SLOWDOWN_FAILURES_PER_IDENTIFIER, default 50); see docs/decisions/009-login-limits.md. Unset it.',
    );
  }
  const result = schema.safeParse(env, PARSE_ONCE);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const config = result.data;
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  if (config.NODE_ENV === 'production') requireInProduction(config);
  const secrets = sessionSecrets(config);
  if (config.CMS_IDENTIFIER && !config.CMS_PASSWORD) {
    throw new ConfigError('CMS_PASSWORD is required with CMS_IDENTIFIER (the CMS service account).');
  }
  if (config.CMS_URL && config.CMS_PREVIEW_SECRET && !config.CMS_PREVIEW_TOKEN) {
    throw new ConfigError(
      'CMS_PREVIEW_TOKEN is required with CMS_PREVIEW_SECRET: a Strapi API token with find and findOne on posts and legal pages, which reads the drafts.',
    );
  }
  if (config.METRICS_PORT !== undefined && config.METRICS_PORT === config.PORT) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (${config.PORT}): it is a listener of its own.`);
  }
  if (config.HTTP_REQUEST_TIMEOUT_SECONDS < config.HTTP_HEADERS_TIMEOUT_SECONDS) {
    throw new ConfigError('HTTP_REQUEST_TIMEOUT_SECONDS must be at least HTTP_HEADERS_TIMEOUT_SECONDS (the request includes its headers).');
  }
  return {
    ...config,
    PUBLIC_URL: publicUrl,
    MAIL_FROM: config.MAIL_FROM ?? config.CONTACT_NOTIFY_FROM ?? `no-reply@${new URL(publicUrl).hostname}`,
    DATA_DIR: resolve(config.DATA_DIR),
    SESSION_SECRET: secrets[0]!,
    SESSION_SECRETS: secrets,
    sessionSecretGenerated: !config.SESSION_SECRET && !config.SESSION_SECRETS,
  };
}
