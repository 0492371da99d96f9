// The disk fills up during a turn (the model's own command fills it): the checkpoint that hits ENOSPC
// fails the turn with one line, the session on disk opens with every message up to the last checkpoint
// that succeeded (no torn line in its log), and once space is back the next turn of the same console
// succeeds and saves everything. On a small tmpfs of its own (root only: skipped elsewhere, with why).
import { afterAll, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { validateHistory } from "../../src/lib/validate-history.ts";
import { Session } from "../../src/session/session.ts";
import { makeRig } from "../agent/rig.ts";
import { MAIN, removeDir, tempDir } from "../helpers/cli.ts";

const root = tempDir("i-disk-full-");
const mnt = join(root, "small");
mkdirSync(mnt);
const mounted =
  process.platform === "linux" &&
  spawnSync("mount", ["-t", "tmpfs", "-o", "size=4m,mode=0700", "none", mnt], { stdio: "ignore" }).status ===
    0;
if (!mounted) console.log("disk-full test skipped: cannot mount a small tmpfs here (needs root on Linux)");
afterAll(() => {
  if (mounted) spawnSync("umount", [mnt]);
  removeDir(root);
});

test.skipIf(!mounted)(
  "ENOSPC at a checkpoint: one line, the session loadable up to its last checkpoint, the next turn saves",
  async () => {
    const filler = join(mnt, "filler");
    const rig = await makeRig({
      script: [
        {
          tool_calls: [
            {
              name: "bash",
              arguments: { command: `head -c 64M /dev/zero > ${filler}; echo filled; seq 100000 120000` },
            },
          ],
        },
        { text: "answer after space is back" },
      ],
    });
    const dataDir = join(mnt, "data");
    try {
      // --sandbox off: the filler must reach the small filesystem outside the workspace, which the
      // default sandbox keeps read-only (and hides under its private /tmp).
      const child = spawn(process.execPath, [MAIN, "--approve", "all", "--sandbox", "off", ...rig.flags], {
        env: { ...process.env, ...rig.env, I_DATA_DIR: dataDir, NO_COLOR: "1" },
        stdio: "pipe",
      });
      let out = "";
      child.stdout.on("data", (c: Buffer) => {
        out += c;
      });
      const exited = new Promise<number>((r) => child.on("close", (code) => r(code ?? -1)));
      const until = async (text: string) => {
        for (let i = 0; i < 600 && !out.includes(text); i++) await new Promise((r) => setTimeout(r, 50));
        expect(out).toContain(text);
      };
      await until("Ctrl-C cancels");
      child.stdin.write("fill the disk\n");
      await until("✗");
      const failures = out.split("\n").filter((l) => l.includes("✗"));
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatch(
        /✗ session \S+ could not be saved in \S+: the disk is full \(ENOSPC\); the session keeps every message up to its last saved step/,
      );

      // Still full: what is on disk opens, valid, and is the conversation up to its last checkpoint.
      const [id] = readdirSync(dataDir).filter((d) => !["queues", "input-history", "memory"].includes(d));
      const saved = Session.open(dataDir, id as string).history();
      expect(validateHistory(saved)).toBeUndefined();
      // The turn's first checkpoint (its user message) succeeded; the tool batch's is the one that failed.
      expect(saved.map((m) => m.role)).toEqual(["system", "user"]);
      expect(saved[1]?.content).toBe("fill the disk");
      const log = readFileSync(join(dataDir, id as string, "events.jsonl"), "utf8");
      expect(log.endsWith("\n")).toBe(true);
      for (const line of log.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();

      // Space is back: the next turn of the same console succeeds and saves all of it.
      rmSync(filler);
      child.stdin.write("again\n");
      await until("answer after space is back");
      child.stdin.write("/exit\n");
      expect(await exited).toBe(0);
      const after = Session.open(dataDir, id as string).history();
      expect(after.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "user", "assistant"]);
      expect(JSON.stringify(after[3]?.content)).toContain("filled");
    } finally {
      await rig.close();
    }
  },
  60_000,
);
