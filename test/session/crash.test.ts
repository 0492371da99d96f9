// Crash safety: a child process checkpoints (and compacts) in a loop and is killed with SIGKILL at random
// moments. Every time, the session must reopen as a valid history made of exactly the messages that
// were written, in order — and rebuilding it from events.jsonl alone must give the same conversation.
// With compactions, .precompact.json (hard-linked to the replaced checkpoint) is absent or complete.
import { afterAll, describe, expect, test } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/contract/history.ts";
import { validateHistory } from "../../src/lib/validate-history.ts";
import { readHistoryFile } from "../../src/session/history-file.ts";
import { Session } from "../../src/session/session.ts";
import { expectedMessage, SYSTEM } from "./fixtures/messages.ts";
import { type Dirs, makeDirs } from "./helpers.ts";

const CHILD = join(import.meta.dirname, "fixtures", "checkpoint-loop.ts");
const KILLS_PER_MODE = 6;
const dirs: Dirs[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const d of dirs) d.cleanup();
});

/** Start the child; resolves with it and the session id it printed once the session is open. */
function startChild(d: Dirs, mode: string, id?: string): Promise<{ child: ChildProcess; id: string }> {
  const child = spawn(process.execPath, [CHILD, d.data, d.ws, mode, ...(id ? [id] : [])], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let err = "";
  child.stderr?.on("data", (b: Buffer) => {
    err += b.toString();
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (b: Buffer) => {
      out += b.toString();
      const nl = out.indexOf("\n");
      if (nl !== -1) resolve({ child, id: out.slice(0, nl) });
    });
    child.on("exit", (code) => reject(new Error(`child exited early (${code}): ${err}`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/**
 * Check that `h` is valid and consists of the system message, an optional compaction summary, then
 * consecutive numbered messages each exactly as written. Returns the last message number.
 */
function checkConversation(h: Message[]): number {
  expect(validateHistory(h, { allowPendingToolCalls: true })).toBeUndefined();
  expect(h[0]).toEqual(SYSTEM);
  let i = 1;
  let n = 1;
  const summary = h[1]?.meta?.summary === true ? h[1] : undefined;
  if (summary) {
    n = (summary.meta?.up_to as number) + 1;
    i = 2;
  }
  for (; i < h.length; i++, n++) expect(h[i]).toEqual(expectedMessage(n));
  return n - 1;
}

/** Rebuild the session from events.jsonl alone, in a copy of its directory. */
function rebuiltFromEvents(d: Dirs, id: string, round: number): Message[] {
  const copy = join(d.root, `copy-${round}`);
  cpSync(d.data, copy, { recursive: true });
  rmSync(join(copy, id, "history.json"), { force: true });
  const h = Session.open(copy, id).history();
  rmSync(copy, { recursive: true, force: true });
  return h;
}

describe("kill -9 at random moments", () => {
  for (const mode of ["plain", "compact"]) {
    test(`${mode}: every reopen is valid and loses no completed message`, async () => {
      const d = makeDirs();
      dirs.push(d);
      let id: string | undefined;
      let last = 0;
      let precompacts = 0;
      for (let round = 0; round < KILLS_PER_MODE; round++) {
        const started = await startChild(d, mode, id);
        id = started.id;
        await Bun.sleep(50 + Math.floor(Math.random() * 250));
        await killed(started.child);

        const h = Session.open(d.data, id).history();
        const n = checkConversation(h);
        // Completed checkpoints survive: the conversation never goes backwards.
        expect(n).toBeGreaterThanOrEqual(last);
        last = n;
        if (mode === "plain") expect(h.length).toBe(n + 1);

        if (mode === "compact") {
          // .precompact.json (hard-linked or written) is absent, or a complete valid history that is
          // never ahead of the checkpoint.
          const pre = readHistoryFile(join(d.data, id, ".precompact.json"));
          if (pre) expect(checkConversation(pre)).toBeLessThanOrEqual(n);
          if (pre) precompacts++;
        }

        const r = rebuiltFromEvents(d, id, round);
        const rn = checkConversation(r);
        // Opening reconciles with the log, so the log alone rebuilds exactly the same conversation.
        expect(rn).toBe(n);
        if (process.env.I_TEST_VERBOSE) console.log(mode, round, n, rn);
      }
      expect(last).toBeGreaterThan(0);
      if (mode === "compact") expect(precompacts).toBeGreaterThan(0);
    }, 60_000);
  }
});
