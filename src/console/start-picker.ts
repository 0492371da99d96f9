// `i -r` without an id: before any session opens, the picker of this workspace's saved sessions (every
// workspace's with --all) in the live region, on raw keys of its own; it resolves to the chosen id, or
// undefined when the user leaves it (Esc, Ctrl-C). The terminal is back in its normal mode either way.
import { type ListedMeta, savedSessions } from "../agent/agent-session.ts";
import { UserError } from "../contract/errors.ts";
import { sanitizeLine } from "../terminal/sanitize.ts";
import type { Style } from "../terminal/style.ts";
import { truncate, visibleWidth } from "../terminal/width.ts";
import { Picker, type PickerText } from "./input/picker.ts";
import { TerminalInput } from "./input/terminal.ts";
import { sessionPickRequest } from "./session-picker.ts";
import type { Screen } from "./ui/screen.ts";

const PICK_MAX = 200;

export function sessionsToPick(all: boolean, workspace: string | undefined): ListedMeta[] {
  const list = savedSessions({ workspace, all }).slice(0, PICK_MAX);
  if (list.length === 0)
    throw new UserError(
      all
        ? "i -r: there are no saved sessions yet; start one with `i`"
        : "i -r: no saved sessions in this workspace; `i -r --all` lists every workspace's, `i` starts one",
    );
  return list;
}

export function pickAtStart(
  screen: Screen,
  s: Style,
  list: readonly ListedMeta[],
  all: boolean,
): Promise<string | undefined> {
  const text: PickerText = {
    clean: sanitizeLine,
    dim: s.dim,
    yellow: s.yellow,
    width: visibleWidth,
    fit: truncate,
  };
  const where = all ? "of every workspace" : "of this workspace";
  const picker = new Picker(
    sessionPickRequest(list, {
      title: `resume a session ${where} (${list.length} saved, newest first):`,
      all,
    }),
  );
  return new Promise((resolve) => {
    // SIGTERM or SIGHUP while the picker is up: the terminal back as it was, the shell's exit status.
    const signals = (["SIGTERM", "SIGHUP"] as const).map((sig) => {
      const h = () => {
        input.stop();
        screen.stop();
        process.exit(sig === "SIGTERM" ? 143 : 129);
      };
      process.once(sig, h);
      return [sig, h] as const;
    });
    const input = new TerminalInput(
      process.stdin,
      (t) => process.stdout.write(t),
      (ev) => {
        const out = picker.handle(ev);
        if (!out) {
          screen.invalidate();
          return;
        }
        input.stop();
        for (const [sig, h] of signals) process.off(sig, h);
        screen.unmount("picker");
        screen.flush();
        resolve(out.kind === "chosen" ? list[out.index]?.id : undefined);
      },
    );
    screen.mount("picker", { render: (width) => picker.render(width, text) }, 100);
    input.start();
    screen.flush();
  });
}
