// The private area's projects as a domain: always in the site's own database, for the built-in
// API and the pages alike (docs/decisions/013-projects.md). What happens after a change (its
// notices, their withdrawal, the live streams) is given by the composition, which knows the
// notification centre and the e-mail.
import type { Config } from '../base/config.ts';
import type { Logger } from '../base/logger.ts';
import type { Audit } from '../audit/types.ts';
import type { Db } from '../db/index.ts';
import { createRateLimiter } from '../db/rate-limit.ts';
import type { FormFailure } from '../http/form-answers.ts';
import { createConversation } from './conversation.ts';
import { createDocumentUploads } from './document-upload.ts';
import { documentQuotas } from './document-quotas.ts';
import { createDocumentDownloads } from './download.ts';
import { createExpertise } from './expertise.ts';
import { createProjectForms } from './forms.ts';
import type { ProjectServices } from './index.ts';
import { createProjects, type ProjectDeps } from './service.ts';

export type ProjectsModuleDeps = Pick<ProjectDeps, 'notify' | 'touch' | 'withdraw' | 'live'> & {
  config: Config;
  db: Db;
  audit: Audit;
  logger: Logger;
};

export function projectsModule({ config, db, audit, logger, notify, touch, withdraw, live }: ProjectsModuleDeps) {
  const projects = createProjects({
    db,
    audit,
    timeZone: config.JOBS_TIME_ZONE,
    limits: {
      limiter: createRateLimiter(db, 60_000),
      briefsPerHour: config.PROJECT_BRIEFS_PER_HOUR,
      messagesPerMinute: config.PROJECT_MESSAGES_PER_MINUTE,
      uploadsPerMinute: config.PROJECT_UPLOADS_PER_MINUTE,
      milestoneChangesPerMinute: config.PROJECT_MILESTONE_CHANGES_PER_MINUTE,
      stateChangesPerHour: config.PROJECT_STATE_CHANGES_PER_HOUR,
    },
    milestoneCollapseMs: config.PROJECT_MILESTONE_COLLAPSE_MINUTES * 60_000,
    notify,
    ...(touch ? { touch } : {}),
    ...(withdraw ? { withdraw } : {}),
    ...(live ? { live } : {}),
  });
  // Documents count against byte quotas per user and per project, in the database (docs/decisions/031).
  const conversation = createConversation({ db, projects, quotas: documentQuotas(config), audit });
  // Uploads of documents, API and page form together: a few read at once, each in the chunks it is stored in.
  const documentUploads = createDocumentUploads({
    conversation,
    maxConcurrent: config.UPLOADS_MAX_CONCURRENT,
    waitSeconds: config.UPLOADS_WAIT_SECONDS,
  });
  const expertise = createExpertise({ db });
  const services: ProjectServices = { projects, conversation, expertise };
  return {
    ...services,
    services,
    documentUploads,
    // Downloads are sent a chunk at a time and ended when their client stalls; documents are
    // capped per user, shared by the pages and the API (docs/decisions/028).
    documentDownloads: createDocumentDownloads({
      perUser: config.DOWNLOADS_PER_USER,
      stallMs: config.DOWNLOAD_STALL_SECONDS * 1000,
      logger,
    }),
    forms: (fail: FormFailure) => createProjectForms({ services, uploads: documentUploads, fail, logger }),
  };
}

export type ProjectsModule = ReturnType<typeof projectsModule>;
