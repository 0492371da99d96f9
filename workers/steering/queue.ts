// The steering queue contract (workers/steering/README.md): the console appends one JSON line per
// message to the queue file; the worker hands each complete line out exactly once, remembering how far it
// got in `<queue>.delivered`, which is written atomically before the reply leaves the worker. A restarted
// worker therefore resumes where the last one stopped: nothing is handed out twice, nothing skipped.
import { Buffer } from "node:buffer";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { z } from "zod";
import { SteerMessage } from "../../src/contract/steering.ts";
import { writeFileAtomic } from "../../src/lib/atomic-write.ts";
import { parseWith, readJson } from "../../src/lib/json-file.ts";

export { SteerMessage };

/** How many delivered ids are remembered to drop a line the console wrote twice. */
export const REMEMBERED_IDS = 1000;

export const DeliveredFile = z.lazy(() =>
  z.strictObject({
    version: z.literal(1),
    /** bytes of the queue file already handed out (always at a line boundary) */
    offset: z.number().int().nonnegative(),
    /** ids handed out most recently, oldest first */
    ids: z.array(z.string()),
  }),
);
export type DeliveredFile = z.infer<typeof DeliveredFile>;

export function deliveredPath(queue: string): string {
  return `${queue}.delivered`;
}

function readDelivered(file: string): DeliveredFile {
  const damaged = "the steering state is damaged";
  const json = readJson(file, damaged);
  if (json === undefined) return { version: 1, offset: 0, ids: [] };
  return parseWith(file, DeliveredFile, json, () => damaged);
}

/** The queue's bytes from `offset` to its end (empty when the file does not exist). */
function readTail(queue: string, offset: number): { bytes: Buffer; size: number } {
  let fd: number;
  try {
    fd = openSync(queue, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { bytes: Buffer.alloc(0), size: 0 };
    throw new Error(`${queue}: cannot read the steering queue: ${(err as Error).message}`);
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return { bytes: Buffer.alloc(0), size };
    const bytes = Buffer.alloc(size - offset);
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return { bytes: bytes.subarray(0, got), size };
  } finally {
    closeSync(fd);
  }
}

/**
 * Messages queued since the last call, each at most once across worker restarts. A torn last line (no
 * newline yet: the console is still writing it) stays in the queue until it is complete.
 */
export function takeQueued(queue: string, log: (m: string) => void = () => {}): SteerMessage[] {
  const stateFile = deliveredPath(queue);
  const state = readDelivered(stateFile);
  let offset = state.offset;
  let { bytes, size } = readTail(queue, offset);
  if (size < offset) {
    // The queue was truncated or replaced: read it again from the start; remembered ids drop old lines.
    log(`steering: ${queue} shrank below the delivered offset; rereading it from the start`);
    offset = 0;
    ({ bytes } = readTail(queue, 0));
  }
  const end = bytes.lastIndexOf(0x0a) + 1;
  if (end === 0 && offset === state.offset) return [];

  const seen = new Set(state.ids);
  const out: SteerMessage[] = [];
  const text = bytes.subarray(0, end).toString("utf8");
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let msg: SteerMessage;
    try {
      msg = SteerMessage.parse(JSON.parse(line));
    } catch {
      // A complete line that is not a message can never become one; skip it, but say so.
      log(`steering: skipping a malformed queue line: ${line.slice(0, 200)}`);
      continue;
    }
    if (seen.has(msg.id)) continue;
    seen.add(msg.id);
    out.push(msg);
  }
  const ids = [...state.ids, ...out.map((m) => m.id)].slice(-REMEMBERED_IDS);
  // Written before the caller replies: a crash after this point cannot hand the same lines out again.
  writeFileAtomic(
    stateFile,
    `${JSON.stringify({ version: 1, offset: offset + end, ids } satisfies DeliveredFile)}\n`,
  );
  return out;
}
