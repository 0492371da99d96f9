// MCP resources in the `@` completion menu, next to the workspace's files: `SERVER:URI` rows (with the
// server's name for the resource), those starting with what was typed first, then those containing it
// (in the value or the name). The list is the session's, cached per server by the mcp module and
// refreshed when a server says its resources changed.

export interface ResourceRow {
  value: string;
  detail: string;
}

/** Rows at most: a server with hundreds of resources leaves room for the files. */
export const MAX_RESOURCE_ROWS = 20;

export function resourceRows(partial: string, all: readonly ResourceRow[]): ResourceRow[] {
  const q = partial.toLowerCase();
  const starts = all.filter((r) => r.value.toLowerCase().startsWith(q));
  const inside = q
    ? all.filter(
        (r) =>
          !r.value.toLowerCase().startsWith(q) &&
          (r.value.toLowerCase().includes(q) || r.detail.toLowerCase().includes(q)),
      )
    : [];
  return [...starts, ...inside].slice(0, MAX_RESOURCE_ROWS);
}

/** The values alone, for Tab completion. */
export function resourceValues(partial: string, all: readonly ResourceRow[]): string[] {
  return all.filter((r) => r.value.startsWith(partial)).map((r) => r.value);
}
