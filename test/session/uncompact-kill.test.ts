// kill -9 at every write, fsync and rename of an uncompaction: the reopened session holds either the
// compacted history or the restored one, whole (never a mix, never less), the log alone rebuilds the
// same, and once the restore has returned it is the restored one.
import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/contract/history.ts";
import { allMessages } from "../../src/session/recover.ts";
import { Session } from "../../src/session/session.ts";
import { turn } from "./fixtures/compacting-scenario.ts";
import { type Dirs, makeDirs } from "./helpers.ts";

const CHILD = join(import.meta.dirname, "fixtures", "uncompact-run.ts");
const dirs: Dirs[] = [];
afterAll(() => {
  for (const d of dirs) d.cleanup();
}, 60_000);

function run(d: Dirs, env: Record<string, string>): { lines: string[]; signal: string | null } {
  const r = spawnSync(process.execPath, [CHILD, d.data, d.ws], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  if (r.signal === null && r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return { lines: r.stdout.split("\n").filter((l) => l !== ""), signal: r.signal };
}

const texts = (h: readonly Message[]) => h.map((m) => JSON.stringify(m.content));

test("kill -9 at every boundary of an uncompaction loses nothing", () => {
  const probe = makeDirs();
  dirs.push(probe);
  const boundaries = join(probe.root, "boundaries.txt");
  const first = run(probe, { I_TEST_FS_BOUNDARIES: boundaries });
  expect(first.lines.at(-1)).toBe("restored");
  const all = readFileSync(boundaries, "utf8").trim().split("\n");
  const start = all.indexOf("ready");
  expect(start).toBeGreaterThan(0);
  const t = (n: number) => turn(n, 400);
  const restored = texts([
    { role: "system", content: "you are a test" },
    { role: "user", content: "[summary] 1-2" },
    ...t(3),
    ...t(4),
    ...t(5),
  ]);
  const compacted = texts([
    { role: "system", content: "you are a test" },
    { role: "user", content: "[summary] 1-3" },
    ...t(4),
    ...t(5),
  ]);
  let tried = 0;
  // Boundary numbers count only the boundaries (the marker is not one).
  for (let n = start + 1; n <= all.length - 1; n++) {
    const d = makeDirs();
    dirs.push(d);
    const r = run(d, { I_TEST_KILL_AT: String(n) });
    expect(r.lines).toContain("ready");
    tried++;
    const id = r.lines[0] as string;
    const reopened = texts(Session.open(d.data, id).history());
    if (r.lines.includes("restored")) expect(reopened).toEqual(restored);
    else expect([restored, compacted]).toContainEqual(reopened);
    // The log alone gives the same history, and every message ever written is still in it.
    rmSync(join(d.data, id, "history.json"), { force: true });
    rmSync(join(d.data, id, "meta.json"), { force: true });
    expect(texts(Session.open(d.data, id).history())).toEqual(reopened);
    const ever = new Set(texts(allMessages(join(d.data, id))));
    for (const m of [...restored, ...compacted]) expect(ever.has(m)).toBe(true);
  }
  // The restore's own boundaries: the append, its fsync, history.json and meta.json.
  expect(tried).toBeGreaterThanOrEqual(3);
}, 120_000);
