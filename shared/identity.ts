// Who is who (docs/decisions/029-limits-and-identity.md): user names and e-mail addresses are
// stored in one canonical form and compared in it, by the database and by the code alike, so
// that two spellings of one name can never be two users for one and one user for the other.
// Names that only look like another (invisible, bidirectional or control characters, letters of
// two scripts, compatibility forms, a few well-known look-alike letters) are refused where
// they come in, with the character named.

/**
 * The canonical form of a user name or an e-mail address: trimmed, NFKC (U+212A KELVIN SIGN is
 * "K", full-width "ａ" is "a"), then lower case, then NFKC again (lower case may decompose:
 * U+0130 "İ" becomes "i" + U+0307). ß stays ß (JavaScript's lower case, like the database's).
 * Idempotent: the canonical form of a canonical form is itself.
 */
export function canonicalIdentity(value: string): string {
  return value.trim().normalize('NFKC').toLowerCase().normalize('NFKC');
}

/** Two stored (canonical) names are the same user only when they are the same string. */
export function sameIdentity(a: string, b: string): boolean {
  return a === b;
}

/** U+XXXX, the way a message names a character. */
export function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

// Embedding, override and isolate controls, marks: what turns "xfdp.bat" into "xtab.pdf" on screen.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
// Characters that show nothing (zero-width space and joiners, soft hyphen, fillers, variation selectors…).
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u115f\u1160\u3164\uffa0]/u;
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/** Bidirectional, invisible and control characters, for names that are cleaned rather than refused (documents); global: for replace() only. */
export const HIDDEN_CHARACTERS = /[\p{Cc}\p{Zl}\p{Zp}\p{Cf}\p{Default_Ignorable_Code_Point}\u115f\u1160\u3164\uffa0]/gu;

/**
 * Letters that NFKC keeps but that read as an ASCII letter (Unicode's confusables, the ones a
 * Latin-script name can hold); letters of other scripts are caught by the mixed-script rule.
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  '\u0130': 'I', // İ LATIN CAPITAL LETTER I WITH DOT ABOVE (lower case: i + U+0307)
  '\u0131': 'i', // ı LATIN SMALL LETTER DOTLESS I
  '\u0237': 'j', // ȷ LATIN SMALL LETTER DOTLESS J
  '\u0251': 'a', // ɑ LATIN SMALL LETTER ALPHA
  '\u0261': 'g', // ɡ LATIN SMALL LETTER SCRIPT G
  '\u0269': 'i', // ɩ LATIN SMALL LETTER IOTA
  '\u026a': 'I', // ɪ LATIN LETTER SMALL CAPITAL I
  '\u01c0': 'l', // ǀ LATIN LETTER DENTAL CLICK
  '\u0280': 'R', // ʀ LATIN LETTER SMALL CAPITAL R
  '\u028f': 'Y', // ʏ LATIN LETTER SMALL CAPITAL Y
  '\u0299': 'B', // ʙ LATIN LETTER SMALL CAPITAL B
  '\u029c': 'H', // ʜ LATIN LETTER SMALL CAPITAL H
  '\u1d00': 'A', // ᴀ LATIN LETTER SMALL CAPITAL A
  '\u1d04': 'C', // ᴄ LATIN LETTER SMALL CAPITAL C
  '\u1d05': 'D', // ᴅ LATIN LETTER SMALL CAPITAL D
  '\u1d07': 'E', // ᴇ LATIN LETTER SMALL CAPITAL E
  '\u1d0b': 'K', // ᴋ LATIN LETTER SMALL CAPITAL K
  '\u1d0d': 'M', // ᴍ LATIN LETTER SMALL CAPITAL M
  '\u1d0f': 'O', // ᴏ LATIN LETTER SMALL CAPITAL O
  '\u1d18': 'P', // ᴘ LATIN LETTER SMALL CAPITAL P
  '\u1d1b': 'T', // ᴛ LATIN LETTER SMALL CAPITAL T
  '\u1d1c': 'U', // ᴜ LATIN LETTER SMALL CAPITAL U
  '\u1d20': 'V', // ᴠ LATIN LETTER SMALL CAPITAL V
  '\u1d21': 'W', // ᴡ LATIN LETTER SMALL CAPITAL W
  '\u1d22': 'Z', // ᴢ LATIN LETTER SMALL CAPITAL Z
  '\ua731': 's', // ꜱ LATIN LETTER SMALL CAPITAL S
};

// The scripts a name is told apart by (Unicode's Script property); letters of any other count as one more.
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Georgian',
  'Hangul',
  'Ethiopic',
  'Cherokee',
  'Khmer',
  'Mongolian',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
] as const;
const SCRIPT_TESTS = SCRIPTS.map((script) => [script, new RegExp(`\\p{Script=${script}}`, 'u')] as const);

/** The writing systems that are used together (Unicode TS 39, "highly restrictive"): Japanese, Chinese, Korean with Latin. */
const MIXES_ALLOWED: readonly (readonly string[])[] = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

function scriptOf(letter: string): string {
  return SCRIPT_TESTS.find(([, test]) => test.test(letter))?.[0] ?? `another script (${codePointName(letter)})`;
}

/** The first letter of each script the text uses, in order of appearance. */
function scriptsIn(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const char of text) {
    if (!/\p{L}/u.test(char)) continue;
    const script = scriptOf(char);
    if (!found.has(script)) found.set(script, char);
  }
  return found;
}

/**
 * Why a user name or an e-mail address may pass for another, or null: a control, bidirectional
 * or invisible character, a variant that NFKC changes, a known look-alike letter, or letters of
 * two scripts. The words name the character and follow the value's name: '(The user name
 * "Kelvin") contains U+212A (K), a variant of "K": write "K"'.
 */
export function identityProblem(value: string): string | null {
  for (const char of value) {
    const name = `contains ${codePointName(char)}`;
    if (BIDI.test(char)) return `${name}, a bidirectional control (it reorders how the text is shown)`;
    if (CONTROL.test(char)) return `${name}, a control character`;
    if (INVISIBLE.test(char)) return `${name}, an invisible character`;
    const look = LOOK_ALIKES[char];
    if (look !== undefined) return `${name} (${char}), a look-alike of ${JSON.stringify(look)}`;
    // A single character that NFKC changes is a variant of another (U+212A KELVIN SIGN of "K", U+FF41 of "a").
    const plain = char.normalize('NFKC');
    if (plain !== char) return `${name} (${char}), a variant of ${JSON.stringify(plain)}: write ${JSON.stringify(plain)}`;
  }
  const scripts = scriptsIn(value.normalize('NFKC'));
  const names = [...scripts.keys()];
  if (names.length > 1 && !MIXES_ALLOWED.some((allowed) => names.every((s) => allowed.includes(s)))) {
    const [first, second] = names as [string, string];
    const [a, b] = [scripts.get(first)!, scripts.get(second)!];
    return (
      `mixes ${first} and ${second} letters (${a} ${codePointName(a)} is ${first}, ${b} ${codePointName(b)} is ${second}): ` +
      'use letters of one script'
    );
  }
  return null;
}
