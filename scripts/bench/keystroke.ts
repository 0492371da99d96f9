// Keystroke-to-frame time in a long session, in process: the console's real input (LiveInput: the bytes
// decoded, keybindings and image paste filters, the prompt), view and screen drawing into a virtual
// terminal, after 10, 1,000 and 5,000 messages went through the view (user lines and markdown replies,
// committed to the scrollback the console keeps). Each sample is one key: its bytes arrive, and the frame
// is drawn and parsed by the terminal (the 16 ms frame timer is not waited for: flushed at once). The
// floor is the same key on a screen that holds nothing but the prompt, in the same run. Target: flat
// within 10% from 10 to 5,000 messages, ≤ 2 ms median at 5,000.
//   bun scripts/bench/keystroke.ts [--keys 400] [--sizes 10,1000,5000]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { RawInput } from "../../src/console/input/terminal.ts";
import { LiveInput } from "../../src/console/live-input.ts";
import type { InputHandlers } from "../../src/console/ports.ts";
import { Screen } from "../../src/console/ui/screen.ts";
import { ConsoleView } from "../../src/console/view.ts";
import { makeStyle } from "../../src/terminal/style.ts";
import { VirtualTerminal } from "../../test/helpers/vt.ts";
import { fmt, median, quantile } from "./stats.ts";

const { values } = parseArgs({
  options: { keys: { type: "string", default: "400" }, sizes: { type: "string", default: "10,1000,5000" } },
});
const KEYS = Number(values.keys);
const SIZES = String(values.sizes).split(",").map(Number);
const caps = { color: true, cursor: true };
const s = makeStyle(caps);
const dir = mkdtempSync(join(tmpdir(), "i-bench-keys-"));

const handlers: InputHandlers = {
  line: () => {},
  steer: () => {},
  interrupt: () => {},
  escape: () => {},
  cycleMode: () => {},
  expandReasoning: () => {},
  close: () => {},
  commandNames: () => ["/help", "/exit"],
  commandMenu: () => [{ name: "help", help: "list the commands" }],
  findFiles: () => [],
  completePath: () => [],
  mcpResources: () => [],
  busy: false,
};

const REPLY = [
  "Here is what I found in **the module**:",
  "",
  "- `parse()` reads the header",
  "- `check()` validates it against the schema",
  "",
  "```ts\nconst x = parse(input); // the header\n```",
].join("\n");

/** A console that went through `messages` messages, with the prompt mounted and drawn. */
function session(messages: number): { screen: Screen; keys: FakeKeys } {
  const vt = new VirtualTerminal(100, 40);
  const screen = new Screen(vt, caps);
  const view = new ConsoleView(screen, s, { model: "m", provider: "p", tokensIn: 0, tokensOut: 0 });
  view.showStatus();
  for (let i = 0; i < messages; i++) {
    if (i % 2 === 0) view.print(`${s.bold("›")} question number ${i} about the parser and its schema`);
    else {
      view.onEvent({ type: "turn_start", turn: i });
      for (let c = 0; c < REPLY.length; c += 16)
        view.onEvent({ type: "text_delta", text: REPLY.slice(c, c + 16) });
      view.turnEnded();
    }
    if (i % 50 === 0) screen.flush();
  }
  return { screen, keys: started(screen) };
}

/** The console's input on `screen`, started on keys the bench sends. */
function started(screen: Screen): FakeKeys {
  const keys = new FakeKeys();
  const input = new LiveInput(screen, s, handlers, { dataDir: dir, workspace: dir }, undefined, {
    input: keys,
    write: () => {},
  });
  input.start();
  screen.flush();
  // The bench's keys must reach the prompt, or it would time nothing.
  keys.send("x");
  if (input.prompt.editor.text !== "x") throw new Error("the bench's keys do not reach the prompt");
  keys.send("\u007f");
  return keys;
}

/** A terminal that sends what the bench types: bytes go to the input's data listener at once. */
class FakeKeys implements RawInput {
  private listener: ((chunk: Buffer | string) => void) | undefined;
  on(_e: "data", cb: (chunk: Buffer | string) => void): void {
    this.listener = cb;
  }
  off(): void {
    this.listener = undefined;
  }
  resume(): void {}
  pause(): void {}
  send(bytes: string): void {
    this.listener?.(bytes);
  }
}

/** Milliseconds per key, from the key to its frame drawn (a word typed, then rubbed out, over and over). */
function typing(screen: Screen, keys: FakeKeys): number[] {
  const text = "the quick brown fox jumps over the lazy dog ";
  const out: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    const bytes = i % 40 < 30 ? (text[i % text.length] as string) : "\u007f";
    const t0 = performance.now();
    keys.send(bytes);
    screen.flush();
    out.push(performance.now() - t0);
  }
  return out;
}

// The floor: a screen with only the prompt on it.
const bareScreen = new Screen(new VirtualTerminal(100, 40), caps);
const bareKeys = started(bareScreen);
typing(bareScreen, bareKeys); // warm-up
const rows: Array<[string, number[]]> = [["floor (prompt only)", typing(bareScreen, bareKeys)]];
for (const n of SIZES) {
  const { screen, keys } = session(n);
  typing(screen, keys); // warm-up
  rows.push([`${n} messages`, typing(screen, keys)]);
}
const base = median(rows[1]?.[1] ?? []);
for (const [name, xs] of rows)
  console.log(
    `keystroke to frame, ${name}: median ${fmt(median(xs), 3)} ms  p90 ${fmt(quantile(xs, 0.9), 3)} ms  (n=${xs.length})${name.endsWith("messages") ? `  ${fmt((median(xs) / base - 1) * 100, 1)}% vs ${SIZES[0]}` : ""}`,
  );
rmSync(dir, { recursive: true, force: true });
