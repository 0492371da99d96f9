// A disk that fills while a checkpoint is recorded (a real one: the data directory on a small tmpfs,
// where the store's copy of a workspace file cannot fit): the turn goes on with one warning, the space
// the attempt took is given back, and the session stays loadable. Needs root (mount); skipped otherwise.
import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../../src/session/session.ts";
import { makeRig, type Rig } from "../agent/rig.ts";

let rig: Rig | undefined;
let mounted: string | undefined;
afterAll(async () => {
  if (mounted) spawnSync("umount", [mounted]);
  await rig?.close();
});

function tryMount(dir: string): string | undefined {
  if (process.platform !== "linux" || process.getuid?.() !== 0)
    return "needs root on Linux to mount a small tmpfs";
  mkdirSync(dir, { recursive: true });
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir]);
  return r.status === 0 ? undefined : `cannot mount a tmpfs here (${r.stderr.toString().trim()})`;
}

test("a disk that fills while recording: one warning, the turn goes on, the session loads", async () => {
  rig = await makeRig({
    files: { "big.bin": "x".repeat(3 * 1024 * 1024), "a.txt": "a\n" },
    script: [
      { tool_calls: [{ name: "bash", arguments: { command: "echo changed > a.txt" } }] },
      { text: "all done" },
    ],
  });
  const small = join(rig.root, "small-data");
  const why = tryMount(small);
  if (why) {
    console.warn(`skipping the disk-full test: ${why}`);
    return;
  }
  mounted = small;
  const r = await rig.run(["-p", "change a", "--approve", "all"], { I_DATA_DIR: small });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("all done");
  const warnings = r.stderr.split("\n").filter((l) => l.includes("checkpoint not recorded"));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/ENOSPC|no space/i);
  const [id] = readdirSync(small).filter((n) => n.startsWith("2"));
  const h = Session.open(small, id as string).history();
  expect(h.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["change a"]);
  expect(h.at(-1)?.content).toBe("all done");
  writeFileSync(join(small, "probe"), "the space the failed recording took was given back");
});
