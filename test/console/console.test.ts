// The interactive console driven through a pipe: logo, streamed text, tool calls, context use, /compact,
// /status, unknown commands, and a saved, resumable session on exit.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";
import { runCliAsync } from "../helpers/cli.ts";
import { misbehaving } from "../worker/helpers.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

test("a console session: first message, tool call, slash commands, exit", async () => {
  rig = await makeRig({
    script: [
      { text: "Looking.", tool_calls: [{ name: "read", arguments: { path: "notes.txt" } }] },
      { tool_calls: [{ name: "bash", arguments: { command: "wc -l notes.txt" } }] },
      { tool_calls: [{ name: "bash", arguments: { command: "head -c 3000 notes.txt" } }] },
      { text: "The notes say: buy milk." },
      { text: "## Goal\nRead the notes.\n## Progress\nRead notes.txt: buy milk." },
    ],
    files: { "notes.txt": "buy milk\n".repeat(400) },
  });
  const input = "/status\n/bogus\n/compact keep the shopping list\n/exit\n";
  const common = [...rig.flags, "--approve", "all"];
  const r = await runCliAsync(
    ["what do my notes say?", ...common],
    { ...rig.env, NO_COLOR: "1" },
    undefined,
    input,
  );
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const out = r.stdout;
  expect(out).toContain("i — a coding agent for the terminal");
  expect(out).toContain("new session");
  expect(out).toContain("⏺ read notes.txt");
  expect(out).toContain("The notes say: buy milk.");
  // without a live region, the status line follows each turn
  expect(out).toMatch(/mock-model · openai · ctx \d+(\.\d)?k?\/\d+k \d+% · ↑\S+ ↓\S+/);
  expect(out).toMatch(/session \S+ · 9 messages/);
  expect(out).toContain("unknown command /bogus");
  expect(out).toContain("⟳ compacting (manual)…");
  expect(out).toMatch(/⟳ compacted \d+ messages?: .* tokens \(model summary\)/);
  expect(out).toMatch(/saved · resume with: i -r \S+/);
  // the summary request carried the user's /compact instructions
  const summaryReq = JSON.stringify(rig.mock.requests[4]?.body);
  expect(summaryReq).toContain("keep the shopping list");
});

test("the console runs a steering replacement bound in bindings.json; one whose steer reply is malformed stops it at start", async () => {
  rig = await makeRig({ script: [{ text: "the replacement works" }] });
  const bindings = join(rig.configDir, "bindings.json");
  writeFileSync(bindings, JSON.stringify({ steering: misbehaving("steering", "ok") }));
  const args = ["hello", "--base-url", rig.mock.url, "-m", "mock-model", "--workspace", rig.workspace];
  const ok = await runCliAsync(args, { ...rig.env, NO_COLOR: "1" }, undefined, "/exit\n");
  expect(ok.code).toBe(0);
  expect(ok.stdout).toContain("the replacement works");
  writeFileSync(bindings, JSON.stringify({ steering: misbehaving("steering", "bad-steer") }));
  const r = await runCliAsync(args, { ...rig.env, NO_COLOR: "1" }, undefined, "/exit\n");
  expect(r.code).toBe(2);
  // The host checks every reply against the hook's schema once, with the one formatter: field and expectation.
  expect(r.stderr).toContain(
    'worker "steering" failed on event "steer": invalid reply: field messages: expected array',
  );
  expect(r.stdout).toContain("not sent, kept in the input history (↑ recalls it): hello");
  // stopped at the start, before any model request of its own
  expect(rig.mock.requests).toHaveLength(1);
});

test("a line typed while the turn streams is delivered at the end of the turn and answered", async () => {
  rig = await makeRig({
    script: [
      { text: "a slow first answer that takes a while to stream", chunk_delay_ms: 60 },
      { text: "answering your follow-up" },
    ],
  });
  const { spawn } = await import("node:child_process");
  const { MAIN } = await import("../helpers/cli.ts");
  const child = spawn(process.execPath, [MAIN, "start the slow one", ...rig.flags], {
    env: { ...process.env, ...rig.env, NO_COLOR: "1" },
    stdio: "pipe",
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c;
  });
  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(cond()).toBe(true);
  };
  // Without a terminal the reply is shown once its block is complete: wait for the request to stream.
  await until(() => rig?.mock.requests.length === 1);
  child.stdin.write("also check the docs\n");
  await until(() => out.includes("answering your follow-up"));
  child.stdin.end("/exit\n");
  const code = await new Promise<number>((r) => child.on("close", (c) => r(c ?? -1)));
  expect(code).toBe(0);
  expect(out).toContain("(queued for the model at the next safe point: also check the docs)");
  expect(out).toContain("delivered to the model: also check the docs");
  expect(rig.mock.requests).toHaveLength(2);
  const second = JSON.stringify(rig.mock.requests[1]?.body);
  expect(second).toContain("also check the docs");
  // the queue is cleaned up once the console is done with it
  const { readdirSync } = await import("node:fs");
  const { join } = await import("node:path");
  expect(readdirSync(join(rig.dataDir, "queues"))).toEqual([]);
});

test("piped stdin with --approve ask: the approval is refused at once with a line on stderr, no hang", async () => {
  rig = await makeRig({
    script: [
      { tool_calls: [{ name: "bash", arguments: { command: "touch ran" } }] },
      { text: "I could not run it." },
    ],
  });
  const started = Date.now();
  const r = await runCliAsync(["run ls", ...rig.flags], { ...rig.env, NO_COLOR: "1" }, undefined, "");
  expect(Date.now() - started).toBeLessThan(20_000);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe(
    "i: refused bash (touch ran): --approve ask needs a terminal to ask on; rerun with --approve all to allow it\n",
  );
  expect(r.stdout).toContain("I could not run it.");
  const { existsSync } = await import("node:fs");
  expect(existsSync(join(rig.workspace, "ran"))).toBe(false);
  expect(JSON.stringify(rig.mock.requests[1]?.body)).toContain("there is no terminal to ask on");
}, 60_000);

test("print mode is read-only by default: write is refused, said on stderr and told to the model", async () => {
  rig = await makeRig({
    script: [
      { tool_calls: [{ name: "write", arguments: { path: "x.txt", content: "x" } }] },
      { text: "done" },
    ],
  });
  const r = await rig.run(["-p", "write x"]);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    "i: refused write (create x.txt (1 line)): the session is read-only (--approve none)",
  );
  expect(JSON.stringify(rig.mock.requests[1]?.body)).toContain("read-only (--approve none)");
}, 60_000);
