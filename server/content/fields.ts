// The fields content files share (home.ts, practices.ts, authors.ts): numbered lists, "value | label"
// pairs, yes/no switches, and reading a folder that may not be there.
import { readdir, readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { FrontMatter } from './front-matter.ts';

/** `value | label`, each part trimmed and within its limits. */
export function pair(first: number, second: number) {
  return z
    .string()
    .regex(/^[^|]+\|[^|]+$/, 'must be "value | label"')
    .transform((text) => text.split('|').map((part) => part.trim()) as [string, string])
    .refine(([a, b]) => a.length > 0 && a.length <= first && b.length > 0 && b.length <= second, {
      message: `must be "value | label" (at most ${first} and ${second} characters)`,
    });
}

export const sample = z
  .enum(['yes', 'no'], { message: 'must be yes or no' })
  .optional()
  .transform((value) => value === 'yes');

export function problems(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
}

/** The numbered keys `name1`, `name2`… of a front matter, in order; a gap or a number past `max` is an error. */
export function numbered(attributes: FrontMatter, name: string, max: number, file: string): string[] {
  const pattern = new RegExp(`^${name}(\\d+)$`);
  const numbers = Object.keys(attributes)
    .map((key) => pattern.exec(key)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  numbers.forEach((n, i) => {
    if (n !== i + 1) throw new Error(`${file}: ${name}${i + 1} is missing (${name}s are numbered 1, 2, 3…)`);
  });
  if (numbers.length > max) throw new Error(`${file}: at most ${max} ${name}s (${name}1 … ${name}${max})`);
  return numbers.map((n) => attributes[`${name}${n}`] ?? '');
}

export async function readIfExists(file: string): Promise<string | null> {
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

export async function directories(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

