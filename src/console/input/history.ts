// Persistent input history, one file per workspace under the data dir: private (0600), bounded, written
// atomically after merging with what another console of the same workspace may have added meanwhile.
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../../lib/atomic-write.ts";
import { readJson } from "../../lib/json-file.ts";

export const HISTORY_MAX_ENTRIES = 1000;
/** Longer entries (a huge paste) are not kept: history is for recalling what was typed. */
export const HISTORY_MAX_ENTRY_CHARS = 16 * 1024;

export const InputHistoryFile = z.lazy(() =>
  z.strictObject({
    version: z.literal(1),
    workspace: z.string(),
    entries: z.array(z.string()),
  }),
);
export type InputHistoryFile = z.infer<typeof InputHistoryFile>;

export function historyPath(dataDir: string, workspace: string): string {
  const h = createHash("sha256").update(workspace).digest("hex").slice(0, 16);
  return join(dataDir, "input-history", `${h}.json`);
}

/** The entries of the file; a damaged file is reported, never silently overwritten. */
function readEntries(path: string): { entries: string[]; problem?: string } {
  const fix = "delete it to start a fresh input history";
  try {
    const json = readJson(path, fix);
    if (json === undefined) return { entries: [] };
    const parsed = InputHistoryFile.safeParse(json);
    if (parsed.success) return { entries: parsed.data.entries };
    return { entries: [], problem: `${path}: not an input history file; ${fix}` };
  } catch (err) {
    return { entries: [], problem: (err as Error).message };
  }
}

export class InputHistory {
  /** oldest first */
  entries: string[];
  /** why the file cannot be used (the history then lives in memory only, the file is left alone) */
  readonly problem: string | undefined;

  constructor(
    private readonly path: string | undefined,
    private readonly workspace = "",
    private readonly max = HISTORY_MAX_ENTRIES,
  ) {
    const read = path ? readEntries(path) : { entries: [] };
    this.entries = read.entries;
    this.problem = read.problem;
  }

  static forWorkspace(dataDir: string, workspace: string): InputHistory {
    return new InputHistory(historyPath(dataDir, workspace), workspace);
  }

  add(entry: string): void {
    if (entry.trim() === "" || entry.length > HISTORY_MAX_ENTRY_CHARS) return;
    const merge = (list: string[]) => {
      const out = list.filter((e) => e !== entry);
      out.push(entry);
      return out.slice(-this.max);
    };
    this.entries = merge(this.entries);
    if (!this.path || this.problem) return;
    const current = readEntries(this.path);
    if (current.problem) return;
    const onDisk = merge(current.entries);
    const file: InputHistoryFile = { version: 1, workspace: this.workspace, entries: onDisk };
    mkdirSync(join(this.path, ".."), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.path, `${JSON.stringify(file)}\n`, 0o600);
    chmodSync(this.path, 0o600);
    this.entries = onDisk;
  }

  /** The newest entry before `from` (exclusive; entries.length for the newest) containing `query`. */
  search(query: string, from = this.entries.length): number | undefined {
    for (let i = Math.min(from, this.entries.length) - 1; i >= 0; i--)
      if ((this.entries[i] as string).includes(query)) return i;
    return undefined;
  }
}

/** Up/Down through the history, keeping the draft that was being typed to come back to. */
export class HistoryCursor {
  private index: number;
  private draft = "";

  constructor(private readonly history: InputHistory) {
    this.index = history.entries.length;
  }

  reset(): void {
    this.index = this.history.entries.length;
  }

  /** The entry to show after Up, or undefined at the oldest. */
  prev(current: string): string | undefined {
    if (this.index === 0) return undefined;
    if (this.index === this.history.entries.length) this.draft = current;
    this.index--;
    return this.history.entries[this.index];
  }

  /** The entry to show after Down (the draft past the newest), or undefined when already there. */
  next(): string | undefined {
    if (this.index >= this.history.entries.length) return undefined;
    this.index++;
    return this.index === this.history.entries.length ? this.draft : this.history.entries[this.index];
  }
}
