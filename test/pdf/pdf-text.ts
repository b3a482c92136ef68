// Just enough of a PDF reader to test pdfkit's output: objects, (Flate) streams, the ToUnicode
// maps of its Type0 subset fonts, and the text shown with TJ/Tj. Subset fonts write glyph ids,
// not characters, so searching the bytes for a word finds nothing: this maps ids back to text.
import { inflateSync } from 'node:zlib';

type PdfObject = { dict: string; stream: Buffer | null };

/** Every `n 0 obj … endobj` by number, streams inflated when FlateDecode. */
export function pdfObjects(pdf: Buffer): Map<number, PdfObject> {
  const source = pdf.toString('latin1');
  const objects = new Map<number, PdfObject>();
  const header = /(\d+) 0 obj\s*/g;
  for (let match = header.exec(source); match; match = header.exec(source)) {
    const start = header.lastIndex;
    const end = source.indexOf('endobj', start);
    const body = source.slice(start, end);
    const streamAt = body.search(/>>\s*stream\r?\n/);
    if (streamAt === -1) {
      objects.set(Number(match[1]), { dict: body, stream: null });
    } else {
      const dict = body.slice(0, streamAt + 2);
      const length = Number(/\/Length (\d+)/.exec(dict)?.[1] ?? -1);
      const dataStart = start + streamAt + /^>>\s*stream\r?\n/.exec(body.slice(streamAt))![0].length;
      const raw = pdf.subarray(dataStart, dataStart + length);
      objects.set(Number(match[1]), { dict, stream: dict.includes('/FlateDecode') ? inflateSync(raw) : raw });
      header.lastIndex = dataStart + length;
    }
  }
  return objects;
}

function hexToString(hex: string): string {
  let text = '';
  for (let i = 0; i + 4 <= hex.length; i += 4) text += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16));
  return text;
}

/** glyph code → text, from a ToUnicode CMap (bfchar and bfrange, both range forms). */
function parseCMap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, text] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
      map.set(parseInt(code!, 16), hexToString(text!));
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, from, to, rest] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const first = parseInt(from!, 16);
      const last = parseInt(to!, 16);
      if (rest!.startsWith('[')) {
        [...rest!.matchAll(/<([0-9a-fA-F ]+)>/g)].forEach((m, i) => map.set(first + i, hexToString(m[1]!.replace(/ /g, ''))));
      } else {
        const base = parseInt(rest!.slice(1, -1), 16);
        for (let code = first; code <= last; code++) map.set(code, String.fromCharCode(base + code - first));
      }
    }
  }
  return map;
}

/** The text drawn on all pages, in drawing order, pieces joined without separators. */
export function pdfText(pdf: Buffer): string {
  const objects = pdfObjects(pdf);
  // Font resource names (F1, F2…) are unique per document in pdfkit: one table for all pages.
  const fonts = new Map<string, Map<number, string>>();
  for (const { dict } of objects.values()) {
    for (const [, name, ref] of dict.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
      const toUnicode = /\/ToUnicode (\d+) 0 R/.exec(objects.get(Number(ref))?.dict ?? '')?.[1];
      const cmap = toUnicode ? objects.get(Number(toUnicode))?.stream : null;
      if (cmap) fonts.set(name!, parseCMap(cmap.toString('latin1')));
    }
  }
  let text = '';
  for (const { stream } of objects.values()) {
    if (!stream) continue;
    const content = stream.toString('latin1');
    if (!content.includes(' Tf')) continue;
    let font = new Map<number, string>();
    for (const op of content.matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      if (op[1]) {
        font = fonts.get(op[1]) ?? new Map();
        continue;
      }
      const hex = op[2] ? [...op[2].matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]).join('') : op[3]!;
      for (let i = 0; i + 4 <= hex.length; i += 4) text += font.get(parseInt(hex.slice(i, i + 4), 16)) ?? '\uFFFD';
    }
  }
  return text;
}

/** A string entry of the document information dictionary (/Title, /Author…), direct or by reference. */
export function pdfInfo(pdf: Buffer, key: string): string | undefined {
  const objects = pdfObjects(pdf);
  const source = pdf.toString('latin1');
  const infoRef = /\/Info (\d+) 0 R/.exec(source.slice(source.lastIndexOf('trailer')))?.[1];
  const info = infoRef ? objects.get(Number(infoRef))?.dict : undefined;
  const value = info ? new RegExp(`/${key} (?:\\((.*)\\)|(\\d+) 0 R)`).exec(info) : null;
  if (!value) return undefined;
  if (value[1] !== undefined) return value[1];
  return /^\s*\((.*)\)\s*$/s.exec(objects.get(Number(value[2]))?.dict ?? '')?.[1];
}

/** Number of pages: /Type /Page dictionaries (not /Pages). */
export function pdfPageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;
}
