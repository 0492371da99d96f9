// The approval question in the live prompt, answered in one key: y (yes), a (yes for the session, where
// offered), n (no: then a reason may be typed, Enter sends it, an empty one is a plain no), Esc or Ctrl-C
// (no, and cancel the turn). Enter takes the highlighted answer (←/→ move it; yes at first). Tab opens a
// line for a message to the model, so one may start with any letter (y, a, n and s answer at once
// otherwise); Enter queues it and the question still waits. Any other text typed is a message for the
// model too, queued when Enter sends it: never lost, never an answer.
// The proposed change (a diff) is drawn inside the question: it leaves the screen with it, so a refused
// change is never left in the transcript looking applied.
import type { ApprovalAnswer, ApprovalRequest } from "../../agent/agent-session.ts";
import { ALWAYS_NOT_OFFERED, canAlways, NOT_AN_ANSWER, questionLines } from "../approval-question.ts";
import { applyInput } from "./bindings.ts";
import type { LineEditor } from "./editor.ts";
import type { InputEvent } from "./keys.ts";

export interface ApprovalText {
  clean(s: string): string;
  dim(s: string): string;
  yellow(s: string): string;
  /** the highlighted answer */
  mark(s: string): string;
  width(s: string): number;
  fit(s: string, width: number): string;
}

interface Choice {
  key: string;
  label: string;
  /** "reason": a reason for the no follows; "message": a line for the model follows */
  answer: ApprovalAnswer | "reason" | "message";
}

/** What the prompt says after a message typed on the Tab line was queued. */
export const MESSAGE_QUEUED = "queued for the model; the question still waits: y, n, or n and a reason";

export type ApprovalStep =
  | { kind: "answer"; answer: ApprovalAnswer }
  /** text that is not an answer, for the model; `asked`: typed on the Tab line, meant as a message */
  | { kind: "message"; text: string; asked?: boolean }
  | { kind: "hint"; text: string }
  | undefined;

export class ApprovalPrompt {
  private readonly choices: Choice[];
  private at = 0;
  /** `n` was pressed: the editor holds the reason */
  reasoning = false;
  /** Tab was pressed: the editor holds a message for the model */
  messaging = false;

  constructor(
    readonly req: ApprovalRequest,
    /** the proposed change, styled (drawn inside the question) */
    private readonly proposal: readonly string[],
    /** the user's draft when the question came up, given back after */
    readonly draft: string,
  ) {
    const always = canAlways(req);
    const alwaysLabel =
      req.tool === "bash"
        ? req.guard !== undefined
          ? "always this exact command here"
          : `always \`${req.prefix ?? ""} …\``
        : req.tool === "tool"
          ? `always ${req.name ?? "this tool"}`
          : `always ${req.tool}`;
    // A tool declared at run time (an MCP server's) may also be allowed with every tool of its server.
    const group =
      req.tool === "tool" && req.group
        ? [
            {
              key: "s",
              label: `always every tool of ${req.group}`,
              answer: { kind: "always_group" },
            } as Choice,
          ]
        : [];
    this.choices = [
      { key: "y", label: "yes", answer: { kind: "yes" } },
      ...(always ? [{ key: "a", label: alwaysLabel, answer: { kind: "always" } } as Choice] : []),
      ...group,
      { key: "n", label: "no (then a reason)", answer: "reason" },
      { key: "Esc", label: "no, cancel the turn", answer: { kind: "cancel" } },
      { key: "Tab", label: "tell the model something", answer: "message" },
    ];
  }

  private pick(c: Choice): ApprovalStep {
    if (c.answer === "reason") this.reasoning = true;
    else if (c.answer === "message") this.messaging = true;
    else return { kind: "answer", answer: c.answer };
    return undefined;
  }

  /** Typing a reason or a message (not answers): the question's own keys are text here. */
  get typing(): boolean {
    return this.reasoning || this.messaging;
  }

  /** One key at the question; the editor holds a reason or a message being typed. */
  handle(ev: InputEvent, editor: LineEditor): ApprovalStep {
    if (ev.type === "key" && ev.ctrl && ev.ch === "c") return { kind: "answer", answer: { kind: "cancel" } };
    if (ev.type === "key" && ev.name === "escape") {
      // Esc while typing a reason or a message goes back to the answers; otherwise it refuses and cancels
      // the turn.
      if (this.typing) {
        this.reasoning = false;
        this.messaging = false;
        editor.clear();
        return undefined;
      }
      return { kind: "answer", answer: { kind: "cancel" } };
    }
    if (this.messaging) {
      if (applyInput(editor, ev) !== "submit") return undefined;
      const text = editor.submit();
      this.messaging = false;
      return text.trim() === "" ? undefined : { kind: "message", text, asked: true };
    }
    if (this.reasoning) {
      if (applyInput(editor, ev) !== "submit") return undefined;
      const why = editor.submit().trim();
      return { kind: "answer", answer: why ? { kind: "no", reason: why } : { kind: "no" } };
    }
    if (editor.isEmpty && ev.type === "key") {
      if (ev.name === "char" && !ev.ctrl && !ev.alt) {
        const k = (ev.ch ?? "").toLowerCase();
        const c = this.choices.find((x) => x.key === k);
        if (c) return this.pick(c);
        if (k === "a") return { kind: "hint", text: ALWAYS_NOT_OFFERED };
      }
      const n = this.choices.length;
      if (ev.name === "left" || ev.name === "up") {
        this.at = (this.at + n - 1) % n;
        return undefined;
      }
      if (ev.name === "right" || ev.name === "down") {
        this.at = (this.at + 1) % n;
        return undefined;
      }
      if (ev.name === "tab") {
        this.messaging = true;
        return undefined;
      }
      if (ev.name === "enter") return this.pick(this.choices[this.at] as Choice);
    }
    if (applyInput(editor, ev) !== "submit") return undefined;
    const text = editor.submit();
    if (text.trim() === "") return undefined;
    return { kind: "message", text };
  }

  /** The question, the proposed change, the answers (the highlighted one marked) and its input line. */
  lines(width: number, t: ApprovalText): { head: string[]; prompt: string } {
    const [title = "", ...summary] = questionLines(this.req, t.clean, width);
    const answers = this.choices.map((c, i) => {
      const s = `${c.key} ${c.label}`;
      return i === this.at && !this.typing ? t.mark(` ${s} `) : t.dim(` ${s} `);
    });
    const head = [t.yellow(title), ...summary, ...this.proposal, ...packAnswers(answers, width, t)];
    const prompt = this.reasoning
      ? "why not? (Enter: no without a reason) › "
      : this.messaging
        ? "to the model (Enter queues it, Esc goes back) › "
        : "allow? › ";
    return { head, prompt };
  }
}

/** The answers on as few lines as they fit, two spaces in, broken only between two answers. */
function packAnswers(answers: readonly string[], width: number, t: ApprovalText): string[] {
  const lines: string[] = [];
  let cur = " ";
  for (const a of answers) {
    const next = `${cur} ${a}`;
    if (cur.trim() !== "" && t.width(next) > width) {
      lines.push(cur);
      cur = `  ${a}`;
    } else cur = next;
  }
  if (cur.trim() !== "") lines.push(cur);
  return lines.map((l) => t.fit(l, width));
}

export { NOT_AN_ANSWER };
