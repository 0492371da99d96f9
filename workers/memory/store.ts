// Durable notes per workspace: `<data_dir>/memory/<hash of workspace>.json`, one file per workspace so
// notes never leak between projects. Every change re-reads the file and writes it atomically, so two
// sessions in one workspace lose nothing but a simultaneous edit, and a crash never leaves half a file.
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../../src/runtime/atomic-write.ts";
import { readOptionalText } from "../sdk/read-text.ts";

export const MAX_NOTE_CHARS = 2000;
export const MAX_NOTES = 200;

export const Note = z.strictObject({
  id: z.string().min(1),
  text: z.string().min(1),
  /** ISO time the note was added */
  created: z.string(),
});
export const MemoryFile = z.strictObject({
  version: z.literal(1),
  workspace: z.string(),
  /** the id the next note gets; never reused, so a stale id cannot remove a newer note */
  next_id: z.number().int().positive(),
  notes: z.array(Note),
});
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
    const text = readOptionalText(this.file);
    if (text === undefined) return { version: 1, workspace: resolve(this.workspace), next_id: 1, notes: [] };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new Error(`${this.file}: malformed JSON (${(err as Error).message}); fix or move the file`);
    }
    const r = MemoryFile.safeParse(json);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new Error(
        `${this.file}: field ${issue?.path.join(".") || "(top level)"}: ${issue?.message ?? "invalid"}; fix or move the file`,
      );
    }
    return r.data;
  }

  private write(mem: MemoryFile): void {
    mkdirSync(join(this.file, ".."), { recursive: true });
    writeFileAtomic(this.file, `${JSON.stringify(mem, null, 2)}\n`);
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
