// The question a console asks at start when this workspace has its own hooks, agents or MCP servers that
// the user has not accepted (or that changed since): what each file would run, then y or n in one key.
// Yes accepts exactly what was shown (remembered per workspace, asked again when a file changes); no goes
// on without them, said in one line. Asked before the input is live, on the raw terminal; every line of
// the files' text is cleaned before it is shown.
import type { RawStdin } from "../terminal/raw-stdin.ts";
import type { ConsoleUi } from "./ports.ts";

/** What the question needs of the session (the facade's trust methods). */
export interface TrustTarget {
  projectFilesToTrust(): { lines: string[] } | undefined;
  acceptProjectFiles(): void;
  declineProjectFiles(): void;
}

/** One key: y (yes); n, Esc, Ctrl-C or Ctrl-D (no); anything else is ignored. What follows it is kept. */
export function readYesNo(stdin: RawStdin): Promise<boolean> {
  return new Promise((resolve) => {
    // Whatever ends the process while it waits (a signal), the terminal is not left raw.
    const unraw = () => stdin.setRawMode?.(false);
    const onData = (chunk: Buffer) => {
      const s = chunk.toString("utf8");
      const key = s[0] ?? "";
      const yes = key === "y" || key === "Y";
      // Esc alone, not the start of an arrow key's sequence.
      const no = key === "n" || key === "N" || key === "\x03" || key === "\x04" || s === "\x1b";
      if (!yes && !no) return;
      stdin.off("data", onData);
      process.off("exit", unraw);
      unraw();
      stdin.pause();
      const rest = s.slice(1);
      if (rest && s !== "\x1b") stdin.unshift?.(Buffer.from(rest, "utf8"));
      resolve(yes);
    };
    process.once("exit", unraw);
    stdin.setRawMode?.(true);
    stdin.on("data", onData);
    stdin.resume();
  });
}

/** Ask about the workspace's pending files, if any; `flush` draws what was printed before the key is read. */
export async function askProjectTrust(
  target: TrustTarget,
  ui: ConsoleUi,
  stdin: RawStdin,
  flush: () => void,
): Promise<void> {
  const pending = target.projectFilesToTrust();
  if (!pending) return;
  ui.print(
    ui.yellow("? this project has its own files that run programs:"),
    ...pending.lines.map((l) => ui.clean(l)),
    ui.yellow("trust them for this workspace? y = yes (remembered until a file changes) · n = no"),
  );
  flush();
  if (await readYesNo(stdin)) {
    target.acceptProjectFiles();
    ui.print(ui.dim("trusted: they apply from now on"));
  } else {
    target.declineProjectFiles();
    ui.print(ui.yellow("not trusted: this session goes on without them (/trust accepts them later)"));
  }
  flush();
}
