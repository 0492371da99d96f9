// SigV4 signs the SHA-256 of the whole body, and the body holds the whole history: hashing all of it
// again for every request grew with the session (0.10 ms at 176 KiB). Between two requests of one history
// the turns before the last stay the same, so the hash is kept after each closed turn and resumed from the
// last one that still matches (a cache point moved, or thinking turned on, changes a turn: the hash
// resumes before it). The last turn may still grow (a tool result joins the user turn), so it and what
// follows the turns are hashed per request. Weak: dropped with the history.
import { createHash, type Hash } from "node:crypto";
import { BODY_HEAD, type BodyParts } from "./request.ts";

interface Kept {
  turns: string[];
  /** hashes[i]: of BODY_HEAD and turns 0..i, comma-separated */
  hashes: Hash[];
}

const kept = new WeakMap<readonly unknown[], Kept>();

/** The body's text and its SHA-256 in hex, resuming what was hashed for `history` before. */
export function hashedBody(history: readonly unknown[], parts: BodyParts): { text: string; sha256: string } {
  const { turns, tail } = parts;
  let k = kept.get(history);
  if (!k) {
    k = { turns: [], hashes: [] };
    kept.set(history, k);
  }
  const closed = Math.max(0, turns.length - 1);
  let same = 0;
  const limit = Math.min(k.turns.length, closed);
  while (same < limit && k.turns[same] === turns[same]) same++;
  k.turns.length = same;
  k.hashes.length = same;
  for (let i = same; i < closed; i++) {
    const turn = turns[i] as string;
    const h = i === 0 ? createHash("sha256").update(BODY_HEAD) : (k.hashes[i - 1] as Hash).copy();
    h.update(i === 0 ? turn : `,${turn}`);
    k.turns.push(turn);
    k.hashes.push(h);
  }
  const last = closed > 0 ? (k.hashes[closed - 1] as Hash).copy() : createHash("sha256").update(BODY_HEAD);
  if (turns.length > 0) last.update(closed > 0 ? `,${turns[closed]}` : (turns[0] as string));
  last.update(tail);
  return { text: `${BODY_HEAD}${turns.join(",")}${tail}`, sha256: last.digest("hex") };
}
