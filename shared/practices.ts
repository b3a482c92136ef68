// The company's four practices: a project's field, an expert's expertise, a card
// on the home page. A module of its own, so that the public pages that name them do not load
// the rest of the projects' rules (shared/projects.ts re-exports them).

export const PRACTICES = ['digital', 'data', 'sustainability', 'compliance'] as const;
export type Practice = (typeof PRACTICES)[number];

export function isPractice(value: unknown): value is Practice {
  return typeof value === 'string' && (PRACTICES as readonly string[]).includes(value);
}
