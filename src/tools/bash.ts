// `bash`: run a shell command in the workspace. Subject to the approval policy; bounded by a timeout
// that kills the whole process group; output capped head+tail with a note on what was cut.

import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join, sep } from "node:path";
import { z } from "zod";
import { formatBytes } from "../lib/truncate.ts";
import { CREDENTIAL_ENV } from "../runtime/credential-handoff.ts";
import { commandPrefix } from "./approvals.ts";
import { guardCheck } from "./bash-guard.ts";
import { changingTool } from "./changing-tool.ts";
import { resolveInWorkspace } from "./paths.ts";
import { runInProcessGroup } from "./run-process.ts";
import { sandboxed } from "./sandbox.ts";
import { savedNote } from "./saved-output.ts";
import { ToolError } from "./tool-error.ts";
import type { CommandTerminal, CoreTool, ToolContext, ToolResult } from "./types.ts";

export const BASH_DEFAULT_TIMEOUT_S = 120;
export const BASH_MAX_TIMEOUT_S = 600;
export const BASH_HEAD_BYTES = 16 * 1024;
export const BASH_TAIL_BYTES = 16 * 1024;

const BashInput = z.strictObject({
  command: z.string().min(1).describe("the command line, run with bash -c (sh -c where bash is missing)"),
  timeout: z
    .number()
    .positive()
    .max(BASH_MAX_TIMEOUT_S)
    .optional()
    .describe(
      `seconds before the command and everything it started are killed (default ${BASH_DEFAULT_TIMEOUT_S}, max ${BASH_MAX_TIMEOUT_S})`,
    ),
  workdir: z
    .string()
    .optional()
    .describe("directory to run the command in, relative to the workspace (default: the workspace itself)"),
});

let shellCache: string | undefined;

/**
 * The names a command `name` may have on disk: on Windows each PATHEXT extension (bash → bash.exe, as
 * cmd.exe finds it), elsewhere the name itself.
 */
function candidates(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  if (platform !== "win32") return [name];
  const exts = (env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter((e) => e.startsWith("."));
  return [...exts.map((e) => `${name}${e.toLowerCase()}`), name];
}

/** Windows' own bash.exe starts WSL, another system with other paths: not the shell a command expects. */
function isWslLauncher(path: string, env: NodeJS.ProcessEnv): boolean {
  const root = env.SystemRoot ?? env.SYSTEMROOT ?? "C:\\Windows";
  const p = path.toLowerCase();
  return ["System32", "Sysnative"].some((d) => p.startsWith(`${join(root, d)}${sep}`.toLowerCase()));
}

function onPath(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  const listSep = platform === "win32" ? ";" : delimiter;
  for (const dir of (env.PATH ?? env.Path ?? "").split(listSep)) {
    if (!dir) continue;
    for (const file of candidates(name, env, platform)) {
      const p = join(dir, file);
      if (platform === "win32" && isWslLauncher(p, env)) continue;
      try {
        accessSync(p, constants.X_OK);
        return p;
      } catch {}
    }
  }
  return undefined;
}

/** Where Git for Windows installs its bash, for a PATH that does not list it (the installer's default). */
function gitBash(env: NodeJS.ProcessEnv): string | undefined {
  const roots = [
    env.ProgramFiles,
    env["ProgramFiles(x86)"],
    env.LOCALAPPDATA && join(env.LOCALAPPDATA, "Programs"),
  ];
  for (const root of roots) {
    if (!root) continue;
    for (const rel of [["bin"], ["usr", "bin"]]) {
      const p = join(root, "Git", ...rel, "bash.exe");
      try {
        accessSync(p, constants.F_OK);
        return p;
      } catch {}
    }
  }
  return undefined;
}

/** bash when installed, else the POSIX sh; on Windows also Git Bash where its installer puts it. */
export function locateShell(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  return (
    onPath("bash", env, platform) ??
    (platform === "win32" ? gitBash(env) : undefined) ??
    onPath("sh", env, platform)
  );
}

/** The shell commands run with (found once); a clear error when there is none. */
export function findShell(env: NodeJS.ProcessEnv = process.env): string {
  shellCache ??= locateShell(env);
  if (!shellCache)
    throw new ToolError(
      process.platform === "win32"
        ? "no shell found: neither bash nor sh is on PATH (install Git for Windows, which brings Git Bash)"
        : "no shell found: neither bash nor sh is on PATH",
    );
  return shellCache;
}

/** The environment a command sees: ours without credentials, and nothing that waits for a person. */
export function commandEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const k of CREDENTIAL_ENV) delete env[k];
  env.GIT_TERMINAL_PROMPT = "0";
  env.PAGER = "cat";
  env.GIT_PAGER = "cat";
  return env;
}

function prefixOf(command: string): { prefix?: string } {
  const prefix = commandPrefix(command);
  return prefix ? { prefix } : {};
}

/** The directory a command runs in: `workdir` resolved in the workspace and checked to be a directory. */
function workingDir(ctx: ToolContext, workdir: string | undefined): { dir: string; shown?: string } {
  if (workdir === undefined || workdir === "" || workdir === ".") return { dir: ctx.workspace };
  const dir = resolveInWorkspace(ctx.workspace, workdir, ctx.allowOutside);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new ToolError(`workdir "${workdir}" does not exist; give a directory inside the workspace`);
  }
  if (!isDir) throw new ToolError(`workdir "${workdir}" is a file, not a directory`);
  return { dir, shown: workdir };
}

