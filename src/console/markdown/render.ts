// Markdown blocks (marked's lexer tokens) as styled terminal lines at a given width. Input text is already
// sanitised, so every string here is inert; the only escapes in the output are our own styling.
//
// Why marked: its lexer is a complete CommonMark + GFM tokenizer (tables, task lists, nested lists, lazy
// continuation, fences) that is fast and well kept; ours would be a worse copy. We use only the lexer and
// render tokens ourselves, because terminal layout (width, wrapping, tables) is ours to decide.
import type { Token, Tokens } from "marked";
import type { Style } from "../../terminal/style.ts";
import { padEnd, truncate, visibleWidth, wrap } from "../../terminal/width.ts";
import { highlight } from "./highlight.ts";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

function decodeEntities(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ENTITIES[e] ?? _);
}

export class MarkdownRenderer {
  constructor(private readonly s: Style) {}

  /** Inline tokens as one styled string (may hold "\n" for hard breaks). */
  inline(tokens: Token[] | undefined): string {
    if (!tokens) return "";
    const s = this.s;
    let out = "";
    for (const t of tokens) {
      switch (t.type) {
        case "strong":
          out += s.bold(this.inline((t as Tokens.Strong).tokens));
          break;
        case "em":
          out += s.italic(this.inline((t as Tokens.Em).tokens));
          break;
        case "del":
          out += s.strike(this.inline((t as Tokens.Del).tokens));
          break;
        case "codespan":
          out += s.cyan(decodeEntities((t as Tokens.Codespan).text));
          break;
        case "br":
          out += "\n";
          break;
        case "link": {
          const l = t as Tokens.Link;
          const text = this.inline(l.tokens);
          const plainText = decodeEntities(l.text);
          out +=
            plainText === l.href || `mailto:${plainText}` === l.href
              ? s.underline(s.blue(text))
              : `${s.underline(s.blue(text))} ${s.dim(`(${l.href})`)}`;
          break;
        }
        case "image": {
          const im = t as Tokens.Image;
          out += s.dim(`[image: ${decodeEntities(im.text) || "untitled"}] (${im.href})`);
          break;
        }
        case "text": {
          const tx = t as Tokens.Text;
          out += tx.tokens ? this.inline(tx.tokens) : decodeEntities(tx.text);
          break;
        }
        case "escape":
          out += (t as Tokens.Escape).text;
          break;
        default:
          out += decodeEntities("text" in t && typeof t.text === "string" ? t.text : t.raw);
      }
    }
    return out;
  }

  /** Block tokens as lines, one blank line between blocks. */
  blocks(tokens: Token[], width: number): string[] {
    const out: string[] = [];
    for (const t of tokens) {
      if (t.type === "space" || t.type === "def") continue;
      const lines = this.block(t, width);
      if (lines.length === 0) continue;
      if (out.length > 0) out.push("");
      out.push(...lines);
    }
    return out;
  }

  block(t: Token, width: number): string[] {
    const s = this.s;
    switch (t.type) {
      case "heading": {
        const h = t as Tokens.Heading;
        const text = this.inline(h.tokens);
        const styled = h.depth <= 2 ? s.bold(s.magenta(text)) : s.bold(text);
        return wrap(styled, width);
      }
      case "paragraph":
        return wrap(this.inline((t as Tokens.Paragraph).tokens), width);
      case "text": {
        const tx = t as Tokens.Text;
        return wrap(tx.tokens ? this.inline(tx.tokens) : decodeEntities(tx.text), width);
      }
      case "code":
        return this.code(t as Tokens.Code, width);
      case "blockquote": {
        const inner = this.blocks((t as Tokens.Blockquote).tokens, Math.max(1, width - 2));
        return inner.map((l) => `${s.dim("│")} ${s.italic(l)}`);
      }
      case "list":
        return this.list(t as Tokens.List, width);
      case "table":
        return this.table(t as Tokens.Table, width);
      case "hr":
        return [s.dim("─".repeat(Math.min(width, 40)))];
      case "html":
        return wrap(s.dim((t as Tokens.HTML).text.replace(/\n$/, "")), width);
      default:
        return wrap(t.raw.replace(/\n+$/, ""), width);
    }
  }

