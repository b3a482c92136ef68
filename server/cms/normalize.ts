// The one place that knows Strapi's answer shapes. Strapi 4 wraps fields in `attributes` and
// relations/media in `{data: ...}`; Strapi 5 is flat (and answers in the 4 shape when sent
// `Strapi-Response-Format: v4`). Everything past this file sees flat plain objects:
//   v4  {data: [{id, attributes: {title, cover: {data: {id, attributes: {url}}}}}]}
//   v5  {data: [{id, documentId, title, cover: {id, documentId, url}}]}
//   →   [{id, title, cover: {id, url}}]            (documentId kept when present)
// A shape that is neither throws a CmsError('malformed'): the caller treats it as a failure.
import { CmsError } from './errors.ts';

export type CmsEntry = { id: number | string; documentId?: string; [field: string]: unknown };

export type CmsMeta = Record<string, unknown>;

export type NormalizedResponse =
  { kind: 'collection'; entries: CmsEntry[]; meta: CmsMeta } | { kind: 'single'; entry: CmsEntry | null; meta: CmsMeta };

// Deeper than any content model; a bound so a hostile answer cannot exhaust the stack.
const MAX_DEPTH = 32;

type PlainObject = Record<string, unknown>;

function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformed(message: string): CmsError {
  return new CmsError('malformed', `CMS answer is malformed: ${message}`);
}

function hasOnlyKeys(value: PlainObject, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}

/** A v4 relation or media field: `{data: null | {...} | [...]}` (sometimes with `meta`). */
function isDataWrapper(value: PlainObject): boolean {
  if (!('data' in value) || !hasOnlyKeys(value, ['data', 'meta'])) return false;
  return value.data === null || Array.isArray(value.data) || isPlainObject(value.data);
}

/** A v4 entity: `{id, attributes: {...}}` (Strapi 5 in v4 format may add documentId). */
function isV4Entity(value: PlainObject): boolean {
  return isPlainObject(value.attributes) && hasOnlyKeys(value, ['id', 'documentId', 'attributes', 'meta']);
}

/** Removes `data`/`attributes` wrappers at any depth; other values are copied as they are. */
export function flattenValue(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw malformed(`nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((item) => flattenValue(item, depth + 1));
  if (!isPlainObject(value)) return value;
  if (isDataWrapper(value)) return flattenValue(value.data, depth + 1);
  if (isV4Entity(value)) {
    const { attributes, meta: _meta, ...system } = value;
    return { ...system, ...flattenFields(attributes as PlainObject, depth + 1) };
  }
  return flattenFields(value, depth + 1);
}

function flattenFields(fields: PlainObject, depth: number): PlainObject {
  const flat: PlainObject = {};
  for (const [key, field] of Object.entries(fields)) flat[key] = flattenValue(field, depth);
  return flat;
}

function toEntry(item: unknown, where: string): CmsEntry {
  if (!isPlainObject(item)) throw malformed(`${where} is not an object`);
  const id = item.id;
  if (!((typeof id === 'number' && Number.isFinite(id)) || (typeof id === 'string' && id.length > 0))) {
    throw malformed(`${where} has no id`);
  }
  if ('attributes' in item && !isPlainObject(item.attributes)) throw malformed(`${where}.attributes is not an object`);
  const flat = flattenValue(item) as PlainObject;
  if (flat.documentId !== undefined && typeof flat.documentId !== 'string') throw malformed(`${where}.documentId is not a string`);
  return { ...flat, id };
}

/** A Strapi REST answer (collection or single type, v4 or v5 shape) as flat entries. */
export function normalizeResponse(body: unknown): NormalizedResponse {
  if (!isPlainObject(body)) throw malformed('expected a JSON object');
  if (isPlainObject(body.error)) {
    const name = typeof body.error.name === 'string' ? body.error.name : 'unknown error';
    throw malformed(`it carries an error (${name})`);
  }
  if (!('data' in body)) throw malformed('no "data" field');
  const meta = isPlainObject(body.meta) ? body.meta : {};
  const { data } = body;
  if (Array.isArray(data)) return { kind: 'collection', entries: data.map((item, i) => toEntry(item, `data[${i}]`)), meta };
  if (data === null) return { kind: 'single', entry: null, meta };
  if (isPlainObject(data)) return { kind: 'single', entry: toEntry(data, 'data'), meta };
  throw malformed('"data" is neither a list, an object nor null');
}

export type CmsPagination = { page: number; pageSize: number; pageCount: number; total: number };

/**
 * `meta.pagination` of a page-based answer, the same in v4 and v5:
 * `{page, pageSize, pageCount, total}`. Null when it is missing or not made of counts (a custom
 * controller, or an offset-based answer): the caller then has one page.
 */
export function paginationOf(meta: CmsMeta): CmsPagination | null {
  const pagination = meta.pagination;
  if (!isPlainObject(pagination)) return null;
  const { page, pageSize, pageCount, total } = pagination;
  const counts = [page, pageSize, pageCount, total];
  if (!counts.every((count) => typeof count === 'number' && Number.isSafeInteger(count) && count >= 0)) return null;
  return { page, pageSize, pageCount, total } as CmsPagination;
}

/** The entries of a collection answer; a single-type answer counts as a list of zero or one. */
export function normalizeEntries(body: unknown): CmsEntry[] {
  const answer = normalizeResponse(body);
  if (answer.kind === 'collection') return answer.entries;
  return answer.entry ? [answer.entry] : [];
}
