// Adding a locale is data: an entry in the locale table (shared/locales.ts), its messages in
// locales/<code>/ and its content files. So no other source file names a locale: no `'es'` or
// `'en'` literal (nor one quoted inside a string, as in `lang="en"`), no `es:`/`en:` key of a
// per-locale object. What differs between locales is derived from the table or read from the
// messages. Comments are not code: the syntax tree the check walks has none.
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { ROOT } from '../scripts/build-state.ts';
import { sourceFiles } from './helpers/imports.ts';

const CODE = ['server', 'client', 'shared'] as const;
const NAMED = new Set(['es', 'en']);
const QUOTED = /(["'`])(?:es|en)\1/;

type Finding = { file: string; line: number; text: string };

/** Where a locale may be named, each with the reason it is not a locale's logic: a whole file, or one literal in it. */
const ALLOWED: readonly { file: string; literal?: string; reason: string }[] = [
  { file: 'shared/locales.ts', reason: 'the locale table itself' },
  { file: 'server/db/migrations/0001-baseline.ts', reason: 'a migration is history: it ran as written (0023 drops its CHECK)' },
  { file: 'server/db/migrations/0005-mail-outbox.ts', reason: 'a migration is history: it ran as written (0023 drops its CHECK)' },
];

function allowed(finding: Finding): boolean {
  return ALLOWED.some((a) => a.file === finding.file && (a.literal === undefined || finding.text.includes(a.literal)));
}

/** Every place a source text names a locale, by the rule above. */
function namedLocales(file: string, source: string): Finding[] {
  // Parsing is what costs: a file without the two letters as a word cannot name a locale.
  if (!/\b(?:es|en)\b/.test(source)) return [];
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, kind);
  const found: Finding[] = [];
  const report = (node: ts.Node) => {
    const { line } = tree.getLineAndCharacterOfPosition(node.getStart(tree));
    found.push({ file, line: line + 1, text: node.getText(tree).slice(0, 80) });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      if (NAMED.has(node.text) || QUOTED.test(node.text)) report(node);
    } else if (ts.isJsxText(node) && QUOTED.test(node.text)) {
      report(node);
    } else if (
      (ts.isPropertyAssignment(node) ||
        ts.isPropertySignature(node) ||
        ts.isShorthandPropertyAssignment(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isBindingElement(node)) &&
      node.name !== undefined
    ) {
      const key = ts.isBindingElement(node) ? (node.propertyName ?? node.name) : node.name;
      if ((ts.isIdentifier(key) || ts.isStringLiteral(key)) && NAMED.has(key.text)) report(key);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

test('the check finds a quoted locale, one inside a string or a template, and a per-locale key, and skips comments', () => {
  const source = [
    '// the default is "es": a comment, not code',
    "const a = locale === 'en' ? 1 : 2;",
    'const b = { es: 1, en: 2 };',
    'type C = { es: string };',
    'const d = `<html lang="en">${x}`;',
    "const e = \"IN ('es', 'en')\";",
    'const { en } = f; const { es: g } = h;',
    'const ok = [entries, lines, "es-ES", "English", locale];',
  ].join('\n');
  expect(namedLocales('x.ts', source).map((f) => f.line)).toEqual([2, 3, 3, 4, 5, 6, 7, 7]);
});

test('no source file but the locale table names a locale: a third one is the table, locales/<code>/ and content', () => {
  const files = CODE.flatMap((top) => sourceFiles(`${ROOT}/${top}`)).map((file) => relative(ROOT, file).split(sep).join('/'));
  const found = files.flatMap((file) => namedLocales(file, readFileSync(`${ROOT}/${file}`, 'utf8'))).filter((f) => !allowed(f));
  expect(found.map((f) => `${f.file}:${f.line}: ${f.text}`)).toEqual([]);
});

test('every place allowed to name a locale still does: an exception no longer needed is taken out', () => {
  for (const { file, literal } of ALLOWED) {
    const found = namedLocales(file, readFileSync(`${ROOT}/${file}`, 'utf8'));
    expect(
      found.some((f) => literal === undefined || f.text.includes(literal)),
      `${file} ${literal ?? ''}`,
    ).toBe(true);
  }
});
