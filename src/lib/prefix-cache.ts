// State derived from an array that only grows, kept per array and extended with its new elements instead
// of rebuilt: the history is summarised, scanned for tool-call ids and so on before every model request,
// and between two requests it only gains messages. Resuming requires every element seen so far to still be
// there, the very same object (one pointer comparison each, far cheaper than redoing the work; messages
// are never mutated once in a history); otherwise the state is rebuilt. Weak: dropped with the array.

export class PrefixCache<S> {
  private readonly entries = new WeakMap<readonly unknown[], { seen: unknown[]; state: S }>();

  constructor(
    private readonly init: () => S,
    private readonly add: (state: S, item: unknown, index: number) => void,
  ) {}

  /** The state for all of `list`. It is the cache's own: read it, do not keep or change it. */
  of(list: readonly unknown[]): S {
    let e = this.entries.get(list);
    if (e && !startsWith(list, e.seen)) e = undefined;
    if (!e) {
      e = { seen: [], state: this.init() };
      this.entries.set(list, e);
    }
    for (let i = e.seen.length; i < list.length; i++) {
      this.add(e.state, list[i], i);
      e.seen.push(list[i]);
    }
    return e.state;
  }
}

function startsWith(list: readonly unknown[], prefix: readonly unknown[]): boolean {
  if (prefix.length > list.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== list[i]) return false;
  return true;
}
