// Posts and legal pages in a fake Strapi with Draft & Publish, for the preview and webhook tests:
// a handler for startFakeStrapi (fake-strapi.ts, whose gate applies Strapi's permissions first)
// and the editor's actions (create, edit, publish, unpublish, delete).
//
// As Strapi does:
//   Strapi 5  a document has a draft version and, once published, a published one (an edit
//             changes the draft only, until it is published again). Reads answer the published
//             versions; `status=draft` — in fact any `status` but `published` (strapi/strapi#21388)
//             — the draft versions, to anyone who may `find` the collection: Strapi has no
//             permission of its own for drafts (#12309, #25326). Flat answers with documentId.
//   Strapi 4  an entry is a draft (publishedAt null) or published, and an edit changes it in
//             place. Reads answer the published entries; `publicationState=preview` drafts and
//             published entries alike. Answers in `{id, attributes}`, no documentId.
//   Either    a query parameter it does not know (Strapi 5: `publicationState`; Strapi 4:
//             `status`, a documentId filter) is refused with 400 ValidationError "Invalid key …"
//             (`unknownParameters: 'reject'`, recent versions) or ignored ('ignore', older ones).
import type { ServerResponse } from 'node:http';
import type { FakeHandler, Received } from './fake-strapi.ts';
import { paginate, sendJson, sendStrapiError } from './fake-strapi.ts';

export type Collection = 'posts' | 'legal-pages' | 'redirects';

/** Collections without Internationalization: no locale, one entry for every language. */
const NOT_LOCALIZED: readonly Collection[] = ['redirects'];
export type Fields = Record<string, unknown>;

type Version = { id: number; fields: Fields; createdAt: string; updatedAt: string; publishedAt: string | null };
type Document = { documentId: string; collection: Collection; locale: string; draft: Version; published: Version | null };

export type StoreOptions = { strapi: 4 | 5; unknownParameters?: 'reject' | 'ignore' };

const KNOWN = {
  5: ['locale', 'status', 'filters', 'pagination', 'sort', 'populate', 'fields'],
  4: ['locale', 'publicationState', 'filters', 'pagination', 'sort', 'populate', 'fields'],
} as const;

let clock = Date.UTC(2026, 4, 1);
const stamp = () => new Date((clock += 1000)).toISOString();

