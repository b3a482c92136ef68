import type { Migration } from './migration.ts';

export const documentQuotas: Migration = {
  version: 14,
  name: "project documents by uploader: the per-user byte quota's sum",
  async up(db) {
    // The per-user quota sums the bytes of one uploader's documents over every project
    // (server/projects/document-quotas.ts): with the bytes in the index, from the index alone.
    await db.schema.createIndex('project_documents_uploader').on('project_documents').columns(['uploaded_by', 'bytes']).execute();
  },
};
