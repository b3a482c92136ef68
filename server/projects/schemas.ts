// The shapes of what callers send about projects, checked at the edge (API and page forms
// alike). Error messages are i18n keys: the forms show them translated, the API's `fields` as they
// are; the API's message says the problem in words (http/problems.ts).
import { z } from 'zod';
import { apiProblem } from '../http/problems.ts';
import { FIRST_DAY, isIsoDay, LAST_DAY } from '../calendar/days.ts';
import { numberedPageQuery } from '../http/paging.ts';
import { oneLine } from '../http/one-line.ts';
import { SEARCH_MAX_LENGTH } from '../../shared/paging.ts';
import { AVAILABILITY, BUDGET_RANGES, PRACTICES, PROJECT_ACTIONS, PROJECT_LIMITS as L, PROJECT_STATES } from '../../shared/projects.ts';

const text = (max: number) => z.string().trim().min(1, 'validation.required').max(max, 'validation.tooLong');
/** A title: one plain line (http/one-line.ts), where `text` keeps a description's line breaks. */
const title = (max: number) => oneLine().min(1, 'validation.required').max(max, 'validation.tooLong');
/** An optional line (an organisation's name, a reference): one plain line too; empty is none. */
const optionalLine = (max: number) =>
  oneLine()
    .max(max, 'validation.tooLong')
    .transform((v) => v || null)
    .nullish();

/** A calendar day, YYYY-MM-DD, that exists: the one rule of every day the site takes (calendar/days.ts). */
export const day = z.string().refine(isIsoDay, {
  message: 'validation.date',
  params: apiProblem(`must be a real day written YYYY-MM-DD, from ${FIRST_DAY} to ${LAST_DAY}`),
});
const optionalDay = z.union([day, z.literal('').transform(() => null), z.null()]).optional();

export const briefSchema = z
  .object({
    title: title(L.title),
    description: text(L.description),
    practice: z.enum(PRACTICES, { error: 'validation.practice' }),
    budget: z.union([z.enum(BUDGET_RANGES, { error: 'validation.budget' }), z.literal('').transform(() => null), z.null()]).optional(),
    wishedStart: optionalDay,
    deadline: optionalDay,
    organisation: optionalLine(L.organisation),
    procurementRef: optionalLine(L.procurementRef),
  })
  .strict()
  .refine((b) => !b.wishedStart || !b.deadline || b.wishedStart <= b.deadline, {
    path: ['deadline'],
    message: 'validation.deadlineBeforeStart',
    params: apiProblem('must not be before wishedStart'),
  });
export type Brief = z.infer<typeof briefSchema>;

const fee = z.coerce
  .number({ error: 'validation.number' })
  .int('validation.number')
  .min(0, 'validation.number')
  .max(L.feeMax, 'validation.tooLarge');

export const proposalSchema = z.object({ scope: text(L.scope), fee, timeline: text(L.timeline) }).strict();
export type ProposalInput = z.infer<typeof proposalSchema>;

export const actionSchema = z
  .object({
    action: z.enum(PROJECT_ACTIONS as [string, ...string[]], { error: 'validation.action' }),
    proposal: proposalSchema.optional(),
    /** accept / decline: the version answered, required (400 proposal_version_required), which must be the newest (409 proposal_superseded otherwise). */
    version: z.number().int().min(1).max(999_999).optional(),
  })
  .strict();

export const listQuerySchema = z.object({
  status: z.enum(PROJECT_STATES).optional(),
  practice: z.enum(PRACTICES).optional(),
  q: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
  waiting: z.enum(['true', 'false']).optional(),
  ...numberedPageQuery('projects').shape,
});

export const messageSchema = z.object({ body: text(L.message) }).strict();
export const expertSchema = z.object({ userName: z.string().trim().min(1, 'validation.required').max(100, 'validation.tooLong') }).strict();
export const milestoneSchema = z.object({ title: title(L.milestoneTitle), dueDate: optionalDay }).strict();
export const milestoneDoneSchema = z.object({ done: z.boolean() }).strict();

export const expertiseSchema = z
  .object({
    practices: z.array(z.enum(PRACTICES, { error: 'validation.practice' })).max(PRACTICES.length),
    bio: z.string().trim().max(L.bio, 'validation.tooLong'),
    dayRate: z.union([
      z.coerce.number().int('validation.number').min(0, 'validation.number').max(L.dayRateMax, 'validation.tooLarge'),
      z.null(),
    ]),
    availability: z.enum(AVAILABILITY, { error: 'validation.availability' }),
    busyUntil: optionalDay,
  })
  .strict()
  .refine((e) => e.availability !== 'busy' || Boolean(e.busyUntil), {
    path: ['busyUntil'],
    message: 'validation.busyUntil',
    params: apiProblem('is required when availability is "busy"'),
  });
export type ExpertiseInput = z.infer<typeof expertiseSchema>;
