// The status line: model, provider, context used / hard limit (the figure the next request is checked
// against, so after a compaction it shows what was left), session tokens in/out and the session title.
import type { Price } from "../lib/request-cost.ts";
import { sanitizeLine } from "../terminal/sanitize.ts";
import type { Style } from "../terminal/style.ts";
import { truncate } from "../terminal/width.ts";
import type { Component } from "./ui/screen.ts";

export interface StatusState {
  model: string;
  provider: string;
  context?: { total: number; hardLimit: number };
  tokensIn: number;
  tokensOut: number;
  title?: string;
  /** what bash, write and edit need now ("ask", "accept edits", "allow all", "read-only") */
  approval?: string;
  /** the session's cost so far, each request at its own model's price (absent: no price known) */
  costUsd?: number;
  /** USD per million tokens in / out, when the model table or config.json knows it */
  price?: Price;
}

/** "$0.004", "$0.12", "$3.40", "$12.5". */
export function formatCost(usd: number): string {
  if (usd < 1) return `$${usd.toFixed(usd < 0.1 ? 3 : 2)}`;
  return `$${usd < 10 ? usd.toFixed(2) : usd.toFixed(1)}`;
}

/** 950, 12.3k, 120k, 1.2M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export class StatusLine implements Component {
  constructor(
    readonly state: StatusState,
    private readonly s: Style,
  ) {}

  text(width: number): string {
    const { state: st, s } = this;
    const parts = [s.bold(sanitizeLine(st.model)), sanitizeLine(st.provider)];
    if (st.context) {
      const pct = Math.round((st.context.total / st.context.hardLimit) * 100);
      const meter = `ctx ${formatTokens(st.context.total)}/${formatTokens(st.context.hardLimit)} ${pct}%`;
      parts.push(pct >= 85 ? s.red(meter) : pct >= 60 ? s.yellow(meter) : meter);
    }
    let tokens = `↑${formatTokens(st.tokensIn)} ↓${formatTokens(st.tokensOut)}`;
    // Each request at the price of the model that served it: a /model switch never re-prices the past.
    if (st.costUsd !== undefined) tokens += ` ${formatCost(st.costUsd)}`;
    parts.push(tokens);
    if (st.approval) parts.push(st.approval === "ask first" ? st.approval : s.yellow(st.approval));
    if (st.title) parts.push(s.italic(sanitizeLine(st.title)));
    return truncate(s.dim(parts.join(" · ")), width);
  }

  render(width: number): string[] {
    return [this.text(width)];
  }
}
