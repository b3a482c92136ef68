// What the site is built from: the configuration, and what a test (or another host) may give
// instead of the defaults.
import type { i18n } from 'i18next';
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import type { Audit } from '../audit/types.ts';
import type { Brand } from '../brand/brand.ts';
import type { ContentSource } from '../content/source.ts';
import type { Db } from '../db/index.ts';
import type { FanOutDeps } from '../fan-out/fan-out.ts';
import type { MailDeps } from '../mail/index.ts';
import type { PdfRenderer } from '../pdf/renderer.ts';
import type { ClientManifest } from '../render/manifest.ts';
import type { BrandingSource } from '../user-branding/embedded.ts';

export type AppDeps = {
  config: Config;
  logger?: Logger;
  content?: ContentSource;
  manifest?: ClientManifest;
  i18n?: i18n;
  /** The database; by default DATA_DIR/site.db. */
  db?: Db;
  /** For the external API mode in tests. */
  fetch?: typeof fetch;
  /** The e-mail module's transport and timing (tests); by default SMTP_URL, or the log outside production. */
  mail?: Omit<MailDeps, 'db' | 'config' | 'logger' | 'i18n'>;
  /** Where branding comes from; by default the database (or the CMS when CMS_URL is set). */
  branding?: BrandingSource;
  /** Lays out the PDF documents (tests); by default a layout thread of the app's own. */
  pdfRenderer?: PdfRenderer;
  /** Where security-relevant actions are recorded; by default nowhere (server/audit/types.ts). */
  audit?: Audit;
  /** The company's identity; by default read from brand/ (a bad brand.json stops the start). */
  brand?: Brand;
  /** Where brand/ is, when `brand` is not given (tests); by default the project's. */
  brandDir?: string;
  /** The job runner's clock and whether it polls (tests run it with `jobs.tick()`); by default it polls. */
  jobs?: { now?: () => number; poll?: boolean };
  /** A project's notices told in the background (default) or before the action answers, and their batches (tests). */
  fanOut?: Pick<FanOutDeps, 'background' | 'batch' | 'breathe'>;
};
