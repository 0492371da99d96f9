// The guard as a person meets it in the console: under "allow all" a destructive command still asks,
// with its reason; n refuses it (the victim stays); a allows this exact command, remembered for the
// workspace, so the same command later runs without the question.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MockStep } from "../fixtures/mock-server/index.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";
import { liveConsole, PTY_TEST_MS, send } from "./console-pty.ts";

// Its own temp dir, so the victim beside the workspace (under /tmp) is outside the temp dir too. The
// sandbox is off: this is the guard's question; the sandbox has its own tests.
const tmp = tempDir("i-guard-tmp-");
afterAll(() => removeDir(tmp));
const live = liveConsole({ args: ["--approve", "all", "--sandbox", "off"], env: { TMPDIR: tmp } });
const asking = (s: string) => s.trimEnd().endsWith("allow? ›");
const bash = (command: string): MockStep => ({ tool_calls: [{ name: "bash", arguments: { command } }] });

test(
  "under allow all a destructive command asks with its reason; n keeps the victim; a remembers the exact command",
  async () => {
    const p = await live.start([
      bash("rm -rf ../victim/one"),
      { text: "refused, fine" },
      bash("rm -rf ../victim/two"),
      { text: "removed two" },
      bash("rm -rf ../victim/two"),
      { text: "again, no question" },
    ]);
    const root = join(live.rig?.workspace ?? "", "..");
    for (const d of ["one", "two"]) mkdirSync(join(root, "victim", d), { recursive: true });
    writeFileSync(join(root, "victim", "one", "a.txt"), "precious\n");
    await send(p, "clean one");
    let screen = await p.waitFor((s) => asking(s) && s.includes("│ rm -rf ../victim/one"));
    expect(screen).toContain("! destructive: rm deletes");
    expect(screen).toContain("outside the");
    expect(screen).toContain("always this exact command here");
    await p.type("n");
    await p.waitFor("why not?");
    await p.press("Enter");
    await p.waitFor("refused, fine");
    expect(readFileSync(join(root, "victim", "one", "a.txt"), "utf8")).toBe("precious\n");
    await send(p, "clean two");
    screen = await p.waitFor((s) => asking(s) && s.includes("│ rm -rf ../victim/two"));
    await p.type("a");
    await p.waitFor("in this workspace from now on");
    await p.waitFor("removed two");
    expect(existsSync(join(root, "victim", "two"))).toBe(false);
    mkdirSync(join(root, "victim", "two"));
    await send(p, "and again");
    screen = await p.waitFor("again, no question");
    expect(existsSync(join(root, "victim", "two"))).toBe(false);
    const stored = JSON.parse(readFileSync(join(live.rig?.configDir ?? "", "guard-allowed.json"), "utf8"));
    expect(Object.values(stored.workspaces)).toEqual([{ commands: ["rm -rf ../victim/two"] }]);
  },
  PTY_TEST_MS,
);