export function documentStore(options: StoreOptions) {
  const { strapi } = options;
  const unknown = options.unknownParameters ?? 'reject';
  const documents: Document[] = [];
  let nextId = 1;
  let nextDocument = 1;

  const find = (documentId: string, locale: string) => {
    const found = documents.find((d) => d.documentId === documentId && d.locale === locale);
    if (!found) throw new Error(`no document ${documentId} in ${locale}`);
    return found;
  };
  const version = (fields: Fields, publishedAt: string | null, createdAt = stamp()): Version => ({
    id: nextId++,
    fields: structuredClone(fields),
    createdAt,
    updatedAt: stamp(),
    publishedAt,
  });

  /** The entry as Strapi answers it, in its version's shape. */
  function entryOf(document: Document, shown: Version): Record<string, unknown> {
    const locale = NOT_LOCALIZED.includes(document.collection) ? {} : { locale: document.locale };
    const system = { createdAt: shown.createdAt, updatedAt: shown.updatedAt, publishedAt: shown.publishedAt, ...locale };
    if (strapi === 5) return { id: shown.id, documentId: document.documentId, ...shown.fields, ...system };
    return { id: shown.id, attributes: { ...shown.fields, ...system } };
  }

  /** The version a read sees: Strapi 5 by `status`, Strapi 4 by `publicationState`. */
  function visible(document: Document, query: URLSearchParams): Version | null {
    if (strapi === 5) {
      const status = query.get('status');
      return status !== null && status !== 'published' ? document.draft : document.published;
    }
    const preview = query.get('publicationState') === 'preview';
    return document.published ?? (preview ? document.draft : null);
  }

  function refusal(query: URLSearchParams): string | null {
    if (unknown === 'ignore') return null;
    for (const key of query.keys()) {
      const name = key.split('[', 1)[0]!;
      if (!(KNOWN[strapi] as readonly string[]).includes(name)) return `Invalid key ${name}`;
      if (strapi === 4 && key.startsWith('filters[documentId]')) return 'Invalid key documentId';
    }
    return null;
  }

  function matches(document: Document, entry: Record<string, unknown>, query: URLSearchParams): boolean {
    const fields = (strapi === 5 ? entry : entry.attributes) as Fields;
    for (const [key, value] of query) {
      const filter = /^filters\[(\w+)\]\[\$eq\]$/.exec(key);
      if (!filter) continue;
      const field = filter[1]!;
      const actual = field === 'documentId' ? document.documentId : fields[field];
      if (actual !== value) return false;
    }
    return true;
  }

  const handler: FakeHandler = (req: Received, res: ServerResponse) => {
    const collection = (['posts', 'legal-pages', 'redirects'] as const).find((name) => req.path === `/api/${name}`);
    if (!collection) return sendStrapiError(res, 404, 'NotFoundError', 'Not Found');
    const refused = refusal(req.query);
    if (refused) return sendStrapiError(res, 400, 'ValidationError', refused);
    const locale = req.query.get('locale') ?? 'es';
    const localized = !NOT_LOCALIZED.includes(collection);
    // Posts newest first (what the site asks); an unlocalized collection in the order it asks
    // (`sort[0]=createdAt:asc`), else as created.
    const newest = localized || req.query.get('sort[0]') === 'createdAt:desc';
    const entries = documents
      .filter((d) => d.collection === collection && (!localized || d.locale === locale))
      .flatMap((d) => {
        const shown = visible(d, req.query);
        const entry = shown ? entryOf(d, shown) : null;
        return entry && matches(d, entry, req.query)
          ? [{ entry, date: localized ? String((shown!.fields.date as string) ?? shown!.publishedAt ?? '') : shown!.createdAt }]
          : [];
      })
      .sort((a, b) => (newest ? b.date.localeCompare(a.date) : a.date.localeCompare(b.date)))
      .map((e) => e.entry);
    sendJson(res, 200, paginate(entries, req.query));
  };

  return {
    handler,
    /** A new document (a draft, unless `published`); its documentId. */
    create(collection: Collection, locale: string, fields: Fields, options: { published?: boolean; documentId?: string } = {}): string {
      const documentId = options.documentId ?? `doc${String(nextDocument++).padStart(21, '0')}`;
      const at = stamp();
      const draft = version(fields, null, at);
      documents.push({ documentId, collection, locale, draft, published: null });
      if (options.published) this.publish(documentId, locale);
      return documentId;
    },
    /** The editor saves: Strapi 5 changes the draft; Strapi 4 the entry itself (live at once when published). */
    edit(documentId: string, locale: string, fields: Fields): void {
      const document = find(documentId, locale);
      document.draft = { ...document.draft, fields: { ...document.draft.fields, ...fields }, updatedAt: stamp() };
      if (strapi === 4 && document.published) document.published = { ...document.draft, publishedAt: document.published.publishedAt };
    },
    publish(documentId: string, locale: string): void {
      const document = find(documentId, locale);
      const at = stamp();
      document.published =
        strapi === 5 ? version(document.draft.fields, at, document.draft.createdAt) : { ...document.draft, publishedAt: at };
    },
    unpublish(documentId: string, locale: string): void {
      find(documentId, locale).published = null;
    },
    remove(documentId: string, locale: string): void {
      documents.splice(documents.indexOf(find(documentId, locale)), 1);
    },
  };
}

export type DocumentStore = ReturnType<typeof documentStore>;

/** What Strapi's webhook sends for an entry (Strapi 5's shape; Strapi 4 has no documentId). */
export function webhookBody(event: string, model: string, entry: Record<string, unknown> | null) {
  return { event, createdAt: new Date().toISOString(), model, uid: `api::${model}.${model}`, entry };
}
