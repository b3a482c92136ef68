// The home page's editable content (figures, client logos, case studies): how much of it the
// page shows and how long each text may be. Both content sources (Markdown, Strapi) check it.

export const HOME_LIMITS = {
  /** Figures shown (more are ignored, in order). */
  figures: 6,
  /** Client logos shown. */
  logos: 12,
  /** Case studies shown on the home page, in their order. */
  caseStudies: 3,
  figureValue: 24,
  figureLabel: 120,
  logoName: 100,
  title: 160,
  client: 120,
  sector: 120,
  quote: 600,
  /** A case study's challenge (its page's opening paragraph). */
  challenge: 600,
  /** Further result figures a case study's page shows (besides its headline result). */
  caseStudyFigures: 4,
  quoteBy: 160,
} as const;
