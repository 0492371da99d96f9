// Ctrl-G: the draft in the user's own editor ($VISUAL, else $EDITOR), as git and other agents do. The
// draft goes into a private temporary file, the terminal is handed over (raw mode and bracketed paste off,
// the live region erased, the screen drawing nothing meanwhile), the editor runs through the shell (so
// "code --wait" or "vim -u NONE" work as written), and what it saved comes back as the draft. A Ctrl-C
// meant for the editor does not end the console, and the terminal is taken back whatever the editor did.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The editor command the environment names, or undefined. */
export function editorCommand(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const name of ["VISUAL", "EDITOR"] as const) {
    const v = env[name]?.trim();
    if (v) return v;
  }
  return undefined;
}

export type EditorOutcome =
  | { kind: "edited"; text: string }
  | { kind: "failed"; reason: string }
  | { kind: "none" };

/** What the terminal must do around the editor: give the terminal away, and take it back. */
export interface Handover {
  release(): void;
  reclaim(): void;
}

function runEditor(command: string, file: string, signal: AbortSignal | undefined): Promise<number | string> {
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", `${command} "$1"`, "i-editor", file], { stdio: "inherit" });
    // The console ending (a signal) while the editor runs must not leave the editor behind.
    const kill = () => child.kill("SIGTERM");
    const done = () => {
      process.off("exit", kill);
      signal?.removeEventListener("abort", kill);
    };
    process.once("exit", kill);
    signal?.addEventListener("abort", kill);
    child.once("error", (err) => {
      done();
      resolve(err.message);
    });
    child.once("exit", (code, sig) => {
      done();
      resolve(sig ? `killed by ${sig}` : (code ?? 1));
    });
  });
}

/** Edit `draft` in the user's editor; the draft comes back changed, or the reason it could not. */
export async function editInEditor(
  draft: string,
  handover: Handover,
  signal?: AbortSignal,
): Promise<EditorOutcome> {
  const command = editorCommand();
  if (!command) return { kind: "none" };
  const dir = mkdtempSync(join(tmpdir(), "i-prompt-"));
  const file = join(dir, "prompt.md");
  const ignoreInterrupt = () => {};
  try {
    writeFileSync(file, draft, { mode: 0o600 });
    handover.release();
    process.on("SIGINT", ignoreInterrupt);
    let status: number | string;
    try {
      status = await runEditor(command, file, signal);
    } finally {
      process.off("SIGINT", ignoreInterrupt);
      handover.reclaim();
    }
    if (status !== 0)
      return {
        kind: "failed",
        reason: `the editor (${command}) ${typeof status === "number" ? `exited with status ${status}` : status}; the draft is as it was`,
      };
    // Editors end a file with a newline the user never typed.
    return { kind: "edited", text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
  } catch (err) {
    return { kind: "failed", reason: `could not edit the draft: ${(err as Error).message}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
