// The root command: the interactive console, or print mode with -p.
import { resolve } from "node:path";
import type { ArgsDef } from "citty";
import pkg from "../../../package.json" with { type: "json" };
import { UserError } from "../../contract/errors.ts";
import type { ApprovalPolicy } from "../../tools/types.ts";
import { defineSubcommand } from "../command.ts";
import { RESUME_PICK } from "../resume-pick.ts";
import { SANDBOX_ARG, sandboxOption } from "../sandbox-option.ts";
import { TARGET_ARGS, targetFlags } from "../target-args.ts";

export const RUN_ARGS = {
  prompt: {
    type: "positional",
    description: "first message (print mode: the whole task); the words after it belong to it, quotes or not",
    required: false,
  },
  print: { type: "boolean", alias: "p", description: "one non-interactive run; prints the final answer" },
  json: { type: "boolean", description: "with -p: stream every event as NDJSON on stdout" },
  trajectory: {
    type: "string",
    valueHint: "file",
    description: "with -p: write the run as an ATIF trajectory to FILE when it ends (also on SIGTERM)",
  },
  "session-dir": {
    type: "string",
    valueHint: "dir",
    description:
      "keep this run's sessions in DIR (I_SESSION_DIR; instead of I_DATA_DIR), e.g. where a harness collects logs",
  },
  ...TARGET_ARGS,
  continue: { type: "boolean", alias: "c", description: "resume the newest session of this workspace" },
  resume: {
    type: "string",
    alias: "r",
    valueHint: "id",
    description:
      "resume the session with this id; without one, choose it in a picker of this workspace's sessions",
  },
  all: {
    type: "boolean",
    description: "with -r and no id: the picker lists the sessions of every workspace",
  },
  fork: {
    type: "boolean",
    description: "with -r or -c: continue in a new session with that session's history (it stays as it is)",
  },
  approve: {
    type: "enum",
    options: ["all", "edits", "ask", "none"],
    description:
      "who allows bash, write and edit: all runs everything; edits runs write and edit and asks for bash; ask asks each time (console default; refused at once without a terminal); none is read-only (print mode default)",
  },
  sandbox: SANDBOX_ARG,
  "allow-destructive": {
    type: "boolean",
    description:
      "run bash commands the guard flags as destructive (outside the workspace, git that loses work) without its extra question",
  },
  verbose: {
    type: "boolean",
    description:
      "write a debug log (worker starts, hook timings, retries, compaction decisions) to config_dir/logs/i.log, and in print mode to stderr too",
  },
  "max-turns": {
    type: "string",
    valueHint: "n",
    description: "stop after this many model requests (default: no limit)",
  },
} satisfies ArgsDef;

