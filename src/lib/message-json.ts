// Each message's JSON text, made once: the history goes out whole on many hook requests and into
// history.json at every checkpoint, and a message never changes once it is in a history (changes make a
// new object; a mutated message would be written as it was when first encoded). The text is exactly
// JSON.stringify(message).
/**
 * At most this many characters of message JSON are cached (a ~1M-token history is ~4M characters): the
 * oldest entries are dropped first, so a long session holds a bounded cache, and messages that leave the
 * history (compacted away) leave it too (weak keys; their entries age out of the order below).
 */
export const CACHE_MAX_CHARS = 8 * 1024 * 1024;

const cache = new WeakMap<object, string>();
/** insertion order of the cached entries with their sizes, oldest first from `head` */
const order: { key: WeakRef<object>; chars: number }[] = [];
let head = 0;
let cachedChars = 0;

function remember(m: object, text: string): void {
  if (text.length > CACHE_MAX_CHARS) return;
  cache.set(m, text);
  order.push({ key: new WeakRef(m), chars: text.length });
  cachedChars += text.length;
  while (cachedChars > CACHE_MAX_CHARS && head < order.length) {
    const oldest = order[head++] as { key: WeakRef<object>; chars: number };
    cachedChars -= oldest.chars;
    const key = oldest.key.deref();
    if (key) cache.delete(key);
  }
  // Drop the consumed front now and then instead of shifting the array on every eviction.
  if (head > 4096 && head * 2 > order.length) {
    order.splice(0, head);
    head = 0;
  }
}

/** Characters of message JSON currently counted against CACHE_MAX_CHARS (tests, benchmarks). */
export function cachedMessageChars(): number {
  return cachedChars;
}

/** JSON.stringify(m), from the cache when this message was encoded before. */
export function messageJson(m: object): string {
  let text = cache.get(m);
  if (text === undefined) {
    text = JSON.stringify(m);
    remember(m, text);
  }
  return text;
}
