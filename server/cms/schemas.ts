// The shapes of the CMS's entries (server/cms/content.ts lists the content types): each entry
// of an answer is checked against its schema, and one that does not fit is skipped.
import { z } from 'zod';
import { SLUG_PATTERN } from '../../shared/blog.ts';
import { HOME_LIMITS } from '../../shared/home.ts';
import { AUTHOR_LIMITS, PRACTICE_LIMITS, PRACTICES } from '../../shared/practices.ts';
import { LEGAL_PAGES } from '../../shared/routes.ts';

// Strapi's `date` is YYYY-MM-DD; `publishedAt`/`updatedAt` are ISO date-times: keep the day.
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}/, 'must be a date')
  .transform((value) => value.slice(0, 10));
const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');
const richText = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).nullish();
const size = z.number().int().positive().max(20_000);
const rendition = z.looseObject({ url: z.string(), width: size, height: size });
const media = z
  .looseObject({
    url: z.string(),
    width: size.nullish(),
    height: size.nullish(),
    alternativeText: z.string().nullish(),
    formats: z.record(z.string(), rendition.nullish().catch(null)).nullish().catch(null),
  })
  .nullish()
  .catch(null);
// A relation Strapi left out (no permission, not populated) is absent; a broken one is ignored.
const tagList = z
  .array(z.looseObject({ name: z.string(), slug: z.string().nullish() }))
  .nullish()
  .catch(null);
const localizationList = z
  .array(z.looseObject({ slug: z.string().nullish(), locale: z.string().nullish() }))
  .nullish()
  .catch(null);

export const postSchema = z
  .looseObject({
    title: z.string().trim().min(1),
    slug: z.string().regex(SLUG_PATTERN, 'must be lower-case letters, digits and hyphens'),
    description: text,
    content: richText,
    author: text,
    date: day.nullish(),
    publishedAt: day.nullish(),
    updatedAt: day.nullish(),
    cover: media,
    tags: tagList,
    localizations: localizationList,
    documentId: z.string().optional(),
    locale: z.string().optional(),
  })
  .refine((entry) => entry.date || entry.publishedAt, { message: 'needs a date (or publishedAt)', path: ['date'] });

export const legalSchema = z.looseObject({
  page: z.enum(LEGAL_PAGES),
  title: z.string().trim().min(1),
  description: text,
  content: richText,
  updatedAt: day,
  locale: z.string().optional(),
});

export const figureSchema = z.looseObject({
  value: z.string().trim().min(1).max(HOME_LIMITS.figureValue),
  label: z.string().trim().min(1).max(HOME_LIMITS.figureLabel),
});
export const logoSchema = z.looseObject({ name: z.string().trim().min(1).max(HOME_LIMITS.logoName), logo: media });
export const homeSchema = z.looseObject({
  // Items are checked one by one (a bad one is skipped, not the whole home).
  figures: z.array(z.unknown()).nullish(),
  logos: z.array(z.unknown()).nullish(),
  sample: z.boolean().nullish(),
  locale: z.string().optional(),
});
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);
export const caseStudySchema = z
  .looseObject({
    title: z.string().trim().min(1).max(HOME_LIMITS.title),
    slug: z.string().regex(SLUG_PATTERN, 'must be lower-case letters, digits and hyphens'),
    client: z.string().trim().min(1).max(HOME_LIMITS.client),
    sector: z.string().trim().min(1).max(HOME_LIMITS.sector),
    practice: z.enum(PRACTICES),
    resultValue: optionalText(HOME_LIMITS.figureValue),
    resultLabel: optionalText(HOME_LIMITS.figureLabel),
    quote: z.string().trim().min(1).max(HOME_LIMITS.quote),
    quoteBy: z.string().trim().min(1).max(HOME_LIMITS.quoteBy),
    story: richText,
    challenge: optionalText(HOME_LIMITS.challenge),
    // Further results (component "home.figure", repeatable): checked one by one.
    figures: z.array(z.unknown()).nullish(),
    order: z.number().int().nullish(),
    sample: z.boolean().nullish(),
    locale: z.string().optional(),
  })
  .refine((entry) => Boolean(entry.resultValue) === Boolean(entry.resultLabel), {
    path: ['resultLabel'],
    message: 'goes with resultValue (both or neither)',
  });

// The editors' redirects: their shape and their rules are the embedded file's (content/redirects.ts).
export { redirectSchema } from '../content/redirects.ts';

export type PostEntry = z.infer<typeof postSchema>;

export const practiceStepSchema = z.looseObject({
  title: z.string().trim().min(1).max(PRACTICE_LIMITS.stepTitle),
  text: z.string().trim().min(1).max(PRACTICE_LIMITS.stepText),
});
export const practiceEngagementSchema = z.looseObject({ text: z.string().trim().min(1).max(PRACTICE_LIMITS.engagement) });
export const practiceSchema = z.looseObject({
  practice: z.enum(PRACTICES),
  title: z.string().trim().min(1).max(PRACTICE_LIMITS.title),
  description: z.string().trim().min(1).max(PRACTICE_LIMITS.description),
  body: richText,
  // Items are checked one by one (a bad step is skipped, not the whole practice).
  steps: z.array(z.unknown()).nullish(),
  engagements: z.array(z.unknown()).nullish(),
  caseStudy: z.string().regex(SLUG_PATTERN, 'must be a case study’s slug').nullish().catch(null),
  locale: z.string().optional(),
});
export const authorSchema = z.looseObject({
  name: z.string().trim().min(1).max(AUTHOR_LIMITS.name),
  role: z.string().trim().min(1).max(AUTHOR_LIMITS.role),
  bio: richText,
  photo: media,
  locale: z.string().optional(),
});
