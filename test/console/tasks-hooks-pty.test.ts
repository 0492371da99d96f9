// Sub-agents and hooks in the console, as a person sees them: the real CLI in tmux against the mock model.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";
import type { RecordedRequest } from "../fixtures/mock-server/script.ts";
import { consoleIn, flat, Pty } from "../helpers/pty.ts";

let rig: Rig | undefined;
let pty: Pty | undefined;
afterEach(async () => {
  await pty?.close();
  await rig?.close();
  pty = undefined;
  rig = undefined;
});

const PTY_TEST_MS = 120_000;
const body = (req: RecordedRequest) => JSON.stringify(req.body);

async function open(r: Rig, args: string[]): Promise<Pty> {
  const p = await Pty.start(consoleIn(r, args, { cols: 100, rows: 30 }));
  await p.waitFor("Ctrl-C cancels");
  return p;
}

test(
  "a running task shows one nested line: agent, description, its current tool, elapsed; then its end",
  async () => {
    rig = await makeRig({
      files: {},
      script: (req) => {
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
    });
    pty = await open(rig, ["--approve", "all"]);
    await pty.type("delegate it");
    await pty.press("Enter");
    const live = await pty.waitFor(/↳ general · wait a bit · bash \d+\.\ds/, { history: false });
    expect(live).toContain("task");
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
    rig = await makeRig({
      files: {},
      script: [
        { tool_calls: [{ name: "bash", arguments: { command: "rm -rf build" } }] },
        { text: "understood" },
      ],
    });
    writeFileSync(
      join(rig.configDir, "hooks.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: "bash", hooks: [{ type: "command", command: "echo 'no rm -rf, ever' >&2; exit 2" }] },
          ],
        },
      }),
    );
    pty = await open(rig, ["--approve", "all"]);
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
    rig = await makeRig({
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
      script: [
        { tool_calls: [{ name: "bash", arguments: { command: "echo hi" } }] },
        { text: "after the hook" },
      ],
    });
    pty = await Pty.start(consoleIn(rig, ["--approve", "all"], { cols: 100, rows: 30 }));
    // Asked at start; n goes on without them (one line), and /trust accepts them later.
    await pty.waitFor("trust them for this workspace?");
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
