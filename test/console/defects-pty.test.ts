// Defects a first real session found, each driven as a person meets it: the real CLI in tmux against the
// mock model (and, for a start error, the CLI with its output captured).
import { expect, test } from "bun:test";
import { makeRig, type Rig } from "../agent/rig.ts";
import { liveConsole, PTY_TEST_MS, send } from "./console-pty.ts";
import { TWO_MODELS } from "./two-models.ts";

const live = liveConsole();

test("a console that cannot start prints one line on stderr and no logo on stdout", async () => {
  live.rig = await makeRig({ script: [] });
  const r = await live.rig.run(["-r", "nope"], { NO_COLOR: "1" });
  expect(r.code).not.toBe(0);
  expect(r.stdout).not.toContain("coding agent");
  expect(r.stdout.trim()).toBe("");
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain("nope");
}, 60_000);

test(
  "a 40-line paste reads [pasted 40 lines]; the exit hint goes when its window closes",
  async () => {
    const p = await live.start([]);
    const forty = `${Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
    await p.paste(forty);
    await p.waitFor("[pasted 40 lines]");
    await p.press("C-c");
    await p.waitFor((s) => !s.includes("[pasted"));
    await p.press("C-c");
    await p.waitFor("press Ctrl-C again to exit");
    // The window is 3 s: after it, the hint is gone (and a press would only arm it again).
    await p.waitFor((s) => !s.includes("press Ctrl-C again to exit"), { timeoutMs: 10_000 });
    expect(await p.exited()).toBe(false);
  },
  PTY_TEST_MS,
);

test(
  "/model shows the new model on the status line at once; a retry reads as one sentence",
  async () => {
    const p = await live.start([{ error: "server" }, { text: "answered after a retry" }], {
      config: TWO_MODELS,
    });
    await send(p, "hello");
    await p.waitFor("answered after a retry");
    const screen = (await p.screen()).replace(/\n/g, " ");
    const retry = /↻[^↻]*?retry 1 (now|in [\d.]+ m?s)/.exec(screen)?.[0] ?? "";
    expect(retry).toMatch(/retry 1 (now|in \d)/);
    expect(retry).not.toMatch(/[.!];/);
    expect(retry).not.toContain("in 0 ms");
    await send(p, "/model other-model");
    await p.waitFor("model switched to other-model");
    // The status line (above the prompt) names the new model and its window before any reply.
    await p.waitFor((s) =>
      /other-model · openai · ctx [\d.]+k\/4\dk/.test(s.trimEnd().split("\n").at(-2) ?? ""),
    );
  },
  PTY_TEST_MS,
);

test(
  "cancelling /compact says it was cancelled, never that it failed",
  async () => {
    const p = await live.start(
      [{ text: "one" }, { text: "two" }, { text: "three" }, { text: "the summary", delay_ms: 60_000 }],
      { configFiles: { "compact.json": JSON.stringify({ keep_recent: 1 }) } },
    );
    for (const [i, w] of ["one", "two", "three"].entries()) {
      await send(p, `message ${i}`);
      await p.waitFor(w);
    }
    await send(p, "/compact");
    await p.waitFor("compacting");
    await p.press("Escape");
    const screen = await p.waitFor("compaction cancelled");
    expect(screen).not.toContain("failed");
  },
  PTY_TEST_MS,
);

test(
  "!command shows a live activity and output tail while it runs, then its exit and time",
  async () => {
    const p = await live.start([]);
    await send(p, "!for i in 1 2 3 4; do echo tick $i; sleep 0.7; done");
    // While it runs: the activity line names the command, and the output so far is shown.
    const running = await p.waitFor((s) => s.includes("tick 1") && !s.includes("⎿"));
    expect(running).toContain("! for i in 1 2 3 4");
    const done = await p.waitFor("⎿ exit 0");
    expect(done).toContain("the output is in the context for the next message");
  },
  PTY_TEST_MS,
);

test(
  "a killed command shows its last lines; a line typed while a tool runs is queued after its result",
  async () => {
    const p = await live.start(
      [
        { tool_calls: [{ name: "bash", arguments: { command: "seq 1 50; sleep 30", timeout: 2 } }] },
        { text: "saw it" },
      ],
      { args: ["--approve", "all"] },
    );
    await send(p, "run it");
    await p.waitFor("⏺ bash seq 1 50");
    await send(p, "and then summarise");
    const screen = await p.waitFor("saw it");
    const result = screen.slice(screen.indexOf("⏺ bash seq 1 50"));
    // The end of the output (where a failure says why), not its beginning.
    expect(result).toMatch(/earlier lines/);
    expect(result).toContain("    50");
    expect(result).not.toMatch(/\n {4}1\n/);
    // The queued note comes after the result, never between the call and its result.
    const call = result.indexOf("⏺ bash");
    const res = result.indexOf("⎿");
    const queued = result.indexOf("(queued for the model");
    expect(queued).toBeGreaterThan(res);
    expect(res).toBeGreaterThan(call);
  },
  PTY_TEST_MS,
);

test(
  "cost: /model never re-prices earlier requests; tokens and cost survive a compaction and a resume",
  async () => {
    const priced = {
      models: {
        "mock-model": { context_window: 100_000, max_output_tokens: 4096, price: { input: 10, output: 10 } },
        "other-model": {
          context_window: 50_000,
          max_output_tokens: 2048,
          price: { input: 1000, output: 1000 },
        },
      },
    };
    const p = await live.start(
      [
        { text: `one ${"long words ".repeat(600)}`, usage: { input_tokens: 1000, output_tokens: 0 } },
        { text: `two ${"long words ".repeat(600)}`, usage: { input_tokens: 1000, output_tokens: 0 } },
        { text: "a summary of it all", usage: { input_tokens: 10, output_tokens: 0 } },
      ],
      { config: priced, cols: 120, configFiles: { "compact.json": JSON.stringify({ keep_recent: 1 }) } },
    );
    const status = (s: string) => s.split("\n").findLast((l) => l.includes("· openai ·")) ?? "";
    await send(p, "first");
    await p.waitFor("one");
    await send(p, "second");
    await p.waitFor((s) => status(s).includes("↑2.0k ↓0 $0.020"));
    await send(p, "/model other-model");
    // The switch shows the new model at once, and the cost of what mock-model served stays as it was.
    await p.waitFor((s) => status(s).startsWith("other-model") && status(s).includes("↑2.0k ↓0 $0.020"));
    await send(p, "/model mock-model");
    await send(p, "/compact");
    await p.waitFor("⟳ compacted");
    const before = status(await p.waitFor((s) => status(s).startsWith("mock-model")));
    const tokens = /↑\S+ ↓\S+ \$\S+/.exec(before)?.[0] ?? "";
    expect(tokens).toMatch(/^↑2\.0k ↓0 \$0\.020$/);
    await send(p, "/exit");
    await p.waitExit();
    await p.close();
    live.pty = await (await import("../helpers/pty.ts")).Pty.start(
      (await import("../helpers/pty.ts")).consoleIn(live.rig as Rig, ["-c"], { cols: 120, rows: 24 }),
    );
    const resumed = await live.pty.waitFor((s) => status(s).includes("↑"));
    expect(status(resumed)).toContain(tokens);
  },
  PTY_TEST_MS,
);
