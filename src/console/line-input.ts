// Plain line input (stdin not a terminal, or a terminal without cursor control): lines from node:readline.
// Approval questions are answered with a line (y, a, n, n REASON); any other line is queued for the model
// rather than taken as an answer.
import { createInterface, type Interface } from "node:readline";
import { sanitizeLine } from "../terminal/sanitize.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../tools/approvals.ts";
import { ALWAYS_NOT_OFFERED, isUnofferedAlways, parseApproval } from "./input/prompt.ts";
import type { SessionLoop } from "./session-loop.ts";
import type { ConsoleUi } from "./slash.ts";
import type { InputSide } from "./view-io.ts";

export class LineInput implements InputSide {
  readonly rl: Interface;
  private approval: { req: ApprovalRequest; resolve(a: ApprovalAnswer): void } | undefined;
  private loop!: SessionLoop;
  /** the prompt is on screen and the cursor after it */
  private prompted = false;

  constructor(
    private readonly ui: ConsoleUi,
    private readonly interactive: boolean,
  ) {
    this.rl = createInterface({
      input: process.stdin,
      output: process.stdout,
      prompt: "› ",
      terminal: interactive,
    });
  }

  /** Wire readline to the loop; listening starts at once, so piped input is never missed. */
  attach(loop: SessionLoop): void {
    this.loop = loop;
    this.rl.on("line", (line) => {
      this.prompted = false;
      const a = this.approval;
      if (a) {
        const canAlways = a.req.tool !== "bash" || a.req.prefix !== undefined;
        const answer = parseApproval(line, canAlways);
        if (answer) {
          this.approval = undefined;
          a.resolve(answer);
        } else if (isUnofferedAlways(line, canAlways)) {
          this.ui.print(this.ui.yellow(ALWAYS_NOT_OFFERED));
        } else if (line.trim() !== "") {
          loop.steer(line);
          this.ui.print(
            this.ui.yellow("that is not an answer: answer y, n, or n and a reason (Ctrl-C cancels)"),
          );
        }
        return;
      }
      loop.line(line);
    });
    this.rl.on("SIGINT", () => {
      if (this.approval) return this.settle({ kind: "cancel" });
      // Ctrl-C with a draft clears it and keeps the console.
      if (this.rl.line) this.rl.write(null, { ctrl: true, name: "u" });
      else {
        this.prompted = false;
        process.stdout.write("\n");
        loop.interrupt();
        this.idle();
      }
    });
    this.rl.on("close", () => {
      // Ctrl-D at the prompt: what follows (the exit line) starts on a line of its own.
      if (this.prompted) process.stdout.write("\n");
      this.prompted = false;
      this.settle({ kind: "no", reason: "the input ended before an answer" });
      loop.close();
    });
    if (!this.interactive) process.on("SIGINT", () => loop.interrupt());
  }

  private settle(a: ApprovalAnswer): void {
    const pending = this.approval;
    this.approval = undefined;
    pending?.resolve(a);
  }

  ask(req: ApprovalRequest): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      const { ui } = this;
      const always =
        req.tool === "bash"
          ? req.prefix
            ? `, a (don't ask again for \`${sanitizeLine(req.prefix)} …\`)`
            : ""
          : `, a (every ${req.tool} this session)`;
      ui.print(
        ui.yellow(req.tool === "bash" ? "? allow this command to run:" : `? allow ${req.tool}:`),
        ...req.summary.split("\n").map((l) => `  │ ${sanitizeLine(l)}`),
        ui.yellow(`answer y${always}, n, or n REASON; Ctrl-C cancels the turn`),
      );
      this.approval = { req, resolve };
    });
  }

  hint(text: string): void {
    if (text) this.ui.print(this.ui.dim(text));
  }

  idle(): void {
    if (!this.interactive || this.loop.busy || this.approval) return;
    this.rl.prompt();
    this.prompted = true;
  }

  close(): void {
    this.rl.close();
  }
}
