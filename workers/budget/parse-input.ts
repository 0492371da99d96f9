// The budget input, parsed without re-checking the whole history summary on every request. The summary's
// per-message columns (roles, tokens, images) hold one entry per history message: they grow by a few
// entries per request while the rest is exactly what the previous request sent. Checking every entry with
// zod each time costs time linear in the history (~0.4 ms at 2,000 messages with the JIT, ~15 ms without)
// and allocates a copy of each column, garbage that kept the worker's heap growing over a long session.
//
// zod still checks every field of every request, but of each column only the entries that are new: the
// prefix equal, entry by entry, to the previous request's columns (which passed the same check) is taken as
// checked. Entries are primitives, so equality is identity of value. A request whose new entries fail is
// parsed again in full, so the error names the entry's real index.
import { BudgetInput } from "../../src/contract/compaction.ts";
import type { HistorySummary } from "../../src/contract/protocol.ts";
import { parseHookData } from "../sdk/hook-data.ts";

type Columns = Pick<HistorySummary, "roles" | "tokens" | "images">;

function columnsOf(summary: unknown): Columns | undefined {
  if (typeof summary !== "object" || summary === null) return undefined;
  const { roles, tokens, images } = summary as Record<string, unknown>;
  if (!Array.isArray(roles) || !Array.isArray(tokens) || !Array.isArray(images)) return undefined;
  return { roles, tokens, images } as Columns;
}

/** How many leading entries all three columns share with the previous, already checked, columns. */
function checkedPrefix(prev: Columns, next: Columns): number {
  const n = Math.min(prev.roles.length, next.roles.length, next.tokens.length, next.images.length);
  for (let i = 0; i < n; i++)
    if (
      prev.roles[i] !== next.roles[i] ||
      prev.tokens[i] !== next.tokens[i] ||
      prev.images[i] !== next.images[i]
    )
      return i;
  return n;
}

export class BudgetInputParser {
  private checked: Columns | undefined;

  parse(data: Record<string, unknown>): BudgetInput {
    const summary = data.history_summary;
    const next = columnsOf(summary);
    if (!next) {
      this.checked = undefined;
      return parseHookData("budget", BudgetInput, data);
    }
    const k = this.checked ? checkedPrefix(this.checked, next) : 0;
    const tail = {
      ...(summary as object),
      roles: next.roles.slice(k),
      tokens: next.tokens.slice(k),
      images: next.images.slice(k),
    };
    const parsed = BudgetInput.safeParse({ ...data, history_summary: tail });
    if (!parsed.success) {
      this.checked = undefined;
      return parseHookData("budget", BudgetInput, data);
    }
    const input = parsed.data;
    // zod returns arrays of the same primitives; the received columns are those, checked.
    if (input.history_summary) input.history_summary = { ...input.history_summary, ...next };
    this.checked = next;
    return input;
  }
}
