// `i -p --json`'s last event carries the run's totals: session, stop reason, requests, tokens (cached
// included), cost priced per request, wall time; an error exit carries them on its `error` event.
import { afterEach, describe, expect, test } from "bun:test";
import { AgentEvent } from "../../src/contract/events.ts";
import type { RecordedRequest } from "../fixtures/mock-server/script.ts";
import { events, makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

// $2 / $10 per million tokens: a request of 1000 in and 100 out costs 0.002 + 0.001.
const PRICED = {
  models: {
    "mock-model": { context_window: 100_000, max_output_tokens: 4096, price: { input: 2, output: 10 } },
  },
};

describe("--json totals", () => {
  test("done carries session, stop reason, turns, tokens in/out/cached, cost and duration", async () => {
    rig = await makeRig({
      config: PRICED,
      files: { "a.txt": "alpha\n" },
      script: [
        {
          tool_calls: [{ name: "read", arguments: { path: "a.txt" } }],
          usage: { input_tokens: 1000, output_tokens: 100, cached_tokens: 400 },
        },
        { text: "read it", usage: { input_tokens: 1200, output_tokens: 50, cached_tokens: 1000 } },
      ],
    });
    const r = await rig.run(["-p", "read a.txt", "--json"]);
    expect(r.code).toBe(0);
    const evs = events(r.stdout);
    const done = evs.at(-1) as Record<string, unknown>;
    expect(AgentEvent.safeParse(done).success).toBe(true);
    expect(done).toMatchObject({
      type: "done",
      text: "read it",
      session_id: evs[0]?.id,
      stop_reason: "end",
      turns: 2,
      usage: { input_tokens: 2200, output_tokens: 150, cache_read_tokens: 1400 },
    });
    expect(done.cost_usd).toBeCloseTo((2200 * 2 + 150 * 10) / 1e6, 10);
    expect(typeof done.duration_ms).toBe("number");
  }, 60_000);

  test("cached input is priced at the model's cache_read price", async () => {
    const price = { input: 2, output: 10, cache_read: 0.5 };
    rig = await makeRig({
      config: { models: { "mock-model": { context_window: 100_000, max_output_tokens: 4096, price } } },
      script: [{ text: "ok", usage: { input_tokens: 1000, output_tokens: 100, cached_tokens: 800 } }],
    });
    const r = await rig.run(["-p", "hi", "--json"]);
    expect(r.code).toBe(0);
    const done = events(r.stdout).at(-1) as Record<string, unknown>;
    expect(done.cost_usd).toBeCloseTo((200 * 2 + 800 * 0.5 + 100 * 10) / 1e6, 10);
  }, 60_000);

  test("a model with no known price: cost_usd is left out, not given as 0", async () => {
    rig = await makeRig({ script: [{ text: "ok", usage: { input_tokens: 10, output_tokens: 1 } }] });
    const r = await rig.run(["-p", "hi", "--json"]);
    const done = events(r.stdout).at(-1) as Record<string, unknown>;
    expect(done).toMatchObject({ type: "done", stop_reason: "end", turns: 1 });
    expect("cost_usd" in done).toBe(false);
  }, 60_000);

  test("--max-turns: stop_reason max_turns", async () => {
    rig = await makeRig({
      config: PRICED,
      files: { "a.txt": "x" },
      script: [
        {
          tool_calls: [{ name: "read", arguments: { path: "a.txt" } }],
          usage: { input_tokens: 100, output_tokens: 10 },
        },
      ],
    });
    const r = await rig.run(["-p", "go", "--json", "--max-turns", "1"]);
    expect(r.code).toBe(1);
    expect(events(r.stdout).at(-1)).toMatchObject({ type: "done", stop_reason: "max_turns", turns: 1 });
  }, 60_000);

  test("an error exit: the error event carries the totals of what ran", async () => {
    rig = await makeRig({
      config: PRICED,
      files: { "a.txt": "x" },
      script: [
        {
          tool_calls: [{ name: "read", arguments: { path: "a.txt" } }],
          usage: { input_tokens: 1000, output_tokens: 100 },
        },
        { error: "auth" },
      ],
    });
    const r = await rig.run(["-p", "go", "--json"]);
    expect(r.code).toBe(1);
    const evs = events(r.stdout);
    const err = evs.at(-1) as Record<string, unknown>;
    expect(AgentEvent.safeParse(err).success).toBe(true);
    expect(err).toMatchObject({
      type: "error",
      session_id: evs[0]?.id,
      stop_reason: "error",
      turns: 1,
      usage: { input_tokens: 1000, output_tokens: 100 },
    });
    expect(err.cost_usd).toBeCloseTo(0.003, 10);
  }, 60_000);

  test("a sub-agent task's tokens and cost count in the parent's totals", async () => {
    const isChild = (req: RecordedRequest) => JSON.stringify(req.body).includes("Your role: the");
    rig = await makeRig({
      config: PRICED,
      script: (req) =>
        isChild(req)
          ? { text: "child answer", usage: { input_tokens: 1000, output_tokens: 100 } }
          : JSON.stringify(req.body).includes("child answer")
            ? { text: "parent done", usage: { input_tokens: 10, output_tokens: 1 } }
            : {
                tool_calls: [
                  { name: "task", arguments: { description: "d", prompt: "p", agent: "explore" } },
                ],
                usage: { input_tokens: 10, output_tokens: 1 },
              },
    });
    const r = await rig.run(["-p", "delegate", "--json"]);
    expect(r.code).toBe(0);
    const done = events(r.stdout).at(-1) as Record<string, unknown>;
    expect(done).toMatchObject({ type: "done", usage: { input_tokens: 1020, output_tokens: 102 } });
    expect(done.cost_usd).toBeCloseTo((1020 * 2 + 102 * 10) / 1e6, 10);
  }, 60_000);
});
