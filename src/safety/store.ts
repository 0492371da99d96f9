// The checkpoint store of one session: <session>/checkpoints/ holds content-addressed blobs (sha256 of the
// content, so a file that did not change between checkpoints is stored once), snapshots (a JSON list of
// the workspace's paths, itself stored by the hash of its text) and `order`, the snapshots as they were
// taken, oldest first, which is what pruning drops from. Nothing here touches the user's own .git.
//
// Blobs and snapshots are written to a temp name and renamed, never fsynced: they are only worth anything
// once a checkpoint event in the fsynced events.jsonl names them, and a blob torn by a power cut is
// caught by its hash when it is read back (the restore refuses it rather than writing wrong content).
import { createHash } from "node:crypto";
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { join } from "node:path";
import { Snapshot } from "../contract/checkpoints.ts";
import { writeFileAtomic } from "../lib/atomic-write.ts";
import { writeAll } from "../lib/write-all.ts";

export const STORE_DIR = "checkpoints";

export function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

export class CheckpointStore {
  readonly root: string;
  private readonly blobs: string;
  private readonly snapshots: string;
  /** blobs known to be in the store (their sizes), filled on first use */
  private known: Map<string, number> | undefined;
  private madeDirs = new Set<string>();
  private bytes = 0;
  private knownId: string | undefined;

  constructor(sessionDir: string) {
    this.root = join(sessionDir, STORE_DIR);
    this.blobs = join(this.root, "blobs");
    this.snapshots = join(this.root, "snapshots");
  }

  /** Bytes the store holds (blobs and snapshots). */
  get size(): number {
    this.index();
    return this.bytes;
  }

  private index(): Map<string, number> {
    if (this.known) return this.known;
    const known = new Map<string, number>();
    let bytes = 0;
    for (const dir of listDir(this.blobs)) {
      for (const name of listDir(join(this.blobs, dir))) {
        if (name.startsWith(".") || name.endsWith(".tmp")) continue;
        const size = sizeOf(join(this.blobs, dir, name));
        known.set(name, size);
        bytes += size;
      }
    }
    for (const name of listDir(this.snapshots)) bytes += sizeOf(join(this.snapshots, name));
    this.known = known;
    this.bytes = bytes;
    return known;
  }

  hasBlob(hash: string): boolean {
    return this.index().has(hash);
  }

  blobPath(hash: string): string {
    return join(this.blobs, hash.slice(0, 2), hash);
  }

