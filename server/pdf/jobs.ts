// The documents as jobs for the layout thread (server/pdf/worker.ts): plain data that crosses a
// thread boundary (structured clone), and the one function that turns a job into PDF bytes.
import { renderMessagesReportPdf, renderProfilePdf, renderUsersReportPdf } from './account-documents.ts';
import { type PdfContext, type PdfMessage, type PdfUser, type ReportContext } from './documents.ts';
import { renderProjectReportPdf, renderProposalPdf } from './project-documents.ts';
import type { ProjectSnapshot } from '../projects/service.ts';

export type PdfJob =
  | { kind: 'profile'; user: PdfUser; ctx: PdfContext }
  | { kind: 'users'; users: PdfUser[]; ctx: ReportContext }
  | { kind: 'messages'; messages: PdfMessage[]; ctx: ReportContext }
  | { kind: 'proposal'; project: ProjectSnapshot; ctx: PdfContext }
  | { kind: 'report'; project: ProjectSnapshot; ctx: PdfContext };

export function renderJob(job: PdfJob): Promise<Buffer> {
  switch (job.kind) {
    case 'profile':
      return renderProfilePdf(job.user, job.ctx);
    case 'users':
      return renderUsersReportPdf(job.users, job.ctx);
    case 'messages':
      return renderMessagesReportPdf(job.messages, job.ctx);
    case 'proposal':
      return renderProposalPdf(job.project, job.ctx);
    case 'report':
      return renderProjectReportPdf(job.project, job.ctx);
    default:
      // Jobs cross a thread boundary untyped: say what came instead of failing on undefined.
      throw new Error(`Unknown document kind ${JSON.stringify((job as { kind?: unknown }).kind)}`);
  }
}
