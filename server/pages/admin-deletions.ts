// The admin console's account deletion requests (/admin/deletions): the requests are fetched by
// the browser from the API (server/api/admin-deletions.ts) when the page runs.
import { noData } from '../render/page-module.ts';

export const loader = noData;
