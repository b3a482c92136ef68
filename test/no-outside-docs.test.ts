// The repository explains itself: no comment or document points at a file a clone does not have
// (the owner's specification, design card and style card lived beside the repository, not in
// it). The specification the product implements is docs/specification.md; decision records say
// when they were made and where they stand, with supersession named on both ends.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PATHS } from '../server/base/paths.ts';

/** Citations of documents outside the repository. */
const OUTSIDE_DOCUMENTS: readonly RegExp[] = [/seed-spec/, /DESIGN\.md/, /STYLE\.md/, /\.\.\/shared\/[A-Za-z0-9_-]+\.md/];

/** The tests that name the citations they look for (this one, and the docs' own checks). */
const CHECKERS: readonly string[] = ['test/no-outside-docs.test.ts', 'test/docs.test.ts'];

function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: PATHS.root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out.split('\0').filter(Boolean);
}

function checkedForCitations(file: string): boolean {
  if (CHECKERS.includes(file)) return false;
  if (file.startsWith('node_modules/') || file.startsWith('dist/')) return false;
  return existsSync(join(PATHS.root, file));
}

test('no tracked file cites a document outside the repository', () => {
  const found: string[] = [];
  for (const file of trackedFiles().filter(checkedForCitations)) {
    const bytes = readFileSync(join(PATHS.root, file));
    if (bytes.includes(0)) continue; // images, fonts: no text to cite anything
    bytes
      .toString('utf8')
      .split('\n')
      .forEach((line, index) => {
        if (OUTSIDE_DOCUMENTS.some((pattern) => pattern.test(line))) found.push(`${file}:${index + 1}: ${line.trim()}`);
      });
  }
  expect(found).toEqual([]);
});

test('the specification is in the repository', () => {
  expect(existsSync(join(PATHS.root, 'docs', 'specification.md'))).toBe(true);
});

type DecisionRecord = {
  number: string;
  file: string;
  date: string | undefined;
  status: string | undefined;
  supersedes: string[];
  amends: string[];
};

const DECISIONS_DIR = 'docs/decisions/';
const STATUS = /^(accepted|amended by (\d{3}(?:, \d{3})*)|superseded by (\d{3}(?:, \d{3})*))(?: \(.+\))?$/;

/** The record numbers a header line lists ("Amends: 009 (device cookies), 012 (priority)" → 009, 012). */
function numbersIn(value: string | undefined): string[] {
  if (!value) return [];
  return [...value.replace(/\([^)]*\)/g, '').matchAll(/\b\d{3}\b/g)].map((match) => match[0]);
}

function decisionRecords(): DecisionRecord[] {
  return trackedFiles()
    .filter((file) => file.startsWith(DECISIONS_DIR) && /^\d{3}-.+\.md$/.test(file.slice(DECISIONS_DIR.length)))
    .map((file) => {
      const lines = readFileSync(join(PATHS.root, file), 'utf8').split('\n');
      // The header: the lines right under the title, up to the first blank line.
      const end = lines.indexOf('', 2);
      const header = lines.slice(2, end === -1 ? lines.length : end);
      const field = (name: string) => header.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
      return {
        number: file.slice(DECISIONS_DIR.length, DECISIONS_DIR.length + 3),
        file,
        date: field('Date'),
        status: field('Status'),
        supersedes: numbersIn(field('Supersedes')),
        amends: numbersIn(field('Amends')),
      };
    });
}

/** Today as the calendar shows it here (YYYY-MM-DD). */
function today(): string {
  const now = new Date();
  return [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((part) => String(part).padStart(2, '0')).join('-');
}

test('every decision record says, right under its title, the day it was made and where it stands', () => {
  const records = decisionRecords();
  expect(records.length).toBeGreaterThan(0);
  const problems: string[] = [];
  for (const record of records) {
    if (!record.date || !/^\d{4}-\d{2}-\d{2}$/.test(record.date)) problems.push(`${record.file}: no "Date: YYYY-MM-DD" under the title`);
    else if (new Date(`${record.date}T00:00:00Z`).toISOString().slice(0, 10) !== record.date)
      problems.push(`${record.file}: no such day ${record.date}`);
    else if (record.date > today()) problems.push(`${record.file}: dated in the future (${record.date})`);
    if (!record.status || !STATUS.test(record.status)) {
      problems.push(`${record.file}: no "Status: accepted | amended by NNN | superseded by NNN" under the title`);
    }
  }
  expect(problems).toEqual([]);
});

test('a record amended or superseded by a later one is named by it, and the other way round', () => {
  const records = decisionRecords();
  const byNumber = new Map(records.map((record) => [record.number, record]));
  const problems: string[] = [];
  for (const record of records) {
    const match = STATUS.exec(record.status ?? '');
    const amendedBy = numbersIn(match?.[2]);
    const supersededBy = numbersIn(match?.[3]);
    for (const [later, list, field] of [
      ...amendedBy.map((n) => [n, 'amends', 'Amends'] as const),
      ...supersededBy.map((n) => [n, 'supersedes', 'Supersedes'] as const),
    ]) {
      const other = byNumber.get(later);
      if (!other) problems.push(`${record.file}: names ${later}, which does not exist`);
      else if (!other[list].includes(record.number)) problems.push(`${other.file}: no "${field}: ${record.number}"`);
      else if (other.number <= record.number || (other.date ?? '') < (record.date ?? '')) {
        problems.push(`${other.file}: older than ${record.file}, which it changes`);
      }
    }
    for (const [earlier, wanted] of [
      ...record.amends.map((n) => [n, 'amended by'] as const),
      ...record.supersedes.map((n) => [n, 'superseded by'] as const),
    ]) {
      const other = byNumber.get(earlier);
      const named = numbersIn(STATUS.exec(other?.status ?? '')?.[wanted === 'amended by' ? 2 : 3]);
      if (!other) problems.push(`${record.file}: names ${earlier}, which does not exist`);
      else if (!named.includes(record.number)) problems.push(`${other.file}: its Status is not "${wanted} … ${record.number}"`);
    }
  }
  expect(problems).toEqual([]);
});