/** `--fork`: the session -r or -c names, forked; the run resumes the fork. */
async function forkedResume(
  resume: string | undefined,
  cont: boolean,
  workspace: string | undefined,
): Promise<string> {
  const { dataDir } = await import("../../config/paths.ts");
  const { resolveWorkspace } = await import("../../agent/options.ts");
  const { Session } = await import("../../session/session.ts");
  const { forkForResume } = await import("../../safety/cli-actions.ts");
  let id = resume;
  if (id === undefined && cont) id = Session.list(dataDir(), resolveWorkspace(workspace))[0]?.id;
  if (id === undefined)
    throw new UserError(
      cont
        ? "i --fork: no saved session in this workspace to fork"
        : "i --fork: give the session to fork with -r ID (or -c)",
    );
  return forkForResume(dataDir(), id);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** No cap unless asked for: a healthy long session must be able to finish. */
function parseMaxTurns(v: string | undefined): number {
  if (v === undefined) return Number.POSITIVE_INFINITY;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new UserError(
      `--max-turns: "${v}" is not a positive whole number; give the most model requests to make, e.g. --max-turns 20`,
    );
  return n;
}

/**
 * --session-dir / I_SESSION_DIR: this run's sessions (and its tasks', which inherit the environment) go
 * there instead of I_DATA_DIR, so a harness finds them with the logs it collects.
 */
function useSessionDir(flag: string | undefined): void {
  const dir = flag ?? process.env.I_SESSION_DIR;
  if (dir === undefined) return;
  if (dir === "") throw new UserError("--session-dir: give a directory (I_SESSION_DIR is set but empty)");
  process.env.I_DATA_DIR = resolve(dir);
}

export const command = defineSubcommand(
  { name: "i", description: "A coding agent for the terminal", args: RUN_ARGS, rest: true },
  async (args) => {
    useSessionDir(args["session-dir"]);
    // Every word is the prompt: `i -p fix the bug` must not send "fix" alone.
    const words = args._.length > 0 ? args._.join(" ") : args.prompt;
    const common = {
      ...targetFlags(args),
      continue: args.continue,
      resume: args.resume,
      maxTurns: parseMaxTurns(args["max-turns"]),
      ...(args["allow-destructive"] ? { allowDestructive: true } : {}),
      ...(await sandboxOption(args.sandbox)),
    };
    const pick = args.resume === RESUME_PICK;
    if (pick) common.resume = undefined;
    if (args.all && !pick)
      throw new UserError("i: --all goes with -r and no id (the session picker); add -r, or leave out --all");
    if (pick && (args.print || args.fork || !process.stdin.isTTY || !process.stdout.isTTY))
      throw new UserError(
        `i -r: give the session's id${args.print ? " in print mode" : args.fork ? " with --fork" : " without a terminal"} (\`i sessions\` lists them); the picker needs the console`,
      );
    if (args.continue && args.resume !== undefined)
      throw new UserError(
        "i: -c and -r both choose the session to resume; give -c (the newest) or -r ID, not both",
      );
    if (args.fork) common.resume = await forkedResume(args.resume, !!args.continue, common.workspace);
    if (args.json && !args.print)
      throw new UserError("i: --json goes with -p (print mode); add -p, or leave out --json");
    if (args.trajectory !== undefined && !args.print)
      throw new UserError("i: --trajectory goes with -p (print mode); add -p, or leave out --trajectory");
    const trajectory =
      args.trajectory === undefined
        ? undefined
        : (await import("../../agent/print-trajectory.ts")).trajectoryPath(args.trajectory);
    if (args.print) {
      let prompt = words ?? "";
      if (!prompt && !process.stdin.isTTY) prompt = (await readStdin()).trim();
      if (!prompt)
        throw new UserError('i -p: no prompt; pass it as an argument (i -p "fix the tests") or on stdin');
      // A new run's first request waits on its workers: they start now, while the agent's code loads.
      const prestarted =
        common.resume === undefined && !common.continue && common.manifest === undefined
          ? (await import("../../agent/child-prestart.ts")).prestartWorkers({
              ...(common.workspace !== undefined ? { workspace: common.workspace } : {}),
              ...(common.profile !== undefined ? { profile: common.profile } : {}),
            })
          : undefined;
      const { runPrintMode } = await import("../../agent/print-mode.ts");
      return runPrintMode({
        ...common,
        ...(prestarted ? { prestarted } : {}),
        prompt,
        json: !!args.json,
        ...(trajectory ? { trajectory, version: pkg.version } : {}),
        approve: (args.approve ?? "none") as ApprovalPolicy,
      });
    }
    // A first run in a terminal sets the user up instead of stopping at "no model chosen".
    const { setUpIfNeeded } = await import("../setup/needs-setup.ts");
    await setUpIfNeeded(common, !!args.continue || args.resume !== undefined);
    const { runConsole } = await import("../../console/console.ts");
    return runConsole({
      ...common,
      approve: (args.approve ?? "ask") as ApprovalPolicy,
      ...(words ? { firstMessage: words } : {}),
      ...(pick ? { pickSession: { all: !!args.all } } : {}),
    });
  },
);
