// The guard's kept git states are bounded: each commit kept under refs/i-guard/ names, in a trailer,
// the record in a session's directory that needs it. A ref whose record is gone (the session deleted)
// is let go, and of the rest a repository keeps only the newest GUARD_STATES_KEPT; git gc then frees
// their objects in its own time. Run after each recording, so the refs never pile up.
import { existsSync } from "node:fs";
import { git } from "./git-run.ts";

export const GUARD_STATES_KEPT = 100;
export const RECORD_TRAILER = "i-record";
export const TIME_TRAILER = "i-recorded-at";

interface Kept {
  ref: string;
  record?: string;
  at: string;
}

function trailer(body: string, key: string): string | undefined {
  // The last one: a command in the subject line cannot stand for it.
  const all = [...body.matchAll(new RegExp(`^${key}: (.+)$`, "gm"))];
  return all.at(-1)?.[1];
}

function kept(top: string): Kept[] {
  const out = git(top, ["for-each-ref", "--format=%(refname)%00%(contents)%00", "refs/i-guard"]);
  const parts = out.split("\0");
  const list: Kept[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const ref = (parts[i] ?? "").trim();
    const body = parts[i + 1] ?? "";
    const record = trailer(body, RECORD_TRAILER);
    if (ref) list.push({ ref, ...(record ? { record } : {}), at: trailer(body, TIME_TRAILER) ?? "" });
  }
  return list;
}

/** Drop the refs/i-guard refs of `top` whose record is gone, and all but the newest `keep`; how many. */
export function pruneGuardRefs(top: string, keep = GUARD_STATES_KEPT): number {
  const all = kept(top);
  // A ref from before the trailers (no record named) is kept until the bound lets it go.
  const live = all.filter((k) => k.record === undefined || existsSync(k.record));
  // Newest first; within one millisecond, the later record (records are numbered, ids padded).
  const key = (k: Kept) => `${k.at}\0${k.record ?? k.ref}`;
  live.sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0));
  const stays = new Set(live.slice(0, keep).map((k) => k.ref));
  const drop = all.filter((k) => !stays.has(k.ref));
  if (drop.length === 0) return 0;
  git(top, ["update-ref", "--stdin"], {}, drop.map((k) => `delete ${k.ref}\n`).join(""));
  return drop.length;
}
