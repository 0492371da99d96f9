// Temporary data and workspace directories for session tests.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Dirs {
  root: string;
  data: string;
  ws: string;
  cleanup(): void;
}

export function makeDirs(): Dirs {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "i-session-")));
  const data = join(root, "sessions");
  const ws = join(root, "ws");
  mkdirSync(ws);
  return { root, data, ws, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export function readEvents(dir: string): Record<string, unknown>[] {
  return readFileSync(join(dir, "events.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** Make sure the next timestamp differs from the last one (ISO strings have millisecond resolution). */
export function nextMillisecond(): void {
  const start = Date.now();
  while (Date.now() <= start) {}
}
