// The totals `i -p --json` puts on its last event (`done`, or `error` when the run failed): the session,
// why the run stopped, its requests, tokens, cost and wall time, so a harness reading the stream needs
// nothing else. Fed the run's own events; costs each request at the price of the model serving it then.
import { join } from "node:path";
import type { AgentEvent, RunStopReason } from "../contract/events.ts";
import type { Usage } from "../contract/usage.ts";
import { type Price, requestCost } from "../lib/request-cost.ts";
import { loadMeta } from "../session/store.ts";

export class RunTotals {
  private readonly started = Date.now();
  private cost = 0;
  private unpriced = false;
  private requests = 0;
  private readonly usage: Usage = { input_tokens: 0, output_tokens: 0 };
  /** task call id → the child's session */
  private readonly children = new Map<string, string>();

  /**
   * `price`: the price of the model serving the session now (the one that answered an `assistant`).
   * `dataDir`: where a sub-agent task's session recorded its own cost.
   */
  constructor(
    private readonly price: () => Price,
    private readonly dataDir: string,
  ) {}

  /** Count what `ev` tells: a reply's usage, a finished task's session. */
  see(ev: AgentEvent): void {
    if (ev.type === "assistant") {
      const u = ev.message.meta?.usage as Usage | undefined;
      if (!u || typeof u.input_tokens !== "number") return;
      this.requests++;
      this.add(u);
      const c = requestCost(u, this.price());
      if (c === undefined) this.unpriced = true;
      else this.cost += c;
    } else if (ev.type === "task") {
      // The child's session is named by a progress event; its usage comes with the end.
      if (ev.session_id) this.children.set(ev.id, ev.session_id);
      if (ev.phase === "end" && ev.usage) {
        this.add(ev.usage);
        if (!this.children.has(ev.id)) this.unpriced = true;
      }
    }
  }

  private add(u: Usage): void {
    this.usage.input_tokens += u.input_tokens;
    this.usage.output_tokens += u.output_tokens;
    if (u.cache_read_tokens)
      this.usage.cache_read_tokens = (this.usage.cache_read_tokens ?? 0) + u.cache_read_tokens;
    if (u.cache_write_tokens)
      this.usage.cache_write_tokens = (this.usage.cache_write_tokens ?? 0) + u.cache_write_tokens;
  }

  /** The tasks' own costs, as their sessions recorded them; undefined when one of them was not priced. */
  private childCost(): number | undefined {
    let sum = 0;
    for (const id of this.children.values()) {
      const usage = loadMeta(join(this.dataDir, id), id)?.meta.usage;
      if (!usage) continue;
      if (usage.cost_usd === undefined) return undefined;
      sum += usage.cost_usd;
    }
    return sum;
  }

  /** The fields the last event carries (`stop`: why the run ended). */
  totals(sessionId: string, stop: RunStopReason) {
    const child = this.childCost();
    const priced = !this.unpriced && child !== undefined && (this.requests > 0 || this.children.size > 0);
    return {
      session_id: sessionId,
      stop_reason: stop,
      turns: this.requests,
      usage: { ...this.usage },
      ...(priced ? { cost_usd: round(this.cost + (child ?? 0)) } : {}),
      duration_ms: Date.now() - this.started,
    };
  }

  /** `done` with the totals (its own turns and usage stand: the loop counted them). */
  done(ev: Extract<AgentEvent, { type: "done" }>, sessionId: string): AgentEvent {
    return { ...ev, ...this.totals(sessionId, ev.stop_reason ?? "end"), turns: ev.turns, usage: ev.usage };
  }
}

/** Cost to a millionth of a cent: float sums of per-request costs otherwise print 0.30000000000000004. */
function round(usd: number): number {
  return Math.round(usd * 1e8) / 1e8;
}
