// The live prompt: raw keys decoded and handed to the prompt controller, which the Screen draws as the
// "input" component. Esc, Ctrl-C and Ctrl-D reach the session loop through the controller's hooks.

import type { ApprovalAnswer, ApprovalRequest } from "../agent/agent-session.ts";
import { sanitizeLine } from "../terminal/sanitize.ts";
import type { Style } from "../terminal/style.ts";
import { charWidth, truncate, visibleWidth } from "../terminal/width.ts";
import { ImageInput } from "./images/image-input.ts";
import { InputHistory } from "./input/history.ts";
import { KeyMap } from "./input/keymap.ts";
import type { PickRequest } from "./input/picker.ts";
import { PromptController } from "./input/prompt.ts";
import { resourceRows, resourceValues } from "./input/resource-completion.ts";
import { type RawInput, TerminalInput } from "./input/terminal.ts";
import type { InputHandlers, InputSide } from "./ports.ts";
import { plainText, TranscriptSearch } from "./transcript-search.ts";
import type { Screen } from "./ui/screen.ts";

export class LiveInput implements InputSide {
  readonly prompt: PromptController;
  private readonly terminal: TerminalInput;
  /** the editor open on the draft (Ctrl-G): stopping the console ends it */
  private editing: AbortController | undefined;
  /** the transcript search, while it is open (it takes the keys) */
  private search: TranscriptSearch | undefined;

  constructor(
    private readonly screen: Screen,
    private readonly style: Style,
    loop: InputHandlers,
    /** the input history's file is kept per workspace under the data directory */
    where: { dataDir: string; workspace: string },
    /** keybindings.json's keys, translated to the defaults the prompt knows */
    keymap: KeyMap = new KeyMap(undefined),
    /** where keys come from and terminal modes go (the process's terminal; a benchmark gives its own) */
    io: { input: RawInput; write: (s: string) => void } = {
      input: process.stdin,
      write: (t) => process.stdout.write(t),
    },
  ) {
    const history = InputHistory.forWorkspace(where.dataDir, where.workspace);
    this.prompt = new PromptController(
      {
        submit: (text) => loop.line(text),
        interrupt: () => loop.interrupt(),
        escape: () => loop.escape(),
        cycleMode: () => loop.cycleMode(),
        expand: () => loop.expandReasoning(),
        eof: () => loop.close(),
        notAnswer: (text) => loop.steer(text),
        changed: () => screen.invalidate(),
        editor: () => void this.openEditor(),
        find: () => this.find(""),
      },
      history,
      {
        charWidth,
        clean: sanitizeLine,
        dim: style.dim,
        yellow: style.yellow,
        // Marked by more than colour: without colours the highlighted answer still stands out.
        mark: (t) => style.inverse(`▸${t.slice(1)}`),
        width: visibleWidth,
        fit: truncate,
      },
      {
        commands: () => loop.commandNames(),
        paths: (partial) => [...loop.completePath(partial), ...resourceValues(partial, loop.mcpResources())],
        menu: {
          commands: () => loop.commandMenu(),
          paths: (partial) => loop.completePath(partial),
          files: (query) => loop.findFiles(query),
          resources: (partial) => resourceRows(partial, loop.mcpResources()),
        },
      },
    );
    if (history.problem) this.prompt.hint = history.problem;
    const images = new ImageInput({
      workspace: where.workspace,
      insert: (text) => this.prompt.handle({ type: "paste", text }),
      hint: (text) => this.hint(text),
    });
    this.terminal = new TerminalInput(io.input, io.write, (ev) => {
      if (this.search) {
        if (this.search.handle(ev) === "close") this.closeSearch();
        else screen.invalidate();
        return;
      }
      for (const k of keymap.translate(ev, this.prompt.asking))
        for (const e of this.prompt.asking ? [k] : images.filter(k)) this.prompt.handle(e);
    });
  }

  start(): void {
    this.screen.mount("input", this.prompt, 100);
    this.terminal.start();
  }

  /** Before the final lines: the prompt leaves the screen, so the exit line never lands on it. */
  stop(): void {
    this.editing?.abort();
    this.prompt.settle({ kind: "no", reason: "the console is closing" });
    this.terminal.stop();
    this.screen.unmount("input");
    this.screen.flush();
  }

  ask(req: ApprovalRequest, proposal: readonly string[]): Promise<ApprovalAnswer> {
    const answer = this.prompt.ask(req, proposal);
    this.screen.flush();
    return answer;
  }

  pick(req: PickRequest): Promise<number | undefined> {
    const chosen = this.prompt.pick(req);
    this.screen.flush();
    return chosen;
  }

  /** Ctrl-G: the draft goes to $VISUAL/$EDITOR and comes back as the draft (the terminal handed over meanwhile). */
  private async openEditor(): Promise<void> {
    const { editInEditor } = await import("./external-editor.ts");
    const editing = new AbortController();
    this.editing = editing;
    const out = await editInEditor(
      this.prompt.editor.expanded(),
      {
        release: () => {
          this.terminal.stop();
          this.screen.suspend();
        },
        reclaim: () => {
          this.screen.resume();
          if (!editing.signal.aborted) this.terminal.start();
        },
      },
      editing.signal,
    );
    this.editing = undefined;
    // The console stopped meanwhile (a signal): the editor was ended, the draft stays unsent.
    if (editing.signal.aborted) return;
    if (out.kind === "edited") this.setDraft(out.text);
    else
      this.hint(
        out.kind === "none"
          ? "set $VISUAL or $EDITOR to edit the message in an editor (Ctrl-G)"
          : sanitizeLine(out.reason),
      );
    this.screen.flush();
  }

  /** Open the transcript search (Ctrl-F, /find QUERY); false when a query has no match. */
  find(query: string): boolean {
    const kept = this.screen.transcript();
    // `/find QUERY` was echoed just now: the command is not what is looked for.
    const last = kept.findLastIndex((l) => plainText(l).trim() !== "");
    if (query !== "" && plainText(kept[last] ?? "").trim() === `› /find ${query}`) kept.length = last;
    const search = new TranscriptSearch(kept, this.style, query);
    if (query !== "" && search.count === 0) return false;
    this.search = search;
    this.screen.mount("search", search, 95);
    this.screen.flush();
    return true;
  }

  private closeSearch(): void {
    this.search = undefined;
    this.screen.unmount("search");
    this.screen.flush();
  }

  setDraft(text: string): void {
    this.prompt.editor.set(text);
    this.screen.invalidate();
  }

  hint(text: string): void {
    this.prompt.hint = text;
    this.screen.invalidate();
  }

  idle(): void {
    this.screen.invalidate();
  }
}
