// History validation: run before every model request and every commit, so it must be cheap.
// The shape of each message is checked by hand in one pass without allocating; zod (the source of truth
// for the shape) is consulted only when the quick check rejects a message, to confirm and to word the
// reason. The tool-call rules are checked in the same pass.
import { describeIssue } from "../contract/errors.ts";
import { History as HistorySchema, Message as MessageSchema } from "../contract/history.ts";
import { isRecord } from "./is-record.ts";

export interface ValidateOptions {
  /** the final assistant message may still have unanswered tool calls (a batch in progress) */
  allowPendingToolCalls?: boolean;
}

export class HistoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HistoryError";
  }
}

const MESSAGE_KEYS = new Set(["role", "content", "tool_calls", "tool_call_id", "meta", "adapter"]);
const ROLES = new Set(["system", "user", "assistant", "tool"]);

function exactKeys(o: Record<string, unknown>, a: string, b: string, c?: string): boolean {
  let n = 0;
  for (const k in o) {
    if (k !== a && k !== b && k !== c) return false;
    n++;
  }
  return n === (c === undefined ? 2 : 3);
}

/** True when the message certainly matches the Message schema. False means "ask zod". */
function quickShapeOk(m: unknown): boolean {
  if (!isRecord(m)) return false;
  for (const k in m) if (!MESSAGE_KEYS.has(k)) return false;
  if (typeof m.role !== "string" || !ROLES.has(m.role)) return false;
  const content = m.content;
  if (typeof content !== "string") {
    if (!Array.isArray(content)) return false;
    for (const p of content) {
      // Image parts carry a media-type rule that lives in the schema: leave them to zod.
      if (!isRecord(p) || p.type !== "text" || typeof p.text !== "string") return false;
      if (!exactKeys(p, "type", "text")) return false;
    }
  }
  const calls = m.tool_calls;
  if (calls !== undefined) {
    if (!Array.isArray(calls)) return false;
    for (const c of calls) {
      if (!isRecord(c) || !exactKeys(c, "id", "name", "arguments")) return false;
      if (typeof c.id !== "string" || c.id === "" || typeof c.name !== "string" || c.name === "")
        return false;
      if (typeof c.arguments !== "string") return false;
    }
  }
  if (m.tool_call_id !== undefined && typeof m.tool_call_id !== "string") return false;
  if (m.meta !== undefined && !isRecord(m.meta)) return false;
  if (m.adapter !== undefined && !isRecord(m.adapter)) return false;
  return true;
}

function hasImagePart(m: unknown): boolean {
  const c = (m as { content?: unknown }).content;
  return Array.isArray(c) && c.some((p) => isRecord(p) && p.type === "image");
}

/**
 * Messages whose shape has been checked. A message is never mutated once it is in a history (changes make
 * a new object), so a message checked before every request need not be checked again: the validation of a
 * growing history costs its new messages plus the tool-call pass. Weak, so it holds nothing alive.
 */
const shapeChecked = new WeakSet<object>();

function shapeError(m: unknown, i: number, name = "history"): string | undefined {
  if (typeof m === "object" && m !== null && shapeChecked.has(m)) return undefined;
  if (quickShapeOk(m) && !hasImagePart(m)) {
    shapeChecked.add(m as object);
    return undefined;
  }
  const r = MessageSchema.safeParse(m);
  if (r.success) {
    shapeChecked.add(m as object);
    return undefined;
  }
  return describeIssue(`${name}[${i}]`, r.error);
}

/**
 * Why `list` is not an array of well-formed messages, or undefined: the shape of each message only, none
 * of the history rules (for a slice of a history, such as the span a compactor summarises). `name` is
 * what the message names the array.
 */
export function messagesShapeError(list: unknown, name = "messages"): string | undefined {
  if (!Array.isArray(list)) return `${name} is not an array`;
  for (let i = 0; i < list.length; i++) {
    const e = shapeError(list[i], i, name);
    if (e) return e;
  }
  return undefined;
}

interface MessageLike {
  role: string;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}

/** Where a validation of one history array got to: its messages so far and the tool-call state after them. */
interface Progress {
  prefix: unknown[];
  seenIds: Set<string>;
  pending: Set<string>;
  batchOwner: number;
}

/**
 * Per history array, how far it has been validated. The history is validated before every request and
 * every checkpoint, and between two of them it only grows: so a validation picks up after the messages
 * already checked, provided they are all still there, the very same objects (checked one by one — a cheap
 * pointer comparison — since messages are never mutated once in a history). Weak: dropped with the array.
 */
const progress = new WeakMap<unknown[], Progress>();

