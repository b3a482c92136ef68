// The `---` block at the top of a content file: cheap, needed at every start. Every content file
// passes here (the build's and the server's): a misspelt placeholder stops both (placeholders.ts).
import { PLACEHOLDER_NAMES, unknownPlaceholders } from './placeholders.ts';

export type FrontMatter = Record<string, string>;

/** A `---` block of `key: value` lines at the top of a file, and the body after it. */
export function parseFrontMatter(source: string, fileName: string): { attributes: FrontMatter; body: string } {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const unknown = unknownPlaceholders(text);
  if (unknown.length > 0) {
    throw new Error(
      `${fileName}: unknown placeholder ${unknown.join(', ')} (known: ${PLACEHOLDER_NAMES.map((name) => `{{${name}}}`).join(', ')})`,
    );
  }
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  if (!match) throw new Error(`${fileName}: missing front matter (a --- block with title, description…)`);
  const attributes: FrontMatter = {};
  for (const line of (match[1] ?? '').split('\n')) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon < 1) throw new Error(`${fileName}: front matter line is not "key: value": ${JSON.stringify(line)}`);
    const value = line.slice(colon + 1).trim().replace(/^(['"])(.*)\1$/, '$2');
    attributes[line.slice(0, colon).trim()] = value;
  }
  return { attributes, body: text.slice(match[0].length) };
}
