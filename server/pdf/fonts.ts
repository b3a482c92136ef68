// pdfmake, configured once per process: Montserrat from the @expo-google-fonts/montserrat package
// (TTF: pdfmake reads TTF and WOFF, not WOFF2) and no access to URLs or local files.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type PdfMakeModule from 'pdfmake';

/** Regular for text, Bold for headings and labels (pdfmake's `bold: true`). */
export const BODY_FONT = 'Montserrat';
/** A family of its own: pdfmake knows only normal/bold/italics per family, and Black is a third weight. */
export const DISPLAY_FONT = 'MontserratBlack';

// Resolved like an import, so it works from server/pdf/*.ts and from dist/server/main.js alike
// (the bundle keeps packages external: node_modules is found by walking up from either file).
const require = createRequire(import.meta.url);

const FONT_FILES = {
  regular: '@expo-google-fonts/montserrat/400Regular/Montserrat_400Regular.ttf',
  bold: '@expo-google-fonts/montserrat/700Bold/Montserrat_700Bold.ttf',
  black: '@expo-google-fonts/montserrat/900Black/Montserrat_900Black.ttf',
} as const;

// Names inside pdfmake's in-memory file system: fonts are read from there, never from disk per document.
const VIRTUAL_NAMES = {
  regular: 'montserrat/Montserrat-Regular.ttf',
  bold: 'montserrat/Montserrat-Bold.ttf',
  black: 'montserrat/Montserrat-Black.ttf',
} as const;

/**
 * pdfmake's in-memory file system (`pdfmake.virtualfs`, set in its base.js; the browser build fills
 * it with vfs_fonts). Not in @types/pdfmake, hence the checked cast below.
 */
type VirtualFileSystem = { writeFileSync(name: string, content: Buffer): void };

function virtualFileSystem(pdfmake: PdfMake): VirtualFileSystem {
  const vfs = (pdfmake as unknown as { virtualfs?: VirtualFileSystem }).virtualfs;
  if (!vfs || typeof vfs.writeFileSync !== 'function') throw new Error('pdfmake has no virtual file system: is it 0.3.x?');
  return vfs;
}

export type PdfMake = typeof PdfMakeModule;

async function configure(): Promise<PdfMake> {
  // Loaded on the first document, not at start: pdfmake and its font engine cost ~150 ms to load.
  const pdfmake = (await import('pdfmake')).default;
  // Nothing in a document may make pdfmake fetch a URL or open a file: images, attachments and
  // fonts can only come from the virtual file system filled below.
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);

  const [regular, bold, black] = await Promise.all(
    [FONT_FILES.regular, FONT_FILES.bold, FONT_FILES.black].map((specifier) => readFile(require.resolve(specifier))),
  );
  const vfs = virtualFileSystem(pdfmake);
  vfs.writeFileSync(VIRTUAL_NAMES.regular, regular!);
  vfs.writeFileSync(VIRTUAL_NAMES.bold, bold!);
  vfs.writeFileSync(VIRTUAL_NAMES.black, black!);

  // Every style slot is filled so that an italic or bold-black request cannot fail a document.
  pdfmake.setFonts({
    [BODY_FONT]: {
      normal: VIRTUAL_NAMES.regular,
      bold: VIRTUAL_NAMES.bold,
      italics: VIRTUAL_NAMES.regular,
      bolditalics: VIRTUAL_NAMES.bold,
    },
    [DISPLAY_FONT]: {
      normal: VIRTUAL_NAMES.black,
      bold: VIRTUAL_NAMES.black,
      italics: VIRTUAL_NAMES.black,
      bolditalics: VIRTUAL_NAMES.black,
    },
  });
  return pdfmake;
}

let ready: Promise<PdfMake> | undefined;

/** pdfmake with the fonts loaded: the files are read on first use, once; a failed read is retried next time. */
export function pdfmakeWithFonts(): Promise<PdfMake> {
  ready ??= configure().catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  return ready;
}
