// One `i -p --json` run as a child process: the prompt on stdin, every event appended to the execution
// file (NDJSON) as it comes and handed to `onEvent`, stderr kept for the error line. A SIGTERM or SIGINT
// to the action (the job's timeout, a cancel) is passed on, so `i` ends its turn and writes its session
// and trajectory before the step ends.
import { spawn } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
import type { StreamEvent } from "./log-lines.ts";

export interface RunResult {
  code: number;
  /** the last lines `i` wrote on stderr */
  stderr: string[];
  signal?: string;
}

export function runI(
  bin: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  prompt: string,
  cwd: string,
  executionFile: string,
  onEvent: (ev: StreamEvent) => void,
  onStderr: (line: string) => void,
): Promise<RunResult> {
  writeFileSync(executionFile, "");
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, [...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let forwarded: string | undefined;
    const forward = (sig: NodeJS.Signals) => {
      forwarded ??= sig;
      child.kill("SIGTERM");
    };
    const onTerm = () => forward("SIGTERM");
    const onInt = () => forward("SIGINT");
    process.on("SIGTERM", onTerm);
    process.on("SIGINT", onInt);
    const stderr: string[] = [];
    let out = "";
    let err = "";
    const line = (l: string) => {
      if (l.trim() === "") return;
      appendFileSync(executionFile, `${l}\n`);
      try {
        onEvent(JSON.parse(l) as StreamEvent);
      } catch {
        onStderr(l);
      }
    };
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      const parts = out.split("\n");
      out = parts.pop() ?? "";
      for (const p of parts) line(p);
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      err += c;
      const parts = err.split("\n");
      err = parts.pop() ?? "";
      for (const p of parts) {
        if (p.trim() === "") continue;
        stderr.push(p);
        if (stderr.length > 20) stderr.shift();
        onStderr(p);
      }
    });
    child.on("error", (e) => {
      process.off("SIGTERM", onTerm);
      process.off("SIGINT", onInt);
      reject(new Error(`cannot start ${bin}: ${e.message}`));
    });
    child.on("close", (code, signal) => {
      process.off("SIGTERM", onTerm);
      process.off("SIGINT", onInt);
      if (out) line(out);
      if (err.trim()) stderr.push(err);
      resolvePromise({
        code: code ?? (signal ? 128 + (signal === "SIGKILL" ? 9 : 15) : 1),
        stderr,
        ...(forwarded ? { signal: forwarded } : {}),
      });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(prompt);
  });
}