  private code(c: Tokens.Code, width: number): string[] {
    const s = this.s;
    const lang = (c.lang ?? "").trim().split(/\s+/)[0] ?? "";
    const body = highlight(c.text, lang, s).flatMap((l) => wrap(l, Math.max(1, width - 2)));
    const head = s.dim(`╭─ ${lang || "code"}`);
    return [truncate(head, width), ...body.map((l) => `${s.dim("│")} ${l}`), s.dim("╰─")];
  }

  private list(l: Tokens.List, width: number): string[] {
    const out: string[] = [];
    const start = typeof l.start === "number" ? l.start : 1;
    l.items.forEach((item, i) => {
      let marker = l.ordered ? `${start + i}.` : "•";
      if (item.task) marker = item.checked ? "☑" : "☐";
      const indent = visibleWidth(marker) + 1;
      const tokens = item.tokens.filter((x) => x.type !== "checkbox");
      const inner = this.blocksTight(tokens, Math.max(1, width - indent), l.loose);
      inner.forEach((line, j) => {
        out.push(j === 0 ? `${this.s.cyan(marker)} ${line}` : `${" ".repeat(indent)}${line}`);
      });
      if (inner.length === 0) out.push(this.s.cyan(marker));
    });
    return out;
  }

  /** A list item's blocks: no blank lines between them unless the list is loose. */
  private blocksTight(tokens: Token[], width: number, loose: boolean): string[] {
    if (loose) return this.blocks(tokens, width);
    return tokens.filter((t) => t.type !== "space").flatMap((t) => this.block(t, width));
  }

  private table(t: Tokens.Table, width: number): string[] {
    const s = this.s;
    const header = t.header.map((c) => this.inline(c.tokens));
    const rows = t.rows.map((r) => r.map((c) => this.inline(c.tokens)));
    const n = header.length;
    const natural = header.map((h, i) =>
      Math.max(
        1,
        visibleWidth(h),
        ...rows.map((r) => Math.max(...(r[i] ?? "").split("\n").map(visibleWidth))),
      ),
    );
    // Borders: "│ " before each cell and " │" after the last: 3 columns per cell + 1.
    const room = Math.max(n, width - (3 * n + 1));
    const cols = fitColumns(natural, room);
    const align = t.align;
    const cellLines = (text: string, i: number): string[] => wrap(text, cols[i] ?? 1);
    const rowLines = (cells: string[], bold: boolean): string[] => {
      const wrapped = cells.map((c, i) => cellLines(bold ? s.bold(c) : c, i));
      const height = Math.max(1, ...wrapped.map((w) => w.length));
      const lines: string[] = [];
      for (let k = 0; k < height; k++) {
        const parts = wrapped.map((w, i) => alignCell(w[k] ?? "", cols[i] ?? 1, align[i] ?? null));
        lines.push(`${s.dim("│")} ${parts.join(` ${s.dim("│")} `)} ${s.dim("│")}`);
      }
      return lines;
    };
    const rule = (l: string, m: string, r: string) =>
      s.dim(`${l}${cols.map((c) => "─".repeat(c + 2)).join(m)}${r}`);
    return [
      rule("┌", "┬", "┐"),
      ...rowLines(header, true),
      rule("├", "┼", "┤"),
      ...rows.flatMap((r) =>
        rowLines(
          header.map((_, i) => r[i] ?? ""),
          false,
        ),
      ),
      rule("└", "┴", "┘"),
    ];
  }
}

function alignCell(text: string, width: number, align: "left" | "right" | "center" | null): string {
  const gap = Math.max(0, width - visibleWidth(text));
  if (align === "right") return " ".repeat(gap) + text;
  if (align === "center")
    return " ".repeat(Math.floor(gap / 2)) + text + " ".repeat(gap - Math.floor(gap / 2));
  return padEnd(text, width);
}

/**
 * Column widths that fit `room`: natural widths when they fit, else the widest columns are narrowed
 * first (a narrow column keeps its width), so short columns stay readable and long text wraps.
 */
export function fitColumns(natural: number[], room: number): number[] {
  const cols = [...natural];
  let total = cols.reduce((a, b) => a + b, 0);
  while (total > room) {
    const max = Math.max(...cols);
    if (max <= 1) break;
    const i = cols.indexOf(max);
    const second = Math.max(1, ...cols.filter((_, j) => j !== i));
    const cut = Math.min(total - room, Math.max(1, max - second));
    cols[i] = max - cut;
    total -= cut;
  }
  return cols;
}
