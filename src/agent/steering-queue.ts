// The console's steering queue: lines typed while a turn runs are appended here; the steering worker
// delivers them at the next safe point. Each entry is one JSON line, written with a single append so it is
// never torn by us. One queue serves the console's whole life (every session it opens in turn), so what
// one worker delivered is never delivered again by the next.
import { appendFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

export function queuePath(dataDir: string): string {
  const dir = join(dataDir, "queues");
  mkdirSync(dir, { recursive: true });
  return join(dir, `${Date.now().toString(36)}-${process.pid}.jsonl`);
}

let seq = 0;

export function enqueue(path: string, text: string): string {
  const id = `${Date.now().toString(36)}-${process.pid}-${++seq}`;
  appendFileSync(path, `${JSON.stringify({ id, text })}\n`);
  return id;
}

/**
 * Remove the queue and the steering worker's delivery record (`<queue>.delivered`, beside the queue, as
 * the steering worker's queue contract places it) once the console is done with them: everything in the
 * queue was delivered or shown.
 */
export function removeQueue(path: string): void {
  for (const f of [path, `${path}.delivered`]) rmSync(f, { force: true });
}
