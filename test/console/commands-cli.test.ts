// The console's commands and input features through the real CLI (input piped): /help, /model, @file,
// !command, templates, /compact with nothing to compact, a resumed session's replay, a stalled stream.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";
import { runCliAsync } from "../helpers/cli.ts";
import { TWO_MODELS } from "./two-models.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const console = (r: Rig, input: string, args: string[] = []) =>
  runCliAsync([...args, ...r.flags], { ...r.env, NO_COLOR: "1" }, undefined, input);

const bodyOf = (r: Rig, i: number) => JSON.stringify(r.mock.requests[i]?.body);

test("/help lists every command with one line each", async () => {
  rig = await makeRig({ script: [] });
  const r = await console(rig, "/help\n/exit\n");
  expect(r.code).toBe(0);
  for (const c of [
    "/help",
    "/model [NAME]",
    "/new",
    "/clear",
    "/resume",
    "/sessions",
    "/compact",
    "/status",
    "/cost",
    "/exit",
  ])
    expect(r.stdout).toContain(c);
  expect(r.stdout).toContain("(or /usage)");
  expect(r.stdout).toContain("keys: Enter sends");
}, 60_000);

test("/model shows the model and switches it: the next request uses the new one", async () => {
  rig = await makeRig({
    script: [{ text: "first" }, { text: "second" }],
    config: TWO_MODELS,
  });
  const r = await console(rig, "hello\n/model\n/model other-model\n/model no-such-model\nagain\n/exit\n");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("model mock-model · provider openai · context window 100000 tokens");
  expect(r.stdout).toContain("model switched to other-model for the next request (context window 50000)");
  expect(r.stdout).toContain('✗ /model: unknown model "no-such-model"');
  expect(bodyOf(rig, 0)).toContain(`"model":"mock-model"`);
  expect(bodyOf(rig, 1)).toContain(`"model":"other-model"`);
}, 60_000);

test("@file puts the file's text in the request; a missing one is said and sent as text", async () => {
  rig = await makeRig({
    script: [{ text: "seen" }],
    files: { "src/notes.md": "the secret word is pineapple\n" },
  });
  const r = await console(rig, "summarise @src/notes.md and @ghost.txt\n/exit\n");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("attached @src/notes.md (29 B)");
  expect(r.stdout).toContain("@ghost.txt: no such file in the workspace; sent as plain text");
  const body = bodyOf(rig, 0);
  expect(body).toContain("summarise @src/notes.md and @ghost.txt");
  expect(body).toContain('<file path=\\"src/notes.md\\">\\nthe secret word is pineapple\\n</file>');
}, 60_000);

test("!echo hi shows the output and puts it in the context of the next request", async () => {
  rig = await makeRig({ script: [{ text: "ok" }] });
  const r = await console(rig, "!echo hi\nwhat did I run?\n/exit\n");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("│ hi");
  expect(rig.mock.requests).toHaveLength(1);
  const body = bodyOf(rig, 0);
  expect(body).toContain("$ echo hi\\nhi\\n[exit code 0]");
  expect(body.indexOf("echo hi")).toBeLessThan(body.indexOf("what did I run?"));
}, 60_000);

test("a prompt template is a command: /review ARGS sends the expanded template", async () => {
  rig = await makeRig({ script: [{ text: "reviewed" }] });
  mkdirSync(join(rig.workspace, ".i", "prompts"), { recursive: true });
  writeFileSync(join(rig.workspace, ".i", "prompts", "review.md"), "Review $1 for bugs, briefly.\n");
  const r = await console(rig, "/help\n/review src/a.ts\n/exit\n");
  expect(r.stdout).toContain("/review [args]");
  expect(bodyOf(rig, 0)).toContain("Review src/a.ts for bugs, briefly.");
}, 60_000);

test("/compact with nothing worth compacting refuses in one line and spends no request", async () => {
  rig = await makeRig({ script: [{ text: "hi" }] });
  const r = await console(rig, "hello\n/compact\n/exit\n");
  expect(r.stdout).toMatch(/⟳ nothing compacted: [^\n]+\n/);
  expect(r.stdout).not.toContain("✗");
  expect(rig.mock.requests).toHaveLength(1);
}, 60_000);

test("/compact right after a compaction: only the summary would be cut, so nothing is sent", async () => {
  rig = await makeRig({
    script: [
      { text: "one ".repeat(800) },
      { text: "two ".repeat(800) },
      { text: "three ".repeat(800) },
      { text: "## Goal\nsay numbers" },
    ],
  });
  writeFileSync(join(rig.configDir, "compact.json"), JSON.stringify({ keep_recent: 1 }));
  const r = await console(rig, "a\nb\nc\n/compact\n/compact\n/exit\n");
  expect(r.stdout).toMatch(/⟳ compacted \d+ messages?: .*\/compactions/);
  expect(r.stdout).toContain(
    "⟳ nothing compacted: only the previous compaction's summary lies before the cut",
  );
  expect(rig.mock.requests).toHaveLength(4);
}, 60_000);

test("a resumed session shows its earlier exchange and says how many earlier messages exist", async () => {
  const turns = Array.from({ length: 14 }, (_, i) => ({ text: `answer number ${i}` }));
  rig = await makeRig({ script: [...turns, { text: "welcome back" }] });
  const first = turns.map((_, i) => `question number ${i}`).join("\n");
  expect((await console(rig, `${first}\n/exit\n`)).code).toBe(0);
  const r = await console(rig, "/exit\n", ["-c"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("resumed session");
  expect(r.stdout).toMatch(/… \d+ earlier messages not shown/);
  expect(r.stdout).toContain("› question number 13");
  expect(r.stdout).toContain("answer number 13");
  expect(r.stdout).not.toContain("question number 0\n");
  expect(r.stdout).toContain("── resumed: the conversation continues here ──");
}, 60_000);

test("a stalled stream ends with one clear line within the configured idle timeout, partial text kept", async () => {
  const stalled = { text: "partial words", stall_ms: 20_000 };
  rig = await makeRig({ script: [stalled, stalled], config: { stream_idle_timeout_ms: 1000 } });
  const started = Date.now();
  const r = await console(rig, "go\n/exit\n");
  expect(Date.now() - started).toBeLessThan(15_000);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(
    '✗ openai model "mock-model": no data from the server for 1 s (stream_idle_timeout_ms in config.json); gave up after one retry',
  );
  expect(r.stdout).toContain("the partial reply above is discarded");
}, 60_000);

test("--help states the approval defaults: console ask, print mode read-only", async () => {
  const { runCli } = await import("../helpers/cli.ts");
  const r = runCli(["--help"]);
  expect(r.code).toBe(0);
  const text = r.stdout.replace(/\s+/g, " ");
  expect(text).toContain("ask asks each time (console default");
  expect(text).toContain("none is read-only (print mode default)");
}, 60_000);

test("print mode with --approve ask: refused at once with a line on stderr, never a hang", async () => {
  rig = await makeRig({
    script: [{ tool_calls: [{ name: "bash", arguments: { command: "touch ran" } }] }, { text: "gave up" }],
  });
  const r = await rig.run(["-p", "run it", "--approve", "ask"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("gave up\n");
  expect(r.stderr).toContain("i: refused bash (touch ran): --approve ask needs a terminal to ask on");
}, 60_000);
