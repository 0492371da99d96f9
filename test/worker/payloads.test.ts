// Per-hook payloads: a module that declares at hello that a history summary is enough gets
// `history_summary` instead of the history (budget, before_request), the data it returns gets the very same
// history back, and the hooks that must see the authoritative history cannot ask for less.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Manifest } from "../../src/contract/manifest.ts";
import { ESTIMATOR } from "../../src/lib/estimator.ts";
import { WorkerError, WorkerHost } from "../../src/worker/host.ts";
import { BUN, ECHO, manifestOf, TempDirs } from "./helpers.ts";

const temp = new TempDirs();
const hosts: WorkerHost[] = [];
const dir = temp.make();

function host(manifest: Manifest): WorkerHost {
  const h = new WorkerHost(manifest, { workspace: dir, configDir: dir });
  hosts.push(h);
  return h;
}

function recorded(file: string, event: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((r) => r.event === event)
    .map((r) => r.data);
}

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});
afterAll(() => temp.cleanup());

const history = [
  { role: "system", content: "be brief" },
  { role: "user", content: "abcdefgh" },
  {
    role: "assistant",
    content: "",
    tool_calls: [{ id: "c1", name: "bash", arguments: '{"command":"ls"}' }],
  },
  { role: "tool", tool_call_id: "c1", content: [{ type: "image", media_type: "image/png", data: "AAAA" }] },
  { role: "assistant", content: "done" },
];

describe("history summaries", () => {
  test("a module declaring a summary for before_request gets history_summary, and the reply gets the history back", async () => {
    const log = join(dir, "summary.log");
    const h = host(
      manifestOf(["cache"], dir, {
        cache: { exec: [BUN, ECHO, "--module", "cache", "--summary", "before_request", "--record", log] },
      }),
    );
    const out = await h.runHook("before_request", { provider: "openai", keep: 1, messages: history });
    expect(out.messages).toBe(history);
    expect(out).toEqual({ provider: "openai", keep: 1, trace: ["cache:before_request"], messages: history });
    const [sent] = recorded(log, "before_request");
    expect(sent?.messages).toBeUndefined();
    expect(sent?.history_summary).toEqual({
      count: 5,
      roles: ["system", "user", "assistant", "tool", "assistant"],
      // 4 per message, a quarter per character; tool calls 8 + name + arguments; the id of a tool result
      tokens: [4 + 2, 4 + 2, 4 + 8 + 1 + 4, 4 + 0.5, 4 + 1],
      images: [0, 0, 0, 1, 0],
      estimator: { ...ESTIMATOR },
      last: history[4],
    });
  });

  test("without the declaration the module gets the full history", async () => {
    const log = join(dir, "full.log");
    const h = host(
      manifestOf(["cache"], dir, { cache: { exec: [BUN, ECHO, "--module", "cache", "--record", log] } }),
    );
    await h.runHook("before_request", { provider: "openai", messages: history });
    const [sent] = recorded(log, "before_request");
    expect(sent?.messages).toEqual(history);
    expect(sent?.history_summary).toBeUndefined();
  });

  test("the built-in budget and cache modules declare summaries and answer from them", async () => {
    const h = host(manifestOf(["budget", "cache"], dir));
    const b = await h.runHook("budget", {
      model: { name: "m", context_window: 100_000 },
      policy: { trigger_ratio: 0.85, rearm_ratio: 0.7 },
      system: "be brief",
      tools: [],
      history,
      state: { armed: true },
    });
    expect(b.history).toBe(history);
    expect(b.history_summary).toBeUndefined();
    expect((b.budget as { estimates: { messages: number } }).estimates.messages).toBe(
      Math.ceil(6 + 17 + 4.5 + 5),
    );
    const r = await h.runHook("before_request", { provider: "anthropic", messages: history, hints: {} });
    expect(r.messages).toBe(history);
    expect(r.hints).toEqual({ cache_breakpoints: [0, 1, 3] });
  });

  test("compact_plan always receives the full history: asking for a summary fails the handshake", async () => {
    const h = host(
      manifestOf(["budget", "compact"], dir, {
        compact: { exec: [BUN, ECHO, "--module", "compact", "--summary", "compact_plan"] },
      }),
    );
    const err = await h.runHook("compact_plan", { history, cut: null }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerError);
    expect((err as WorkerError).message).toContain(
      'payloads asks for a history summary on "compact_plan", which always receives the full history',
    );
  });
});
