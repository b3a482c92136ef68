// A file's size as the site and its PDFs both show it: "12 B", "1,2 kB" / "1.2 kB", "3,4 MB" —
// decimal units, as their names say (a kilobyte is 1,000 bytes), in the reader's number style.
import { intlLocale, type Locale } from './locales.ts';

type Units = Record<'byte' | 'kilobyte' | 'megabyte', Intl.NumberFormat>;

const made = new Map<Locale, Units>();

function unitsOf(locale: Locale): Units {
  let units = made.get(locale);
  if (!units) {
    const tag = intlLocale(locale);
    const unit = (name: keyof Units) =>
      new Intl.NumberFormat(tag, { style: 'unit', unit: name, maximumFractionDigits: 1, useGrouping: 'always' });
    made.set(locale, (units = { byte: unit('byte'), kilobyte: unit('kilobyte'), megabyte: unit('megabyte') }));
  }
  return units;
}

export function formatBytes(bytes: number, locale: Locale): string {
  const units = unitsOf(locale);
  if (bytes < 1000) return units.byte.format(bytes);
  return bytes < 1_000_000 ? units.kilobyte.format(bytes / 1000) : units.megabyte.format(bytes / 1_000_000);
}
