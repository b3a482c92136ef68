// Phase 1, base: what everything else reads — the configuration, the log, the company's identity,
// the content and the interface's words. Nothing here opens the database.
import { defaultLocale, LOCALE_CODES, type Locale } from '../../shared/locales.ts';
import type { Translate } from '../../shared/translate.ts';
import { createLogger } from '../base/logger.ts';
import { PATHS } from '../base/paths.ts';
import { loadBrand } from '../brand/brand.ts';
import { companyOf } from '../brand/company.ts';
import { cmsModule } from '../cms/module.ts';
import { loadEmbeddedContent } from '../content/embedded.ts';
import { createContentImages } from '../content/images.ts';
import { withCompany } from '../content/placeholders.ts';
import { logRefusedRedirects } from '../content/redirects.ts';
import { errorCodesWithWords } from '../http/upstream.ts';
import { messagesOf, projectI18n, rememberingTranslate } from '../i18n/index.ts';
import type { i18n } from 'i18next';
import { readManifest, type ClientManifest } from '../render/manifest.ts';
import { renderKey } from '../render/render-cache.ts';
import type { AppDeps } from './deps.ts';

export async function bootBase(deps: AppDeps) {
  const { config } = deps;
  const logger = deps.logger ?? createLogger(config.LOG_LEVEL);
  // First: a mistake in brand/ stops the start before anything is opened.
  const brand = deps.brand ?? loadBrand(deps.brandDir);
  // The company as the legal pages and the structured data name it (SITE_NAME and brand.json).
  const company = companyOf(brand, config.SITE_NAME);
  // Content and branding: a real Strapi when CMS_URL is set, else the embedded defaults.
  const cms = cmsModule({ config, logger, defaultColor: brand.colors.primary });
  const mediaHosts = cms ? config.CMS_MEDIA_HOSTS : [];
  // The embedded posts' images: the build's renditions, or originals measured now (content/images.ts).
  const contentImages = createContentImages();
  const [source, i18n] = await Promise.all([
    deps.content ?? cms?.content ?? loadEmbeddedContent(PATHS.content, undefined, contentImages),
    deps.i18n ?? projectI18n(),
  ]);
  // Files are read once: what they refuse is said now (the CMS says it at each read of its own).
  if (!cms && source.redirects) logRefusedRedirects(await source.redirects(), logger);
  const manifest = deps.manifest ?? readManifest(PATHS.manifest);
  return {
    config,
    logger,
    brand,
    company,
    isProduction: config.NODE_ENV === 'production',
    cms,
    mediaHosts,
    contentImages,
    // Whatever the source, its `{{company.legalName}}`… say what brand.json and SITE_NAME say.
    content: withCompany(source, company),
    i18n,
    manifest,
    ...pageWords(i18n, manifest),
  };
}

export type Base = Awaited<ReturnType<typeof bootBase>>;

/** Made once: a fixed translator per locale, the digest of its messages, and the build's file of them. */
function pageWords(i18n: i18n, manifest: ClientManifest) {
  const perLocale = <T>(make: (locale: Locale) => T) => Object.fromEntries(LOCALE_CODES.map((l) => [l, make(l)])) as Record<Locale, T>;
  const translators = perLocale<Translate>((l) => rememberingTranslate(i18n.getFixedT(l)));
  // The pages load their messages from the build's hashed files: a build without them cannot serve.
  const messageUrls = perLocale((l) => {
    const url = manifest.messages[l];
    if (!url) throw new Error(`The build has no messages for "${l}" (dist/client/manifest.json): run npm run build`);
    return url;
  });
  return {
    translate: (locale: Locale) => translators[locale],
    // An external API's error codes the site passes on (http/upstream.ts).
    errorCodes: errorCodesWithWords(messagesOf(i18n, defaultLocale)),
    messagesDigest: perLocale((l) => renderKey(JSON.stringify(messagesOf(i18n, l)))),
    messageUrls,
  };
}
