// Plain line input (stdin not a terminal, or a terminal without cursor control): lines from node:readline.
// Approval questions are answered with a line (y, a, n, n REASON); any other line is queued for the model
// rather than taken as an answer.
import { createInterface, type Interface } from "node:readline";
import type { ApprovalAnswer, ApprovalRequest } from "../agent/agent-session.ts";
import { sanitizeLine } from "../terminal/sanitize.ts";
import { visibleWidth } from "../terminal/width.ts";
import {
  ALWAYS_NOT_OFFERED,
  answerChoices,
  canAlways,
  isUnofferedAlways,
  NOT_AN_ANSWER,
  packChoices,
  parseApproval,
  questionLines,
} from "./approval-question.ts";
import type { ConsoleUi, InputHandlers, InputSide } from "./ports.ts";

export class LineInput implements InputSide {
  readonly rl: Interface;
  private approval: { req: ApprovalRequest; resolve(a: ApprovalAnswer): void } | undefined;
  /** the prompt is on screen and the cursor after it */
  private prompted = false;

  /** Listening starts at once, so piped input is never missed. */
  constructor(
    private readonly ui: ConsoleUi,
    private readonly interactive: boolean,
    private readonly handlers: InputHandlers,
  ) {
    this.rl = createInterface({
      input: process.stdin,
      output: process.stdout,
      prompt: "› ",
      terminal: interactive,
    });
    this.rl.on("line", (line) => this.onLine(line));
    this.rl.on("SIGINT", () => {
      if (this.approval) return this.settle({ kind: "cancel" });
      // Ctrl-C with a draft clears it and keeps the console.
      if (this.rl.line) this.rl.write(null, { ctrl: true, name: "u" });
      else {
        this.prompted = false;
        process.stdout.write("\n");
        handlers.interrupt();
        this.idle();
      }
    });
    this.rl.on("close", () => {
      // Ctrl-D at the prompt: what follows (the exit line) starts on a line of its own.
      if (this.prompted) process.stdout.write("\n");
      this.prompted = false;
      this.settle({ kind: "no", reason: "the input ended before an answer" });
      handlers.close();
    });
    if (!this.interactive) process.on("SIGINT", () => handlers.interrupt());
  }

  private onLine(line: string): void {
    this.prompted = false;
    const a = this.approval;
    if (!a) {
      this.handlers.line(line);
      return;
    }
    const always = canAlways(a.req);
    const answer = parseApproval(line, always, a.req);
    if (answer) {
      this.approval = undefined;
      a.resolve(answer);
    } else if (isUnofferedAlways(line, always)) {
      this.ui.print(this.ui.yellow(ALWAYS_NOT_OFFERED));
    } else if (line.trim() !== "") {
      this.handlers.steer(line);
      this.ui.print(this.ui.yellow(NOT_AN_ANSWER));
    }
  }

  private settle(a: ApprovalAnswer): void {
    const pending = this.approval;
    this.approval = undefined;
    pending?.resolve(a);
  }

  /** Lines are taken from the start (see the constructor). */
  start(): void {}

  stop(): void {
    this.rl.close();
  }

  ask(req: ApprovalRequest, proposal: readonly string[]): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      const { ui } = this;
      const [title = "", ...summary] = questionLines(req, sanitizeLine, ui.width());
      const choices = answerChoices(req, sanitizeLine, "Ctrl-C");
      const answers = packChoices(choices, ui.width(), visibleWidth).map((l) => ui.yellow(l));
      ui.print(ui.yellow(title), ...summary, ...proposal, ...answers);
      this.approval = { req, resolve };
    });
  }

  hint(text: string): void {
    if (text) this.ui.print(this.ui.dim(text));
  }

  idle(): void {
    if (!this.interactive || this.handlers.busy || this.approval) return;
    this.rl.prompt();
    this.prompted = true;
  }
}
