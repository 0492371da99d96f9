// The console without a live region (stdin or stdout not a terminal, TERM=dumb): lines come from
// node:readline, output is appended. Approval questions are answered with a line (y, a, n, n REASON);
// any other line is queued for the model rather than taken as an answer.
import { createInterface, type Interface } from "node:readline";
import type { AgentEvent } from "../contract/events.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../tools/approvals.ts";
import { parseApproval } from "./input/prompt.ts";
import { bold, dim, red, renderEvent, yellow } from "./render.ts";
import type { ConsoleIo, SessionLoop } from "./session-loop.ts";
import type { ConsoleUi } from "./slash.ts";

/** Control characters shown as ^X: untrusted text never reaches the terminal raw. */
export function inert(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    out += (c < 32 && ch !== "\t") || c === 127 ? `^${String.fromCharCode((c + 64) % 128)}` : ch;
  }
  return out;
}

export class LineIo implements ConsoleIo {
  private midLine = false;
  private promptShown = false;
  private approval: { req: ApprovalRequest; resolve(a: ApprovalAnswer): void } | undefined;
  private readonly out = process.stdout;
  readonly rl: Interface;
  loop!: SessionLoop;

  readonly ui: ConsoleUi = {
    print: (...lines) => {
      for (const l of lines) this.write(`${l}\n`);
    },
    clean: inert,
    dim,
    yellow,
    red,
    bold,
    clearScreen: () => {},
  };

  constructor(readonly interactive: boolean) {
    this.rl = createInterface({
      input: process.stdin,
      output: this.out,
      prompt: "› ",
      terminal: interactive,
    });
  }

  private write(s: string): void {
    if (this.midLine || this.promptShown) this.out.write("\n");
    this.midLine = false;
    this.promptShown = false;
    this.out.write(s);
  }

  /** Wire readline to the loop; listening starts at once, so piped input is never missed. */
  attach(loop: SessionLoop): void {
    this.loop = loop;
    this.rl.on("line", (line) => {
      this.promptShown = false;
      const a = this.approval;
      if (a) {
        const answer = parseApproval(line, a.req.tool !== "bash" || a.req.prefix !== undefined);
        if (answer) {
          this.approval = undefined;
          a.resolve(answer);
        } else if (line.trim() !== "") {
          loop.steer(line);
          this.ui.print(yellow("that is not an answer: answer y, n, or n and a reason (Ctrl-C cancels)"));
        }
        return;
      }
      loop.line(line);
      this.prompt();
    });
    this.rl.on("SIGINT", () => {
      if (this.approval) return this.settle({ kind: "cancel" });
      if (this.rl.line) {
        // Ctrl-C with a draft clears it and keeps the console.
        this.rl.write(null, { ctrl: true, name: "u" });
        return;
      }
      loop.interrupt();
      this.prompt();
    });
    this.rl.on("close", () => {
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

  /** Show the prompt when the console is idle (only on a terminal). */
  prompt(): void {
    if (!this.interactive || this.loop.busy || this.approval) return;
    if (this.midLine) this.out.write("\n");
    this.midLine = false;
    this.rl.prompt();
    this.promptShown = true;
  }

  event(ev: AgentEvent): void {
    if (ev.type === "text_delta") {
      if (this.promptShown) this.out.write("\n");
      this.promptShown = false;
      this.out.write(inert(ev.text).replaceAll("^J", "\n"));
      this.midLine = !ev.text.endsWith("\n");
      return;
    }
    const line = renderEvent(ev);
    if (line) this.ui.print(line);
  }

  replyEnded(): void {
    if (this.midLine) this.write("");
    this.prompt();
  }

  userLine(text: string, replayed: boolean): void {
    // Typed lines are already on the screen (the terminal echoed them); replayed ones are not.
    if (replayed || !this.interactive) {
      const [first, ...rest] = text.split("\n");
      this.ui.print(`${bold("›")} ${inert(first ?? "")}`, ...rest.map((l) => `  ${inert(l)}`));
    }
  }

  hint(text: string): void {
    if (text) this.ui.print(dim(text));
  }

  ask(req: ApprovalRequest): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      const always =
        req.tool === "bash"
          ? req.prefix
            ? `, a (don't ask again for \`${inert(req.prefix)} …\`)`
            : ""
          : ", a (every " + req.tool + " this session)";
      this.ui.print(
        yellow(req.tool === "bash" ? "? allow this command to run:" : `? allow ${req.tool}:`),
        ...req.summary.split("\n").map((l) => `  │ ${inert(l)}`),
        yellow(`answer y${always}, n, or n REASON; Ctrl-C cancels the turn`),
      );
      this.approval = { req, resolve };
    });
  }

  sessionChanged(): void {}

  close(): void {
    this.rl.close();
  }
}
