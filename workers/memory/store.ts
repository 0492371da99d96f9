// Durable notes per workspace: `<data_dir>/memory/<hash of workspace>.json`, one file per workspace so
// notes never leak between projects. Every change re-reads the file and writes it atomically, so two
// sessions in one workspace lose nothing but a simultaneous edit, and a crash never leaves half a file.
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../../src/lib/atomic-write.ts";
import { parseWith, readJson } from "../../src/lib/json-file.ts";

export const MAX_NOTE_CHARS = 2000;
export const MAX_NOTES = 200;

export const Note = z.lazy(() =>
  z.strictObject({
    id: z.string().min(1),
    text: z.string().min(1),
    /** ISO time the note was added */
    created: z.string(),
  }),
);
export const MemoryFile = z.lazy(() =>
  z.strictObject({
    version: z.literal(1),
    workspace: z.string(),
    /** the id the next note gets; never reused, so a stale id cannot remove a newer note */
    next_id: z.number().int().positive(),
    notes: z.array(Note),
  }),
);
export type Note = z.infer<typeof Note>;
export type MemoryFile = z.infer<typeof MemoryFile>;

export function memoryFilePath(dataDir: string, workspace: string): string {
  const hash = createHash("sha256").update(resolve(workspace)).digest("hex").slice(0, 32);
  return join(dataDir, "memory", `${hash}.json`);
}

export class MemoryStore {
  readonly file: string;

  constructor(
    dataDir: string,
    private readonly workspace: string,
  ) {
    this.file = memoryFilePath(dataDir, workspace);
  }

  /** The current notes. A damaged file is an error naming it: it is never silently replaced. */
  read(): MemoryFile {
    const fix = "fix or move the file";
    const json = readJson(this.file, fix);
    if (json === undefined) return { version: 1, workspace: resolve(this.workspace), next_id: 1, notes: [] };
    return parseWith(this.file, MemoryFile, json, () => fix);
  }

  private write(mem: MemoryFile): void {
    // Notes can hold private details of the workspace: owner-only, like sessions.
    mkdirSync(join(this.file, ".."), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.file, `${JSON.stringify(mem, null, 2)}\n`, 0o600);
  }

  add(text: string, now = new Date()): Note {
    const mem = this.read();
    const note: Note = { id: String(mem.next_id), text, created: now.toISOString() };
    this.write({ ...mem, next_id: mem.next_id + 1, notes: [...mem.notes, note] });
    return note;
  }

  /** The removed note, or undefined when no note has this id. */
  remove(id: string): Note | undefined {
    const mem = this.read();
    const note = mem.notes.find((n) => n.id === id);
    if (note) this.write({ ...mem, notes: mem.notes.filter((n) => n !== note) });
    return note;
  }
}
