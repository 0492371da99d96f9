// The independent headless ACP client acpx (npm) driving `i acp` end to end: one prompt with a tool call,
// permissions auto-approved by acpx, the answer printed, the session saved as an ordinary one.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../agent/rig.ts";
import { MAIN, ROOT, savedSessionIds, startProgram } from "../helpers/cli.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("acpx drives i acp", () => {
  test("exec: a prompt with a write, approved by acpx, answered", async () => {
    rig = await makeRig({
      script: [
        { tool_calls: [{ name: "write", arguments: { path: "hello.txt", content: "from acpx\n" } }] },
        { text: "Wrote hello.txt." },
      ],
    });
    const home = join(rig.root, "home");
    mkdirSync(home);
    const flags = rig.flags.slice(0, rig.flags.indexOf("--workspace"));
    const agentCmd = [process.execPath, MAIN, "acp", ...flags].join(" ");
    const run = startProgram(
      join(ROOT, "node_modules/.bin/acpx"),
      [
        "--agent",
        agentCmd,
        "--cwd",
        rig.workspace,
        "--approve-all",
        "--format",
        "text",
        "exec",
        "write hello.txt",
      ],
      {
        env: { ...process.env, ...rig.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config") },
        cwd: rig.workspace,
      },
    );
    const r = await run.done;
    expect(r.stdout).toContain("Wrote hello.txt.");
    expect(r.code).toBe(0);
    expect(readFileSync(join(rig.workspace, "hello.txt"), "utf8")).toBe("from acpx\n");
    expect(savedSessionIds(rig.dataDir)).toHaveLength(1);
  }, 60_000);
});