  /**
   * Store `data` under its hash (already computed by the caller); a no-op when it is there. Written in
   * place under its final name (one file created, no rename: a first checkpoint writes thousands), and
   * removed again if the write fails; a file of the wrong size there (a write cut short by a power cut)
   * is replaced through a temp name.
   */
  putBlob(hash: string, data: Uint8Array): void {
    const known = this.index();
    if (known.get(hash) === data.length) return;
    const dir = join(this.blobs, hash.slice(0, 2));
    this.ensureDir(dir);
    const path = join(dir, hash);
    let fd: number;
    try {
      fd = openSync(path, "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      if (sizeOf(path) !== data.length) this.replaceBlob(path, data);
      this.noteBlob(hash, data.length);
      return;
    }
    try {
      writeAll(fd, data);
    } catch (err) {
      closeSync(fd);
      try {
        unlinkSync(path);
      } catch {}
      throw err;
    }
    closeSync(fd);
    this.noteBlob(hash, data.length);
  }

  private noteBlob(hash: string, size: number): void {
    const known = this.index();
    this.bytes += size - (known.get(hash) ?? 0);
    known.set(hash, size);
  }

  /** A blob of the wrong size (torn by a crash) is replaced whole: a reader never sees it half-written. */
  private replaceBlob(path: string, data: Uint8Array): void {
    writeFileAtomic(path, data, 0o600, { sync: false });
  }

  /** Whether blob `hash` is stored whole (`size` bytes). */
  hasBlobOf(hash: string, size: number): boolean {
    return this.index().get(hash) === size;
  }

  /** The content of blob `hash`; throws when it is missing or does not match its hash (torn, edited). */
  readBlob(hash: string): Buffer {
    let data: Buffer;
    try {
      data = readFileSync(this.blobPath(hash));
    } catch {
      throw new Error(
        `checkpoint content ${hash.slice(0, 12)} is missing from the store (pruned or deleted)`,
      );
    }
    if (sha256(data) !== hash) throw new Error(`checkpoint content ${hash.slice(0, 12)} is damaged`);
    return data;
  }

  /** Store a snapshot; its id is the hash of its text (an unchanged workspace gives the same id). */
  putSnapshot(s: Snapshot): string {
    const text = JSON.stringify(s);
    const id = sha256(text);
    this.ensureDir(this.snapshots);
    const file = join(this.snapshots, `${id}.json`);
    let fresh = true;
    try {
      statSync(file);
      fresh = false;
    } catch {}
    if (fresh) {
      this.index();
      writeFileAtomic(file, text, 0o600, { sync: false });
      this.bytes += Buffer.byteLength(text);
    }
    this.markUsed(id);
    return id;
  }

  /** The snapshot of the workspace as the agent last left it (see Checkpointer.lastKnown). */
  readKnown(): string | undefined {
    try {
      const id = readFileSync(join(this.root, "known"), "utf8").trim();
      return /^[0-9a-f]{64}$/.test(id) ? id : undefined;
    } catch {
      return undefined;
    }
  }

  writeKnown(id: string): void {
    if (this.knownId === id) return;
    this.ensureDir(this.root);
    writeFileAtomic(join(this.root, "known"), `${id}\n`, 0o600, { sync: false });
    this.knownId = id;
  }

  /** Note that snapshot `id` is in use now (pruning drops the least recently used first). */
  markUsed(id: string): void {
    appendFileSync(join(this.root, "order"), `${id}\n`, { mode: 0o600 });
  }

  /** The snapshot `id`, or undefined when the store no longer has it (pruned). */
  readSnapshot(id: string): Snapshot | undefined {
    if (!/^[0-9a-f]{64}$/.test(id)) return undefined;
    let text: string;
    try {
      text = readFileSync(join(this.snapshots, `${id}.json`), "utf8");
    } catch {
      return undefined;
    }
    if (sha256(text) !== id) return undefined;
    const r = Snapshot.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  }

  /** Snapshot ids as taken, oldest first, each once (its latest use). */
  order(): string[] {
    let text = "";
    try {
      text = readFileSync(join(this.root, "order"), "utf8");
    } catch {}
    const seen = new Set<string>();
    const out: string[] = [];
    const lines = text.split("\n").filter((l) => /^[0-9a-f]{64}$/.test(l));
    for (let i = lines.length - 1; i >= 0; i--) {
      const id = lines[i] as string;
      if (seen.has(id)) continue;
      seen.add(id);
      out.unshift(id);
    }
    return out;
  }

  /**
   * Drop the oldest snapshots until the store is under `maxBytes` (the newest is always kept), then the
   * blobs no remaining snapshot names. Returns how many snapshots were dropped.
   */
  prune(maxBytes: number): number {
    if (this.size <= maxBytes) return 0;
    const order = this.order();
    const kept = [...order];
    let dropped = 0;
    // Aim below the cap, so the next few checkpoints do not each prune again.
    const target = Math.floor(maxBytes * 0.8);
    const snaps = new Map<string, Snapshot | undefined>();
    const read = (id: string) => {
      if (!snaps.has(id)) snaps.set(id, this.readSnapshot(id));
      return snaps.get(id);
    };
    const referenced = () => {
      const used = new Set<string>();
      for (const id of kept) for (const e of read(id)?.entries ?? []) if (e.kind === "file") used.add(e.hash);
      return used;
    };
    const known = this.index();
    const bytesOf = (used: Set<string>) => {
      let b = 0;
      for (const h of used) b += known.get(h) ?? 0;
      return b;
    };
    while (kept.length > 1 && bytesOf(referenced()) > target) {
      const id = kept.shift() as string;
      rmSync(join(this.snapshots, `${id}.json`), { force: true });
      dropped++;
    }
    const used = referenced();
    for (const [h, size] of known) {
      if (used.has(h)) continue;
      rmSync(this.blobPath(h), { force: true });
      known.delete(h);
      this.bytes -= size;
    }
    if (dropped > 0) {
      writeFileAtomic(join(this.root, "order"), kept.map((id) => `${id}\n`).join(""), 0o600, { sync: false });
      this.known = undefined;
    }
    return dropped;
  }

  private ensureDir(dir: string): void {
    if (this.madeDirs.has(dir)) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.madeDirs.add(dir);
  }
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
