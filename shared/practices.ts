// The company's four practices: a project's field, an expert's expertise, a card
// on the home page. A module of its own, so that the public pages that name them do not load
// the rest of the projects' rules (shared/projects.ts re-exports them).

export const PRACTICES = ['digital', 'data', 'sustainability', 'compliance'] as const;
export type Practice = (typeof PRACTICES)[number];

export function isPractice(value: unknown): value is Practice {
  return typeof value === 'string' && (PRACTICES as readonly string[]).includes(value);
}

/** How long a practice's page texts may be, and how many steps and engagements it shows (both content sources check it). */
export const PRACTICE_LIMITS = {
  title: 120,
  description: 300,
  steps: 6,
  stepTitle: 80,
  stepText: 400,
  engagements: 6,
  engagement: 200,
} as const;
/** How long an author's name and role may be. */
export const AUTHOR_LIMITS = { name: 100, role: 120 } as const;
