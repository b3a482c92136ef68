// /notFound: the error page's text under a route of its own, answered with 404 (the route table's status).
import { noData } from '../render/page-module.ts';

export const loader = noData;
