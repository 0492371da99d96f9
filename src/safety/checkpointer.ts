// Workspace checkpoints of one running session: the workspace is recorded before the first change of
// each turn (a tool that may write, or `!command`) and again when such a turn ends, and each recording is
// logged in events.jsonl as a `checkpoint` event naming its snapshot in the store. A turn that changes
// nothing records nothing and costs nothing.
//
// Recording never stops a turn: a file over the size cap is named once and left out, a walk over the
// file or time cap stops with one line (the snapshot says it is partial), and a failure to write (a full
// disk) is one warning, the turn going on without that checkpoint; the session log stays as it was.
import { realpathSync } from "node:fs";
import type { CheckpointEvent, CheckpointsPolicy, Snapshot, SnapshotEntry } from "../contract/checkpoints.ts";
import { errorMessage } from "../contract/errors.ts";
import { formatBytes } from "../lib/truncate.ts";
import { previousIndex, recordWorkspace, sameEntry } from "./snapshot.ts";
import { CheckpointStore } from "./store.ts";

/** What the checkpointer needs of a session: where it lives and a way to log an event. */
export interface CheckpointSession {
  readonly id: string;
  readonly dir: string;
  appendEvent(type: string, data: Record<string, unknown>, durable?: boolean): void;
}

export interface CheckpointerOptions {
  session: CheckpointSession;
  workspace: string;
  policy: CheckpointsPolicy;
  /** one line for the user (a notice) */
  warn: (line: string) => void;
  /** directories never recorded (the data directory, when it lies inside the workspace) */
  skip?: readonly string[];
}

export interface Recorded {
  id: string;
  snapshot: Snapshot;
  changed: string[];
}

export class Checkpointer {
  readonly store: CheckpointStore;
  private last: { id: string; snapshot: Snapshot; index: Map<string, SnapshotEntry> } | undefined;
  private loaded = false;
  /** the turn whose "before" checkpoint is taken, and that snapshot */
  private turn: { ts: string; id: string | undefined; snapshot: Snapshot | undefined } | undefined;
  private warnedLarge = new Set<string>();
  private warnedPartial = false;
  private readonly skip: Set<string>;

  constructor(private readonly opts: CheckpointerOptions) {
    this.store = new CheckpointStore(opts.session.dir);
    this.skip = new Set(
      [opts.session.dir, ...(opts.skip ?? [])].flatMap((p) => {
        try {
          return [p, realpathSync(p)];
        } catch {
          return [p];
        }
      }),
    );
  }

  get enabled(): boolean {
    return this.opts.policy.enabled;
  }

  /** The latest snapshot recorded (this process or an earlier one): the stat cache and the agent's last state. */
  latest(): { id: string; snapshot: Snapshot; index: Map<string, SnapshotEntry> } | undefined {
    if (!this.loaded) {
      this.loaded = true;
      const id = this.store.order().at(-1);
      const snapshot = id ? this.store.readSnapshot(id) : undefined;
      if (id && snapshot) this.last = { id, snapshot, index: previousIndex(snapshot) };
    }
    return this.last;
  }

  /**
   * Before the first change of the turn whose user message has timestamp `turnTs`: record the workspace
   * (once per turn; later calls in the same turn are free).
   */
  beforeChange(turnTs: string): void {
    if (!this.enabled || this.turn?.ts === turnTs) return;
    const r = this.record("before", turnTs);
    this.turn = { ts: turnTs, id: r?.id, snapshot: r?.snapshot };
  }

  /**
   * Record the workspace now into the store without logging a checkpoint (a rewind logs it in its own
   * event); the stat cache and the "last known" state move on to it.
   */
  snapshotNow(): { id: string; snapshot: Snapshot } {
    const prev = this.latest();
    const r = recordWorkspace(
      this.opts.workspace,
      this.store,
      this.opts.policy,
      prev?.snapshot,
      this.skip,
      prev?.index,
    );
    const same =
      prev && r.changed.length === 0 && !r.restatted && !r.snapshot.partial === !prev.snapshot.partial;
    if (same) {
      this.store.markUsed(prev.id);
      return { id: prev.id, snapshot: prev.snapshot };
    }
    const id = this.store.putSnapshot(r.snapshot);
    this.last = { id, snapshot: r.snapshot, index: previousIndex(r.snapshot) };
    return { id, snapshot: r.snapshot };
  }

  /**
   * The workspace as the agent last left it (after its last turn that changed files, or a rewind): a path
   * that differs from it now was changed by someone else. Kept in the store (`known`), so a later run of
   * the session still tells hand changes from the agent's.
   */
  lastKnown(): Snapshot | undefined {
    const id = this.store.readKnown() ?? this.latest()?.id;
    return id ? this.store.readSnapshot(id) : undefined;
  }

