// /cost: the session's one total — every request priced by the model that served it, compacted ones and
// earlier runs' included, the same figure the status line shows — then what it is made of: this run's
// requests per model, and what earlier runs of the session spent. The parts add up to the total.
import type { AgentSession } from "../agent/agent-session.ts";
import type { Price } from "../lib/request-cost.ts";
import type { ConsoleUi } from "./ports.ts";
import { formatCost } from "./status-line.ts";

interface Part {
  label: string;
  requests?: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd?: number;
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

export function costLines(session: AgentSession, ui: ConsoleUi): string[] {
  const runRows = session.runUsage.rows();
  const run = runRows.reduce(
    (a, r) => ({
      input_tokens: a.input_tokens + r.input_tokens,
      output_tokens: a.output_tokens + r.output_tokens,
      requests: a.requests + r.requests,
      cost_usd: a.cost_usd + (r.cost_usd ?? 0),
    }),
    { input_tokens: 0, output_tokens: 0, requests: 0, cost_usd: 0 },
  );
  const all = session.sessionUsage ?? { input_tokens: run.input_tokens, output_tokens: run.output_tokens };
  const total = all.cost_usd ?? (run.cost_usd > 0 ? run.cost_usd : undefined);
  const parts: Part[] = runRows.map((r) => ({ label: ui.clean(r.model), ...r }));
  const earlier: Part = {
    label: "earlier runs of this session",
    input_tokens: all.input_tokens - run.input_tokens,
    output_tokens: all.output_tokens - run.output_tokens,
    ...(total !== undefined ? { cost_usd: Math.max(0, total - run.cost_usd) } : {}),
  };
  if (earlier.input_tokens > 0 || earlier.output_tokens > 0) parts.push(earlier);
  const money = (usd: number | undefined) => (usd === undefined ? "cost unknown" : formatCost(usd));
  const lines = [
    `cost: ${total === undefined ? "unknown" : formatCost(total)} · ${all.input_tokens} tokens in · ${all.output_tokens} out (this session, every request at the price of the model that served it)`,
    ...parts.map(
      (p) =>
        `  ${p.label}: ${p.requests !== undefined ? `${plural(p.requests, "request")} · ` : ""}${p.input_tokens} in · ${p.output_tokens} out · ${money(p.cost_usd)}`,
    ),
  ];
  const unpriced = runRows.filter((r) => r.cost_usd === undefined).map((r) => ui.clean(r.model));
  const price = session.model.price;
  if (price)
    lines.push(
      `${ui.clean(session.model.name)} costs $${price.input} in / $${price.output} out per million tokens (list price; ${cachedPrice(price)})`,
    );
  if (unpriced.length > 0 || !price)
    lines.push(
      `no price for ${[...new Set([...unpriced, ...(price ? [] : [ui.clean(session.model.name)])])].join(", ")}: its requests are not in the cost; add "price" to its entry in config.json models`,
    );
  return lines.map((l) => ui.dim(l));
}

/** How the cached part of the prompt is priced, in the words of the /cost line. */
function cachedPrice(p: NonNullable<Price>): string {
  if (p.cache_read === undefined && p.cache_write === undefined) return "cached input counted at full price";
  const read = p.cache_read === undefined ? "" : `cache reads $${p.cache_read}`;
  const write = p.cache_write === undefined ? "" : `cache writes $${p.cache_write}`;
  return [read, write].filter(Boolean).join(", ");
}
