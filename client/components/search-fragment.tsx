import type { FragmentPart } from '../../shared/search.ts';

/** The text around a search's words, the words marked: text only (React escapes it), <mark> the one element. */
export function SearchFragment({ parts }: { parts: readonly FragmentPart[] }) {
  if (parts.length === 0) return null;
  return <p className="search-fragment">{parts.map((part, i) => (part.marked ? <mark key={i}>{part.text}</mark> : part.text))}</p>;
}