function resumable(h: unknown[]): Progress | undefined {
  const p = progress.get(h);
  if (!p || p.prefix.length > h.length) return undefined;
  for (let i = 0; i < p.prefix.length; i++) if (p.prefix[i] !== h[i]) return undefined;
  return p;
}

/**
 * Why `h` is not a valid history, naming the message index; undefined when it is valid.
 * Rules: history[0] is the only system message; every assistant tool call is answered by exactly one
 * `tool` message, all answers in one contiguous batch right after their assistant message; no tool
 * message elsewhere; tool call ids are unique across the whole history.
 */
export function validateHistory(h: unknown, opts: ValidateOptions = {}): string | undefined {
  if (!Array.isArray(h)) {
    const r = HistorySchema.safeParse(h);
    return `history: ${r.success ? "not an array" : (r.error.issues[0]?.message ?? "not an array")}`;
  }
  if (h.length === 0) return "history is empty: history[0] must be the system message";
  const p = resumable(h) ?? { prefix: [], seenIds: new Set(), pending: new Set(), batchOwner: -1 };
  const from = p.prefix.length;
  // The state is advanced in place; a history that fails is validated from scratch next time.
  progress.delete(h);
  const reason = scan(h, from, p);
  if (reason !== undefined) return reason;
  for (let i = from; i < h.length; i++) p.prefix.push(h[i]);
  progress.set(h, p);
  if (p.pending.size > 0 && !opts.allowPendingToolCalls) return unanswered(p.batchOwner, p.pending);
  return undefined;
}

/** Checks h[from..] given the tool-call state after h[..from), advancing that state. */
function scan(h: unknown[], from: number, state: Progress): string | undefined {
  // Every call id so far, and the unanswered ones of the batch of state.batchOwner (the assistant).
  const { seenIds, pending } = state;
  for (let i = from; i < h.length; i++) {
    const shape = shapeError(h[i], i);
    if (shape) return shape;
    const m = h[i] as MessageLike;
    if (i === 0 && m.role !== "system")
      return `history[0]: role is "${m.role}"; history[0] must be the system message`;
    if (i > 0 && m.role === "system") return `history[${i}]: a system message may only be history[0]`;
    if (m.role === "tool") {
      const id = m.tool_call_id;
      if (id === undefined) return `history[${i}]: tool message without tool_call_id`;
      if (m.tool_calls !== undefined) return `history[${i}]: a tool message cannot carry tool_calls`;
      if (state.batchOwner < 0) return orphanReason(h, i, id);
      if (!pending.delete(id)) {
        if (seenIds.has(id) && findCall(h, state.batchOwner, id))
          return `history[${i}]: tool call "${id}" of history[${state.batchOwner}] is answered more than once`;
        return orphanReason(h, i, id, state.batchOwner);
      }
      continue;
    }
    // Any non-tool message ends the current batch, which must then be complete.
    if (pending.size > 0) return unanswered(state.batchOwner, pending);
    state.batchOwner = -1;
    if (m.tool_call_id !== undefined) return `history[${i}]: only tool messages may carry tool_call_id`;
    if (m.tool_calls !== undefined && m.role !== "assistant")
      return `history[${i}]: only assistant messages may carry tool_calls`;
    if (m.tool_calls && m.tool_calls.length > 0) {
      for (const c of m.tool_calls) {
        if (seenIds.has(c.id)) return `history[${i}]: duplicate tool call id "${c.id}"`;
        seenIds.add(c.id);
        pending.add(c.id);
      }
      state.batchOwner = i;
    }
  }
  return undefined;
}

function unanswered(owner: number, pending: Set<string>): string {
  const ids = [...pending].map((id) => `"${id}"`).join(", ");
  return `history[${owner}]: tool call${pending.size > 1 ? "s" : ""} ${ids} not answered by a tool message right after it`;
}

function findCall(h: unknown[], owner: number, id: string): boolean {
  return !!(h[owner] as MessageLike).tool_calls?.some((c) => c.id === id);
}

/** Explain a tool message that does not belong where it is (the rare, error path: may scan). */
function orphanReason(h: unknown[], i: number, id: string, owner?: number): string {
  for (let j = i - 1; j >= 0; j--) {
    if (findCall(h, j, id)) {
      return `history[${i}]: tool result for call "${id}" of history[${j}] is not in the batch right after it`;
    }
  }
  const after = owner === undefined ? "" : ` (history[${owner}] made no such call)`;
  return `history[${i}]: tool result for unknown tool call "${id}"${after}`;
}

/** Throw a HistoryError naming the first problem, if any. */
export function assertValidHistory(h: unknown, opts?: ValidateOptions): void {
  const reason = validateHistory(h, opts);
  if (reason !== undefined) throw new HistoryError(`invalid history: ${reason}`);
}
