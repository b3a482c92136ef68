// A comment says its rule or cites the decision record that holds it (docs/decisions/NNN-*.md),
// never a number of the project's tracker, which a reader of the repository cannot open. The same
// for a test's name and any other text of the code. Upstream references (`owner/repo#123`) are
// public and not matched.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../scripts/build-state.ts';

const FOLDERS = ['server', 'client', 'shared', 'scripts', 'test'];

/** The word, then a number: a citation of the tracker, in any case, with or without "#". */
const TRACKER_CITATION = /\bissues?\s+#?\d+/i;

/** The .ts, .tsx and .mjs files under a folder, as repository paths. */
function codeFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : codeFiles(path);
    return /\.(tsx?|mjs)$/.test(entry.name) ? [path] : [];
  });
}

test('no comment in the code cites an issue number: it states its rule or cites a decision record', () => {
  const citations = FOLDERS.flatMap(codeFiles).flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (TRACKER_CITATION.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(citations).toEqual([]);
});
