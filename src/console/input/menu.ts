// The completion menu under the input, opened as you type: after `/` at the start, the commands (each
// with its one line of help), filtered as you type; after `@`, workspace paths — the entries of the
// directory typed so far, then fuzzy matches from the whole workspace. ↑/↓ move, Tab takes the marked
// row, Enter takes it too (and runs a command), Esc closes the menu until the text changes. When the
// marked row continues what was typed, the rest of it shows dim after the caret (ghost text), and → at
// the end of the line takes it as Tab does.
export interface MenuRow {
  /** what replaces the typed token */
  value: string;
  /** shown dim after it */
  detail: string;
}

export interface Menu {
  kind: "command" | "path";
  /** the range of the text the chosen row replaces */
  from: number;
  to: number;
  rows: MenuRow[];
}

export interface MenuSource {
  commands(): Array<{ name: string; help: string }>;
  /** a directory's entries for a partial path (directories end in "/") */
  paths(partial: string): string[];
  /** fuzzy matches over the workspace */
  files(query: string): string[];
  /** MCP resources (`SERVER:URI`) matching a partial mention */
  resources?(partial: string): MenuRow[];
}

/** Rows drawn at once; the list scrolls to keep the marked one in view. */
export const MENU_ROWS = 8;
const MAX_ROWS = 50;

function commandMenu(text: string, cursor: number, src: MenuSource): Menu | undefined {
  if (!text.startsWith("/")) return undefined;
  const end = text.search(/\s/) === -1 ? text.length : text.search(/\s/);
  if (cursor > end || text.includes("\n")) return undefined;
  const typed = text.slice(1, cursor).toLowerCase();
  const all = src.commands();
  const prefix = all.filter((c) => c.name.startsWith(typed));
  const inside = all.filter((c) => !c.name.startsWith(typed) && c.name.includes(typed));
  const rows = [...prefix, ...inside].map((c) => ({ value: `/${c.name}`, detail: c.help }));
  return rows.length > 0 ? { kind: "command", from: 0, to: end, rows } : undefined;
}

function pathMenu(text: string, cursor: number, src: MenuSource): Menu | undefined {
  const m = /(^|\s)@(\S*)$/.exec(text.slice(0, cursor));
  if (!m) return undefined;
  const partial = m[2] ?? "";
  const from = cursor - partial.length;
  const rest = /^\S*/.exec(text.slice(cursor))?.[0] ?? "";
  const listed = src.paths(partial);
  const seen = new Set(listed);
  const fuzzy = partial === "" || partial.endsWith("/") ? [] : src.files(partial).filter((p) => !seen.has(p));
  const resources = src.resources?.(partial) ?? [];
  const rows = [...listed, ...fuzzy]
    .slice(0, MAX_ROWS - resources.length)
    .map((p) => ({ value: p, detail: p.endsWith("/") ? "directory" : "" }))
    .concat(resources);
  return rows.length > 0 ? { kind: "path", from, to: cursor + rest.length, rows } : undefined;
}

/** The menu for the text and caret, or undefined when none applies. */
export function menuFor(text: string, cursor: number, src: MenuSource): Menu | undefined {
  return commandMenu(text, cursor, src) ?? pathMenu(text, cursor, src);
}

/**
 * The ghost text: what the marked row adds to the token typed so far, when the caret ends the line and
 * the row begins with exactly what was typed (a fuzzy match has no rest to show).
 */
export function ghostText(menu: Menu, at: number, text: string, cursor: number): string | undefined {
  if (cursor !== text.length || menu.to !== cursor) return undefined;
  const value = menu.rows[at]?.value;
  const typed = text.slice(menu.from, cursor);
  if (value === undefined || value.length <= typed.length || !value.startsWith(typed)) return undefined;
  return value.slice(typed.length);
}

/** The rows to draw (at most MENU_ROWS around the marked one), each `value  detail`, the marked one marked. */
export function menuLines(
  menu: Menu,
  at: number,
  width: number,
  t: {
    clean(s: string): string;
    dim(s: string): string;
    mark(s: string): string;
    fit(s: string, w: number): string;
  },
): string[] {
  const first = Math.max(0, Math.min(at - Math.floor(MENU_ROWS / 2), menu.rows.length - MENU_ROWS));
  const shown = menu.rows.slice(first, first + MENU_ROWS);
  const pad = Math.min(28, Math.max(...shown.map((r) => r.value.length)) + 2);
  const lines = shown.map((r, i) => {
    const value = t.clean(r.value);
    // A value longer than the column (a resource's URI) still keeps its detail apart.
    const cell = value.length >= pad ? `${value}  ` : value.padEnd(pad);
    const line = `  ${cell}${r.detail ? t.dim(t.clean(r.detail)) : ""}`;
    return first + i === at ? t.fit(t.mark(line), width) : t.fit(line, width);
  });
  if (menu.rows.length > MENU_ROWS)
    lines.push(t.dim(`  ${at + 1}/${menu.rows.length} · ↑↓ move · Tab takes · Esc closes`));
  return lines;
}
