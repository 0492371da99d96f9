// kill -9 at every write, fsync, rename and link of a compacting session, deterministically: the child
// counts those steps (I_TEST_KILL_AT) and SIGKILLs itself before the Nth. For every N the reopened
// session must hold every message whose checkpoint had returned, the log alone must rebuild the same
// history, and every message ever written must stay recoverable from the folder.
import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/contract/history.ts";
import { validateHistory } from "../../src/lib/validate-history.ts";
import { allMessages } from "../../src/session/recover.ts";
import { Session } from "../../src/session/session.ts";
import { expectedMessage } from "./fixtures/messages.ts";
import { type Dirs, makeDirs, readEvents } from "./helpers.ts";

const CHILD = join(import.meta.dirname, "fixtures", "checkpoint-run.ts");
const COUNT = 17;
/** The events that change a session's history: its last update is the last of them. */
const STATE_EVENTS = ["message", "truncate", "base", "compaction"];
const dirs: Dirs[] = [];
// Hundreds of session folders: removing them can take longer than a hook's default 5 s on a busy machine.
afterAll(() => {
  for (const d of dirs) d.cleanup();
}, 60_000);

function run(d: Dirs, env: Record<string, string>, mode: string): { lines: string[]; signal: string | null } {
  const r = spawnSync(process.execPath, [CHILD, d.data, d.ws, String(COUNT), mode], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  if (r.signal === null && r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return { lines: r.stdout.split("\n").filter((l) => l !== ""), signal: r.signal };
}

function numbers(h: readonly Message[]): number[] {
  return h.map((m) => m.meta?.n).filter((n): n is number => typeof n === "number");
}

describe("kill -9 at every boundary of a compacting session", () => {
  // small: history.json written at the first checkpoint and at compactions, lagging the log in between;
  // big: it lags by its own size; later: each checkpoint counts as done when checkpointSyncLater returns,
  // before its fsync has completed; resumed: each compaction follows a close and reopen, so it links.
  test.each(["small", "big", "later", "resumed"])(
    "no completed message is lost, at any boundary (%s history)",
    (mode) => {
      const probe = makeDirs();
      dirs.push(probe);
      const log = join(probe.root, "boundaries.txt");
      run(probe, { I_TEST_FS_BOUNDARIES: log }, mode);
      const boundaries = readFileSync(log, "utf8").trim().split("\n");
      const kinds = new Set(boundaries.map((l) => l.split(" ")[1]));
      // A lagging history.json is not the history a compaction replaces: .precompact.json is written,
      // not linked. Only a session whose history.json is current (closed and reopened) links it.
      expect([...kinds].sort()).toEqual(
        mode === "resumed" ? ["fsync", "link", "rename", "write"] : ["fsync", "rename", "write"],
      );
      expect(boundaries.length).toBeGreaterThan(COUNT * 2);
      // The caches are renamed only at the first checkpoint, the two compactions and the close (and
      // meta.json at creation): a kill between two of those finds both lagging the log.
      const renamed = (name: string) =>
        boundaries.filter((l) => l.split(" ")[1] === "rename" && l.endsWith(`/${name}`)).length;
      if (mode !== "resumed") {
        expect(renamed("history.json")).toBe(4);
        expect(renamed("meta.json")).toBe(5);
      }

      for (let k = 1; k <= boundaries.length; k++) {
        const d = makeDirs();
        dirs.push(d);
        const { lines, signal } = run(d, { I_TEST_KILL_AT: String(k) }, mode);
        expect(signal).toBe("SIGKILL");
        const id = lines.find((l) => l.startsWith("id "))?.slice(3);
        const done = Math.max(0, ...lines.filter((l) => l.startsWith("ok ")).map((l) => Number(l.slice(3))));
        if (!id) {
          // Killed while the session was being created: nothing was completed yet.
          expect(done).toBe(0);
          continue;
        }
        // What `i sessions` shows before anything reopens it: counted to the log's end, not meta.json's.
        const listed = Session.list(d.data, d.ws).find((m) => m.id === id);
        const logged = readEvents(join(d.data, id));
        const h = Session.open(d.data, id).history();
        if (h.length > 0) expect(listed?.messages).toBe(h.length);
        if (listed) {
          expect(listed.compactions).toBe(logged.filter((e) => e.type === "compaction").length);
          const changed = logged.findLast((e) => STATE_EVENTS.includes(e.type as string));
          expect(listed.updated >= (changed?.ts as string)).toBe(true);
        }
        if (h.length > 0) expect(validateHistory(h, { allowPendingToolCalls: true })).toBeUndefined();
        const ns = numbers(h);
        const last = ns[ns.length - 1] ?? 0;
        // Every completed checkpoint is there; at most the one in flight is ahead of it.
        expect(last === done || last === done + 1).toBe(true);
        for (const [i, n] of ns.entries()) expect(h[h.length - ns.length + i]).toEqual(expectedMessage(n));
        // The folder keeps every message ever written, compacted away or not.
        const ever = numbers(allMessages(join(d.data, id)));
        expect(ever).toEqual(Array.from({ length: last }, (_, i) => i + 1));
        // Reopening again changes nothing: the repair was written.
        expect(Session.open(d.data, id).history()).toEqual(h);
        // A temp file the kill left half-written is cleaned up on open.
        expect(readdirSync(join(d.data, id)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
      }
    },
    120_000,
  );
});
