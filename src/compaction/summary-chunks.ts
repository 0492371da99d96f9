// Splitting what a compactor asked to have summarised into requests that each fit the model.
//
// Why the core chunks, not the compactor: the model request (and its budget check) always stays in the
// core, and only the core knows what one request can hold (the budget module's estimate, the model's
// window, the room kept for the summary). A compactor returns one `messages` list as the contract says;
// the core renders it, and when the rendered transcript is larger than one request it sends it in
// chunks, oldest first, each request carrying the previous chunk's summary whole. So no replacement has
// to learn a second protocol shape, and no material is ever cut to make a request fit. A compactor that
// wants its own chunking can still do it and return a local `summary`.

import type { BudgetResult } from "../contract/compaction.ts";
import { textTokens } from "../lib/estimator.ts";
import { effectiveTotal } from "./budget-call.ts";
import { CompactionError } from "./errors.ts";

/** Fill chunks to this share of the room the estimate leaves, so a chunk's own budget check passes. */
export const CHUNK_FILL = 0.9;
/** Below this room per chunk, chunking would take absurdly many requests: the compaction fails instead. */
export const MIN_CHUNK_TOKENS = 256;
/** Tokens of the "\n\n" that joins two blocks. */
const SEPARATOR_TOKENS = 0.5;
const CONTINUED = "[… continued from the previous part of this message]\n";

/**
 * The blocks grouped into chunks that each fit one summary request. `measure` is the budget reading of
 * the request holding `blocks` (with every fixed part: prompt, wrapper, images); `carried` is the most a
 * chunk's carried summary can take.
 */
export async function planChunks(
  blocks: readonly string[],
  measure: (blocks: readonly string[]) => Promise<BudgetResult>,
  carried: number,
): Promise<string[][]> {
  const whole = await measure(blocks);
  if (whole.recommendation !== "over") return [[...blocks]];
  const sizes = blocks.map((b) => textTokens(b) + SEPARATOR_TOKENS);
  const content = sizes.reduce((a, b) => a + b, 0);
  const overhead = Math.max(0, effectiveTotal(whole) - content);
  const room = Math.floor((whole.hard_limit - overhead - carried) * CHUNK_FILL);
  if (room < MIN_CHUNK_TOKENS) {
    throw new CompactionError(
      "summary_request",
      `a summary request leaves only about ${Math.max(0, room)} tokens for the transcript after the prompt, the images and the carried summary (model limit ${whole.hard_limit}); nothing was sent. Shorten the compact prompt or use a model with a larger window`,
    );
  }
  const chunks: string[][] = [];
  let current: string[] = [];
  let used = 0;
  const flush = () => {
    if (current.length > 0) chunks.push(current);
    current = [];
    used = 0;
  };
  blocks.forEach((block, i) => {
    const size = sizes[i] as number;
    if (size > room) {
      // One message larger than a request: its text goes in consecutive pieces, each in its own chunk.
      flush();
      for (const piece of splitBlock(block, size, room)) chunks.push([piece]);
      return;
    }
    if (used + size > room) flush();
    current.push(block);
    used += size;
  });
  flush();
  return chunks;
}

/** `block` in pieces of at most about `room` tokens, cut at line ends where one is near. */
export function splitBlock(block: string, tokens: number, room: number): string[] {
  const perPiece = Math.max(1, Math.floor(((block.length * room) / tokens) * 0.95) - CONTINUED.length);
  const pieces: string[] = [];
  let start = 0;
  while (start < block.length) {
    let end = Math.min(block.length, start + perPiece);
    if (end < block.length) {
      const nl = block.lastIndexOf("\n", end);
      if (nl > start + perPiece / 2) end = nl + 1;
    }
    pieces.push((start === 0 ? "" : CONTINUED) + block.slice(start, end));
    start = end;
  }
  return pieces;
}