  /** The per-file cap: a larger file is not recorded (nor kept before a rewind overwrites it). */
  get maxFileBytes(): number {
    return this.opts.policy.max_file_bytes;
  }

  /**
   * Store `snapshot` (the workspace before a rewind, with what it overwrites out of the walk's view) and
   * return its id; `current` stays the latest, the stat cache of the next walk.
   */
  keepBefore(snapshot: Snapshot, current: string): string {
    const id = this.store.putSnapshot(snapshot);
    this.store.markUsed(current);
    return id;
  }

  /** The workspace as recorded now is the agent's own (a rewind just wrote it). */
  markKnown(id: string): void {
    this.store.writeKnown(id);
  }

  /** The turn ended: record what it changed (nothing when it changed nothing). */
  afterTurn(): void {
    const t = this.turn;
    if (!t) return;
    this.turn = undefined;
    // The "before" failed (and said so): the turn has nothing to compare with, and one warning is enough.
    if (t.id === undefined) return;
    this.record("after", t.ts, t.snapshot);
  }

  /** Record the workspace now and log it; undefined (after one warning) when it could not be written. */
  record(phase: CheckpointEvent["phase"], turnTs: string, before?: Snapshot): Recorded | undefined {
    const { policy, workspace, session } = this.opts;
    try {
      const prev = this.latest();
      const r = recordWorkspace(workspace, this.store, policy, prev?.snapshot, this.skip, prev?.index);
      this.sayOnce(r.tooLarge, r.snapshot.partial);
      // Unchanged: the previous snapshot is this state (no new text to hash or write).
      const same =
        prev && r.changed.length === 0 && !r.restatted && !r.snapshot.partial === !prev.snapshot.partial;
      if (same) this.store.markUsed(prev.id);
      const id = same ? prev.id : this.store.putSnapshot(r.snapshot);
      const snapshot = same ? prev.snapshot : r.snapshot;
      if (!same) this.last = { id, snapshot, index: previousIndex(snapshot) };
      this.store.writeKnown(id);
      const changed = phase === "after" ? changedSince(before, snapshot) : undefined;
      session.appendEvent(
        "checkpoint",
        {
          phase,
          snapshot: id,
          turn_ts: turnTs,
          files: snapshot.entries.length,
          ...(changed ? { changed } : {}),
          ...(snapshot.partial ? { partial: true } : {}),
        },
        false,
      );
      if (this.store.size > policy.max_store_bytes) {
        const dropped = this.store.prune(policy.max_store_bytes);
        if (dropped > 0)
          this.opts.warn(
            `checkpoints: the store reached its ${formatBytes(policy.max_store_bytes)} cap; the ${dropped} oldest checkpoint(s) were pruned (max_store_bytes in checkpoints.json)`,
          );
      }
      return { id, snapshot, changed: r.changed };
    } catch (err) {
      this.opts.warn(
        `checkpoint not recorded (${errorMessage(err)}); the turn goes on, but /undo cannot restore files it changes`,
      );
      return undefined;
    }
  }

  private sayOnce(tooLarge: { path: string; size: number }[], partial: string | undefined): void {
    const fresh = tooLarge.filter((f) => !this.warnedLarge.has(f.path));
    for (const f of fresh) this.warnedLarge.add(f.path);
    if (fresh.length > 0) {
      const names = fresh
        .slice(0, 3)
        .map((f) => `${f.path} (${formatBytes(f.size)})`)
        .join(", ");
      const more = fresh.length > 3 ? ` and ${fresh.length - 3} more` : "";
      this.opts.warn(
        `checkpoint: ${names}${more} over the ${formatBytes(this.opts.policy.max_file_bytes)} per-file cap, not recorded (raise max_file_bytes in checkpoints.json, or .gitignore it)`,
      );
    }
    if (partial && !this.warnedPartial) {
      this.warnedPartial = true;
      this.opts.warn(
        `checkpoint: recording stopped early (${partial}); files beyond are not recorded (.gitignore them, or raise max_files / max_ms in checkpoints.json)`,
      );
    }
  }
}

/** Paths that differ between two snapshots (all of `after`'s when there is no `before`). */
export function changedSince(before: Snapshot | undefined, after: Snapshot): string[] {
  if (!before) return [];
  const b = previousIndex(before);
  const out: string[] = [];
  for (const e of after.entries) {
    if (!sameEntry(b.get(e.path), e)) out.push(e.path);
    b.delete(e.path);
  }
  if (!after.partial && !before.partial) out.push(...b.keys());
  return out;
}
