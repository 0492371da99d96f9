// The console's inner interfaces, in one place. The session loop (session-loop.ts) drives the session
// through AgentSession and talks to two sides, both given to it when it is built: the output (ConsoleIo,
// over the render model) and the input (InputSide: the live prompt or plain lines), which it builds with
// itself as the input's InputHandlers. The prompt editor reports keys through PromptHooks.
import type { AgentSession, ApprovalAnswer, ApprovalRequest } from "../agent/agent-session.ts";
import type { AgentEvent } from "../contract/events.ts";
import type { PickRequest } from "./input/picker.ts";

/** What the console shows; untrusted text goes through `clean` before any styling. */
export interface ConsoleUi {
  /** finished, styled lines for the transcript */
  print(...lines: string[]): void;
  clean(s: string): string;
  dim(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  bold(s: string): string;
  /** columns the transcript is wrapped to */
  width(): number;
  clearScreen(): void;
}

/** What the status line shows of the session. */
export type SessionState = Pick<
  AgentSession,
  "id" | "title" | "model" | "provider" | "history" | "approvalMode" | "sessionUsage"
>;

/** How the loop shows things; implemented over the console's render model. */
export interface ConsoleIo {
  ui: ConsoleUi;
  /** an agent event, rendered like live output */
  event(ev: AgentEvent): void;
  /** a reply ended (or, replayed, only its text block): close the text block */
  replyEnded(replayed?: boolean): void;
  /** a resumed session's replay is over: nothing it showed is running (no spinner, no open block) */
  replayEnded(): void;
  /** what the user sent (or sent earlier, when a resumed session is replayed), for the transcript */
  userLine(text: string, replayed: boolean): void;
  /** an approval question is about to be asked: the activity pauses; returns the proposed change's lines */
  approvalAsked(req: ApprovalRequest): string[];
  /** the approval question was answered */
  approvalAnswered(): void;
  /** the last reasoning the model streamed, shown whole (dimmed) */
  expandReasoning(): void;
  /** a line of our own (styled, safe) that must not split a running tool's header from its result */
  note(line: string): void;
  /** `!command` started, printed output, ended: shown like the model's bash while it runs */
  shellStarted(command: string): void;
  shellOutput(text: string): void;
  shellEnded(): void;
  /** the user asked the running operation to stop: what fails now fails by their choice, not in red */
  cancelRequested(): void;
  /** the session changed (status line: model, title) */
  sessionChanged(session: SessionState): void;
}

/** What differs between the live prompt and plain line input. */
export interface InputSide {
  /** take keys (or lines) */
  start(): void;
  /** stop taking them; a question still waiting is answered no */
  stop(): void;
  /** `proposal`: the change the request would make, styled, shown with the question */
  ask(req: ApprovalRequest, proposal: readonly string[]): Promise<ApprovalAnswer>;
  /** a list to choose from, where the input can draw one (the live prompt; plain lines cannot) */
  pick?(req: PickRequest): Promise<number | undefined>;
  /** a transient hint under the input ("press Ctrl-C again to exit"); "" clears it */
  hint(text: string): void;
  /** the loop became idle (line input shows its prompt) */
  idle(): void;
  /** put `text` in the input box to edit (where there is one) */
  setDraft?(text: string): void;
  /** search the transcript for `query` (the live prompt); false when nothing matches */
  find?(query: string): boolean;
}

/** What an input reports to the session loop. */
export interface InputHandlers {
  /** a submitted line */
  line(text: string): void;
  /** a line for the model (typed at an approval prompt, not an answer): queued, never lost */
  steer(text: string): void;
  /** Ctrl-C on an empty line */
  interrupt(): void;
  /** Esc */
  escape(): void;
  /** Shift+Tab: the next approval mode */
  cycleMode(): void;
  /** Ctrl-O: the last reasoning shown whole */
  expandReasoning(): void;
  /** Ctrl-D on an empty line, or the input ended */
  close(): void;
  /** the commands Tab completes */
  commandNames(): string[];
  /** the commands the `/` menu offers, each with its one line of help */
  commandMenu(): Array<{ name: string; help: string }>;
  /** workspace files matching a query fuzzily (the `@` menu) */
  findFiles(query: string): string[];
  /** the workspace paths that complete a partial `@path` */
  completePath(partial: string): string[];
  /** MCP resources the `@` menu offers (`SERVER:URI`, with the server's name for it) */
  mcpResources(): Array<{ value: string; detail: string }>;
  /** a turn or a command runs */
  readonly busy: boolean;
}

/** What the prompt editor reports (the live input hands it on to InputHandlers). */
export interface PromptHooks {
  /** Enter on a draft (pastes expanded) */
  submit(text: string): void;
  /** Ctrl-C on an empty draft */
  interrupt(): void;
  /** Esc outside search and approval */
  escape(): void;
  /** Ctrl-D on an empty draft */
  eof(): void;
  /** Shift+Tab: the next approval mode (ask → accept edits → all) */
  cycleMode(): void;
  /** Ctrl-O: the last reasoning shown whole */
  expand(): void;
  /** text entered at the approval prompt that is not an answer: it must not be lost */
  notAnswer(text: string): void;
  /** something changed: redraw */
  changed(): void;
  /** Ctrl-G: edit the draft in the user's editor */
  editor?(): void;
  /** Ctrl-F: search the transcript */
  find?(): void;
}
