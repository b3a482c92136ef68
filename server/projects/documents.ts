// What a project document may be: judged by its first bytes (magic numbers), never by the
// name or the type the browser claims. Office files are ZIP (OOXML, OpenDocument) or OLE
// containers: the container is checked by its bytes and the kind by the name's extension.
// The name is kept for people, not trusted by machines: bidirectional, invisible and control
// characters are removed (U+202E turns "xfdp.bat" into "xtab.pdf" on screen), and it always
// ends in an extension of the type its bytes are: a PDF named "report.bat" is stored as
// "report.bat.pdf" (docs/decisions/029-limits-and-identity.md).
import { HIDDEN_CHARACTERS } from '../../shared/identity.ts';
import { PROJECT_LIMITS } from '../../shared/projects.ts';

const ZIP_KINDS: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
};
const OLE_KINDS: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};

/** The extensions each accepted type is saved under: the first is the one given to a name without one of them. */
const TYPE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  'application/pdf': ['pdf'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
  ...Object.fromEntries([...Object.entries(ZIP_KINDS), ...Object.entries(OLE_KINDS)].map(([ext, type]) => [type, [ext]])),
};

/** The extensions accepted, for the file picker's `accept` and the error message. */
export const DOCUMENT_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'webp', ...Object.keys(ZIP_KINDS), ...Object.keys(OLE_KINDS)];

const startsWith = (bytes: Buffer, signature: number[]) => bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);

function extensionOf(name: string): string {
  const match = /\.([a-z0-9]{1,5})$/i.exec(name);
  return match ? match[1]!.toLowerCase() : '';
}

/** The content type of an acceptable document, or null. */
export function documentType(bytes: Buffer, name: string): string | null {
  const ext = extensionOf(name);
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) && Object.hasOwn(ZIP_KINDS, ext)) return ZIP_KINDS[ext]!;
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) && Object.hasOwn(OLE_KINDS, ext)) return OLE_KINDS[ext]!;
  return null;
}

/** At most PROJECT_LIMITS.documentName characters, the extension kept. */
function fitted(name: string): string {
  const max = PROJECT_LIMITS.documentName;
  if (name.length <= max) return name;
  const ext = extensionOf(name);
  return ext ? `${name.slice(0, max - ext.length - 1)}.${ext}` : name.slice(0, max);
}

/**
 * A file name safe to store and to send back in Content-Disposition: the last path segment in
 * NFC, without bidirectional, invisible or control characters, quotes or the characters Windows
 * refuses, without the dots and spaces Windows drops at the end, at most
 * PROJECT_LIMITS.documentName characters (the extension kept).
 */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(HIDDEN_CHARACTERS, '')
    .replace(/["<>|*?:]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[. ]+$/, '')
    .trim();
  return fitted(cleaned || 'document');
}

/** The name under which a document of this (detected) type is stored: its extension is the type's, appended when it was not. */
export function documentName(cleaned: string, contentType: string): string {
  const extensions = TYPE_EXTENSIONS[contentType] ?? [];
  if (extensions.length === 0 || extensions.includes(extensionOf(cleaned))) return cleaned;
  const max = PROJECT_LIMITS.documentName;
  const suffix = `.${extensions[0]}`;
  return `${cleaned.slice(0, max - suffix.length)}${suffix}`;
}

/** `attachment; filename="ascii"; filename*=UTF-8''utf8`: every browser downloads it under its name. */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
