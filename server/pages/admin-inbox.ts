// The admin console's contact inbox (/admin/inbox): the messages are fetched by the browser
// from the API (server/api/admin-messages.ts) when the page runs.
import { noData } from '../render/page-module.ts';

export const loader = noData;
