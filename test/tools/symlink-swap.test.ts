// A concurrent process swaps a workspace subdirectory with a symlink to a directory outside, as fast as
// it can (renameat2 RENAME_EXCHANGE in a loop). 300 writes, 300 reads and 300 edits through that
// subdirectory: none may touch the outside directory, and no temp file may be left anywhere.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Approvals } from "../../src/tools/approvals.ts";
import { editTool } from "../../src/tools/edit.ts";
import { readTool } from "../../src/tools/read.ts";
import type { ToolContext } from "../../src/tools/types.ts";
import { writeTool } from "../../src/tools/write.ts";
import { find } from "../../workers/search/find.ts";
import { grep } from "../../workers/search/grep.ts";

const ITERATIONS = 300;
const SWAPPER = join(import.meta.dirname, "fixtures", "swap-loop.py");
const hasPython = spawnSync("python3", ["-c", "import ctypes; ctypes.CDLL(None).renameat2"]).status === 0;

let root: string;
let ws: string;
let outside: string;
let swapper: ChildProcess | undefined;

function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...allFiles(p));
    else out.push(p);
  }
  return out;
}

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "i-swap-")));
  ws = join(root, "ws");
  outside = join(root, "outside");
  mkdirSync(join(ws, "sub"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, "sub", "secret.txt"), "inside\n");
  writeFileSync(join(outside, "secret.txt"), "OUTSIDE\n");
  writeFileSync(join(outside, "outside-only.txt"), "OUTSIDE\n");
  symlinkSync(outside, join(ws, "alt"));
  if (!hasPython) return;
  swapper = spawn("python3", [SWAPPER, join(ws, "sub"), join(ws, "alt")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => swapper?.stdout?.once("data", () => resolve()));
});

afterAll(() => {
  swapper?.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(process.platform !== "linux" || !hasPython)("file tools under a symlink swap race", () => {
  const ctx = (): ToolContext => ({ workspace: ws, approvals: new Approvals({ policy: "all" }) });

  test(`${ITERATIONS} writes, reads and edits: 0 land outside, no stray temp files`, async () => {
    let readOutside = 0;
    let refused = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      try {
        await writeTool.run({ path: `sub/w${i}.txt`, content: `write ${i}\n` }, ctx());
      } catch {
        refused++;
      }
      try {
        const r = await readTool.run({ path: "sub/secret.txt" }, ctx());
        if (JSON.stringify(r.content).includes("OUTSIDE")) readOutside++;
      } catch {
        refused++;
      }
      try {
        await editTool.run({ path: "sub/secret.txt", old_text: "OUTSIDE", new_text: "CHANGED" }, ctx());
      } catch {
        refused++;
      }
    }
    const landed = allFiles(outside).filter(
      (f) => f !== join(outside, "secret.txt") && f !== join(outside, "outside-only.txt"),
    );
    expect(landed).toEqual([]);
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("OUTSIDE\n");
    expect(readOutside).toBe(0);
    expect(allFiles(root).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // The race was real: some calls met the symlink and were refused.
    expect(refused).toBeGreaterThan(0);
  }, 120_000);

  test(`${ITERATIONS} greps and finds through the swapped directory never see outside`, () => {
    let leaks = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const g = grep(ws, { pattern: "OUTSIDE" });
      const f = find(ws, { pattern: "**/outside-only.txt" });
      if (JSON.stringify(g.content).includes("secret.txt:1")) leaks++;
      if (JSON.stringify(f.content).includes("outside-only.txt")) leaks++;
    }
    expect(leaks).toBe(0);
  }, 120_000);
});
