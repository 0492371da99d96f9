// The guard through the real CLI in print mode against the mock model: under --approve all a
// destructive command is refused with its reason sent to the model; --allow-destructive and the
// config's exact allow-list let it run.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig, type Rig } from "../../agent/rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function victimIn(root: string): string {
  mkdirSync(join(root, "tmp"), { recursive: true });
  const v = join(root, "victim");
  mkdirSync(join(v, "keep"), { recursive: true });
  writeFileSync(join(v, "keep", "a.txt"), "precious\n");
  return v;
}

/** The tool result the model got for the first call. */
function firstResult(r: Rig): string {
  const body = r.mock.requests[1]?.body as { messages?: { role: string; content: unknown }[] } | undefined;
  return JSON.stringify(body?.messages?.filter((m) => m.role === "tool").map((m) => m.content) ?? []);
}

describe("print mode", () => {
  test("rm -rf of a directory outside the workspace is refused under --approve all, with the reason", async () => {
    rig = await makeRig({
      script: [
        { tool_calls: [{ name: "bash", arguments: { command: "rm -rf ../victim" } }] },
        { text: "ok" },
      ],
    });
    const v = victimIn(rig.root);
    const r = await rig.run(["-p", "clean up", "--approve", "all", "--sandbox", "off"], {
      TMPDIR: join(rig.root, "tmp"),
    });
    expect(r.code).toBe(0);
    expect(existsSync(join(v, "keep", "a.txt"))).toBe(true);
    expect(firstResult(rig)).toContain("refused by the guard");
    expect(firstResult(rig)).toContain("outside the workspace");
    expect(r.stderr).toContain("the guard refused a command");
  }, 30_000);

  test("--allow-destructive lets it run", async () => {
    rig = await makeRig({
      script: [
        { tool_calls: [{ name: "bash", arguments: { command: "rm -rf ../victim" } }] },
        { text: "ok" },
      ],
    });
    const v = victimIn(rig.root);
    const r = await rig.run(
      ["-p", "clean up", "--approve", "all", "--allow-destructive", "--sandbox", "off"],
      { TMPDIR: join(rig.root, "tmp") },
    );
    expect(r.code).toBe(0);
    expect(existsSync(v)).toBe(false);
  }, 30_000);

  test("an exact command in guard.allow_commands runs; another is still refused", async () => {
    rig = await makeRig({
      script: [
        { tool_calls: [{ name: "bash", arguments: { command: "rm -rf ../victim/keep" } }] },
        { tool_calls: [{ name: "bash", arguments: { command: "rm -rf ../victim" } }] },
        { text: "ok" },
      ],
      config: { guard: { allow_commands: ["rm -rf ../victim/keep"] } },
    });
    const v = victimIn(rig.root);
    writeFileSync(join(v, "other.txt"), "x");
    const r = await rig.run(["-p", "clean up", "--approve", "all", "--sandbox", "off"], {
      TMPDIR: join(rig.root, "tmp"),
    });
    expect(r.code).toBe(0);
    expect(existsSync(join(v, "keep"))).toBe(false);
    expect(existsSync(join(v, "other.txt"))).toBe(true);
  }, 30_000);
});
