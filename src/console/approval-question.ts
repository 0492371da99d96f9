// The approval question, written once for both inputs (the live prompt and plain lines): what it asks,
// the answers it offers, how a typed answer is read, and what is said to text that is not an answer.
import type { ApprovalAnswer, ApprovalRequest } from "../agent/agent-session.ts";
import { wrap } from "../terminal/width.ts";

/** `a` typed where "yes for the session" is not offered (a compound command): neither an answer nor a message. */
export const ALWAYS_NOT_OFFERED =
  "a (yes for the session) is not offered for this command: it is not one simple command; answer y or n";

/** Said to a line typed at the question that is not an answer (it was queued for the model instead). */
export const NOT_AN_ANSWER =
  "that is not an answer: it was queued for the model; answer y, n, or n and a reason";

/**
 * Whether "yes for the rest of the session" is offered: always for a file tool, and for a command only
 * when there is a prefix it can safely cover (never a compound command).
 */
export function canAlways(req: ApprovalRequest): boolean {
  return req.tool !== "bash" || req.prefix !== undefined || req.guard !== undefined;
}

/** True for `a`/`always` where it is not offered: to be refused with ALWAYS_NOT_OFFERED, not queued. */
export function isUnofferedAlways(text: string, always: boolean): boolean {
  return !always && /^(a|always)$/i.test(text.trim());
}

/**
 * Parses an answer typed at the approval prompt; undefined when the text is not an answer. For a tool
 * declared at run time (an MCP server's) with a group, `s` allows every tool of that server.
 */
export function parseApproval(
  text: string,
  always: boolean,
  req?: ApprovalRequest,
): ApprovalAnswer | undefined {
  const t = text.trim();
  if (/^(y|yes)$/i.test(t)) return { kind: "yes" };
  if (req?.tool === "tool" && req.group && /^(s|server)$/i.test(t)) return { kind: "always_group" };
  if (always && /^(a|always)$/i.test(t)) return { kind: "always" };
  if (/^(n|no)$/i.test(t)) return { kind: "no" };
  const why = /^(?:n|no)[:,]?\s+(\S[\s\S]*)$/i.exec(t);
  if (why) return { kind: "no", reason: (why[1] as string).trim() };
  return undefined;
}

/**
 * The question: its title line and the request's summary (untrusted, so cleaned), each line behind a `│`
 * gutter; a line wider than `width` wraps under the gutter, never back to column 0.
 */
export function questionLines(
  req: ApprovalRequest,
  clean: (s: string) => string,
  width = Number.POSITIVE_INFINITY,
): string[] {
  const room = Number.isFinite(width) ? Math.max(8, width - 4) : Number.MAX_SAFE_INTEGER;
  // A command the guard flagged says why first: it is asked even under "allow all".
  const flagged = req.guard !== undefined ? wrap(clean(`! destructive: ${req.guard}`), room) : [];
  return [
    ...flagged,
    req.tool === "bash"
      ? "? allow this command to run:"
      : req.tool === "tool"
        ? `? allow tool ${clean(req.title ?? req.name ?? "")}:`
        : `? allow ${req.tool}:`,
    ...req.summary.split("\n").flatMap((l) => wrap(clean(l), room).map((w) => `  │ ${w}`)),
  ];
}

/** The "always" answers of a runtime tool (an MCP server's): this tool, or every tool of its server. */
function runtimeAlways(req: ApprovalRequest, clean: (s: string) => string): string[] {
  const out = [`a = yes to ${clean(req.name ?? "this tool")} this session`];
  if (req.group) out.push(`s = yes to every tool of ${clean(req.group)} this session`);
  return out;
}

/** The answers on offer, each "KEY = meaning"; `cancelKey` is how this input cancels the turn. */
export function answerChoices(
  req: ApprovalRequest,
  clean: (s: string) => string,
  cancelKey: "Esc" | "Ctrl-C",
): string[] {
  const always =
    req.tool === "bash"
      ? req.guard !== undefined
        ? ["a = yes, and allow this exact command in this workspace from now on"]
        : req.prefix
          ? [`a = yes, and don't ask again for \`${clean(req.prefix)} …\``]
          : []
      : req.tool === "tool"
        ? runtimeAlways(req, clean)
        : [`a = yes to every ${req.tool} this session`];
  return [
    "y = yes",
    ...always,
    "n = no",
    "n REASON = no, and tell the model why",
    `${cancelKey} = no, and cancel the turn`,
  ];
}

/**
 * The answers an approval offers, as few indented lines of `width` as they fit on, broken only between
 * two answers: a wrap inside one ("Esc = no, and" | "cancel the turn") would misread as two.
 */
export function packChoices(
  choices: readonly string[],
  width: number,
  measure: (s: string) => number,
): string[] {
  const lines: string[] = [];
  let cur = "";
  for (const c of choices) {
    const next = cur === "" ? `  ${c}` : `${cur} · ${c}`;
    if (cur !== "" && measure(next) > width) {
      lines.push(cur);
      cur = `  ${c}`;
    } else cur = next;
  }
  if (cur !== "") lines.push(cur);
  return lines;
}
