// Tool-call ids are how a tool result finds its call, so every call in the history needs one that is
// unique. Models and local servers do not always oblige: some omit ids, some reuse "call_0" every turn.
import { createHash, randomUUID } from "node:crypto";
import type { History } from "../contract/history.ts";
import { PrefixCache } from "./prefix-cache.ts";

export function newToolCallId(): string {
  return `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
}

/** The tool-call ids of a history, kept per history array and extended as it grows (one reply per request). */
const historyIds = new PrefixCache<Set<string>>(
  () => new Set(),
  (ids, m) => {
    for (const c of (m as { tool_calls?: { id: string }[] }).tool_calls ?? []) ids.add(c.id);
  },
);

/** Hands out tool-call ids for one reply, unique within it and against the history it answers. */
export class ToolIdAllocator {
  private readonly inHistory: ReadonlySet<string>;
  private readonly claimed = new Set<string>();

  constructor(history: History = []) {
    this.inHistory = historyIds.of(history);
  }

  private taken(id: string): boolean {
    return this.claimed.has(id) || this.inHistory.has(id);
  }

  /** The id to use for a call the model labelled `id` (possibly missing or already used). */
  claim(id: string | undefined | null): string {
    let out = id?.trim() ? id : undefined;
    if (out !== undefined && this.taken(out)) {
      const base = out;
      for (let n = 2; this.taken(out); n++) out = `${base}_${n}`;
    }
    if (out === undefined)
      do out = newToolCallId();
      while (this.taken(out));
    this.claimed.add(out);
    return out;
  }
}

function shortHash(s: string): string {
  return createHash("sha256").update(s).digest("hex").slice(0, 12);
}

/**
 * The id as a wire format accepts it. A session may switch provider, so ids minted by one can break the
 * other's rules: OpenAI caps ids at 40 characters, Anthropic allows only [A-Za-z0-9_-]. The mapping is
 * deterministic, so a call and its result always map to the same wire id.
 */
export function wireToolId(id: string, format: "openai" | "anthropic"): string {
  if (format === "openai") return id.length <= 40 ? id : `call_${shortHash(id)}`;
  if (/^[A-Za-z0-9_-]+$/.test(id)) return id;
  return `${id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40)}_${shortHash(id)}`;
}