export const bashTool: CoreTool<typeof BashInput> = changingTool({
  name: "bash",
  description: `Run a shell command in the workspace directory (non-interactive: no stdin). Output is stdout and stderr together, capped at ${formatBytes(BASH_HEAD_BYTES + BASH_TAIL_BYTES)} (head and tail kept; a longer output is saved whole in a file the result names, for read). workdir runs it in a subdirectory. The exit code is reported. Timeout ${BASH_DEFAULT_TIMEOUT_S} s by default (max ${BASH_MAX_TIMEOUT_S} s).`,
  input: BashInput,
  async prepare(args, ctx) {
    const cwd = workingDir(ctx, args.workdir);
    const summary = cwd.shown ? `(in ${cwd.shown}) ${args.command}` : args.command;
    const guard = await guardCheck(args.command, cwd.dir, ctx);
    const request = { tool: "bash" as const, summary, ...prefixOf(args.command) };
    return {
      change: {
        request: guard.reason !== undefined ? { ...request, guard: guard.reason } : request,
        command: args.command,
      },
      apply: () => {
        // Allowed, and about to lose work in a repository: its state is recorded first (for /undo).
        if (guard.git) ctx.guard?.beforeGit?.(guard.git, args.command);
        return runCommand(args, ctx, cwd.dir);
      },
    };
  },
  relax(args) {
    // Other agents take milliseconds: 120000 means two minutes, not a mistake worth a round trip.
    const t = args.timeout;
    if (typeof t !== "number" || t <= BASH_MAX_TIMEOUT_S || t / 1000 > BASH_MAX_TIMEOUT_S) return [];
    args.timeout = t / 1000;
    return [
      `timeout ${t} is over the ${BASH_MAX_TIMEOUT_S} s maximum, so it was read as milliseconds: ${t / 1000} s`,
    ];
  },
});

async function runCommand(
  args: z.infer<typeof BashInput>,
  ctx: ToolContext,
  cwd: string,
): Promise<ToolResult> {
  const timeoutS = args.timeout ?? BASH_DEFAULT_TIMEOUT_S;
  const report = ctx.report;
  const decoder = new TextDecoder();
  const shell: [string, ...string[]] = [findShell(), "-c", args.command];
  const argv = ctx.sandbox ? sandboxed(ctx.sandbox, ctx.workspace, shell, cwd) : shell;
  const spill = ctx.outputs?.start(BASH_HEAD_BYTES + BASH_TAIL_BYTES);
  const onData = (b: Buffer) => {
    spill?.push(b);
    report?.({ kind: "output", text: decoder.decode(b, { stream: true }) });
  };
  // An editor's terminal when it offers one (the user watches the command there); never for a sandbox.
  const inTerminal =
    ctx.terminal && !ctx.sandbox ? await runInTerminal(ctx.terminal, argv, ctx, cwd, timeoutS) : undefined;
  const r =
    inTerminal ??
    (await runInProcessGroup(argv, {
      cwd,
      env: commandEnv(),
      timeoutMs: timeoutS * 1000,
      signal: ctx.signal,
      headBytes: BASH_HEAD_BYTES,
      tailBytes: BASH_TAIL_BYTES,
      ...(report || spill ? { onData } : {}),
    }));
  const saved = spill?.finish();
  report?.({ kind: "exit", code: r.code });
  const text = r.output.text();
  const notes: string[] = [];
  if (r.output.truncated)
    notes.push(
      saved ? savedNote(saved) : "[to see all of the output, redirect it to a file and read or grep that]",
    );
  if (r.timedOut) {
    notes.push(
      `[timed out after ${timeoutS} s: the command and every process it started were killed; give a longer timeout (max ${BASH_MAX_TIMEOUT_S} s) or make the command finish sooner]`,
    );
  } else if (r.aborted) {
    notes.push("[aborted by the user: the command and every process it started were killed]");
  } else if (r.code !== null) {
    notes.push(`[exit code ${r.code}]`);
  } else {
    notes.push(`[killed by signal ${r.signal}]`);
  }
  if (r.outputLeftOpen)
    notes.push("[background processes still hold the output open; later output is not captured]");
  const body = text === "" ? "(no output)" : text.endsWith("\n") ? text.slice(0, -1) : text;
  return { content: `${body}\n${notes.join("\n")}`, is_error: r.code !== 0 };
}

/** The command in the editor's terminal, as runInProcessGroup would have reported it; undefined: run it here. */
async function runInTerminal(
  terminal: CommandTerminal,
  argv: readonly string[],
  ctx: ToolContext,
  cwd: string,
  timeoutS: number,
) {
  const t = await terminal.run(argv, {
    cwd,
    unset: CREDENTIAL_ENV,
    timeoutMs: timeoutS * 1000,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    outputBytes: BASH_HEAD_BYTES + BASH_TAIL_BYTES,
  });
  if (!t) return undefined;
  return {
    code: t.code,
    signal: t.signal,
    timedOut: t.timedOut,
    aborted: t.aborted,
    outputLeftOpen: false,
    output: { text: () => t.output, truncated: t.truncated },
  };
}
