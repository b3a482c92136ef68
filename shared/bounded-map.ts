// The one bound every in-memory cache of the site keeps: a Map of at most `max` entries, where
// setting a key makes it the newest and setting a new key past the bound forgets the entry set
// longest ago. A cache that wants "least recently used" rather than "least recently set" calls
// `touch` on a hit. Both sides use it (the
// route matcher runs in the browser too), so it is a few lines rather than a library.
export class BoundedMap<K, V> extends Map<K, V> {
  readonly max: number;

  constructor(max: number) {
    super();
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`A BoundedMap holds at least one entry (got ${max})`);
    this.max = max;
  }

  override set(key: K, value: V): this {
    if (this.has(key)) this.delete(key);
    else if (this.size >= this.max) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }

  /** Makes `key` the most recently set (kept longest); its value, or undefined when absent. */
  touch(key: K): V | undefined {
    if (!this.has(key)) return undefined;
    const value = this.get(key) as V;
    this.delete(key);
    super.set(key, value);
    return value;
  }
}
