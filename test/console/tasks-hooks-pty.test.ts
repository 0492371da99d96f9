// Sub-agents and hooks in the console, as a person sees them: the real CLI in tmux against the mock model.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig } from "../agent/rig.ts";
import type { RecordedRequest } from "../fixtures/mock-server/script.ts";
import { flat } from "../helpers/pty.ts";
import { liveConsole, PTY_TEST_MS } from "./console-pty.ts";

const live = liveConsole();

const body = (req: RecordedRequest) => JSON.stringify(req.body);

const SIZE = { cols: 100, rows: 30 };

test(
  "a running task shows one nested line: agent, description, its current tool, elapsed; then its end",
  async () => {
    const { pty } = await live.open(
      (req) => {
        const b = body(req);
        if (b.includes("Your role: the")) {
          if (b.includes("slept-well")) return { text: "child finished" };
          return { tool_calls: [{ name: "bash", arguments: { command: "sleep 4; echo slept-well" } }] };
        }
        if (b.includes("child finished")) return { text: "all delegated work is done" };
        return {
          tool_calls: [
            { name: "task", arguments: { description: "wait a bit", prompt: "sleep", agent: "general" } },
          ],
        };
      },
      { args: ["--approve", "all"], ...SIZE },
    );
    await pty.type("delegate it");
    await pty.press("Enter");
    const running = await pty.waitFor(/↳ general · wait a bit · bash \d+\.\ds/, { history: false });
    expect(running).toContain("task");
    const done = flat(await pty.waitFor("all delegated work is done"));
    expect(done).toMatch(/✓ task general · wait a bit · \d+\.\ds/);
    expect(flat(await pty.screen({ history: false }))).not.toContain("↳ general");
    await pty.type("/agents");
    await pty.press("Enter");
    const agents = flat(await pty.waitFor("read-only agent"));
    expect(agents).toContain("explore — a fast read-only agent");
    expect(agents).toContain("tools: read, grep, find");
  },
  PTY_TEST_MS,
);

test(
  "a call blocked by a hook: one line naming the hook and its reason",
  async () => {
    const hooks = {
      PreToolUse: [
        { matcher: "bash", hooks: [{ type: "command", command: "echo 'no rm -rf, ever' >&2; exit 2" }] },
      ],
    };
    const { pty } = await live.open(
      [{ tool_calls: [{ name: "bash", arguments: { command: "rm -rf build" } }] }, { text: "understood" }],
      { configFiles: { "hooks.json": JSON.stringify({ hooks }) }, args: ["--approve", "all"], ...SIZE },
    );
    await pty.type("clean");
    await pty.press("Enter");
    const screen = flat(await pty.waitFor("understood"));
    expect(screen).toContain(
      "⊘ hook PreToolUse [bash] echo 'no rm -rf, ever' >&2; exit 2 blocked: no rm -rf, ever",
    );
  },
  PTY_TEST_MS,
);

test(
  "a project's hooks are asked about at start; after n, /trust shows and accepts them, and they apply at once",
  async () => {
    const { pty } = await live.open(
      [{ tool_calls: [{ name: "bash", arguments: { command: "echo hi" } }] }, { text: "after the hook" }],
      {
        // Asked at start; n goes on without them (one line), and /trust accepts them later.
        ready: "trust them for this workspace?",
        args: ["--approve", "all"],
        ...SIZE,
        files: {
          ".i/hooks.json": JSON.stringify({
            hooks: {
              PreToolUse: [
                {
                  matcher: "bash",
                  hooks: [{ type: "command", command: "echo 'project says no' >&2; exit 2" }],
                },
              ],
            },
          }),
        },
      },
    );
    await pty.type("n");
    await pty.waitFor("not trusted: this session goes on without them");
    await pty.waitFor("Ctrl-C cancels");
    await pty.type("/trust");
    await pty.press("Enter");
    const shown = flat(await pty.waitFor("they apply from now on"));
    expect(shown).toContain("hook PreToolUse [bash]: echo 'project says no' >&2; exit 2");
    await pty.type("run it");
    await pty.press("Enter");
    const after = flat(await pty.waitFor("after the hook"));
    expect(after).toContain("blocked: project says no");
  },
  PTY_TEST_MS,
);

test(
  "a prompt idle after a reply tells the Notification hooks once, with Claude Code's message; a sent message starts the wait afresh",
  async () => {
    live.rig = await makeRig({ files: {}, script: [{ text: "first answer" }, { text: "second answer" }] });
    const heard = join(live.rig.root, "heard.jsonl");
    writeFileSync(
      join(live.rig.configDir, "hooks.json"),
      JSON.stringify({
        hooks: {
          Notification: [{ hooks: [{ type: "command", command: `cat >> '${heard}'; echo >> '${heard}'` }] }],
        },
      }),
    );
    const cfgFile = join(live.rig.configDir, "config.json");
    const cfg = JSON.parse(readFileSync(cfgFile, "utf8"));
    writeFileSync(cfgFile, JSON.stringify({ ...cfg, notifications: { idle_seconds: 1 } }));
    const told = () =>
      existsSync(heard)
        ? readFileSync(heard, "utf8")
            .split("\n")
            .filter((l) => l.trim() !== "")
            .map((l) => JSON.parse(l) as Record<string, unknown>)
        : [];
    live.pty = await live.reopen([], SIZE);
    await live.pty.waitFor("Ctrl-C cancels");
    // Before any reply the console is not "waiting after a reply": nothing is said.
    await Bun.sleep(1500);
    expect(told()).toEqual([]);
    await live.pty.type("hello");
    await live.pty.press("Enter");
    await live.pty.waitFor("first answer");
    const deadline = Date.now() + 10_000;
    while (told().length === 0 && Date.now() < deadline) await Bun.sleep(100);
    const [first] = told();
    expect(first).toMatchObject({ hook_event_name: "Notification", message: "i is waiting for your input" });
    expect(typeof first?.session_id).toBe("string");
    // Once per wait, however long it lasts.
    await Bun.sleep(2000);
    expect(told()).toHaveLength(1);
    await live.pty.type("again");
    await live.pty.press("Enter");
    await live.pty.waitFor("second answer");
    while (told().length < 2 && Date.now() < deadline + 10_000) await Bun.sleep(100);
    expect(told()).toHaveLength(2);
  },
  PTY_TEST_MS,
);
