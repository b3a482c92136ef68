// Configuration: read from the environment once at start, validated, typed. An invalid value
// stops the server with a message that names the variable.
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', '']).transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Origin used for canonical URLs, hreflang and the sitemap; never taken from the Host header. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  SITE_NAME: z.string().trim().min(1).max(80).default('the product'),
  /** DESIGN.md §3: the i18n_redirected cookie is supported but off by default. */
  LOCALE_COOKIE: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = Omit<z.infer<typeof schema>, 'PUBLIC_URL'> & { PUBLIC_URL: string };

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const config = result.data;
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  return { ...config, PUBLIC_URL: publicUrl };
}
