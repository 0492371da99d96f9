#!/usr/bin/env bun
import { writeSync } from "node:fs";
import type { ArgsDef } from "citty";
// Entry point of `i`. Kept tiny so `i --version` starts fast: citty and every command load only when used.
import pkg from "../../package.json" with { type: "json" };
import { errorMessage, UserError } from "../contract/errors.ts";
import { startupMark } from "../lib/startup-trace.ts";
import { receiveCredentials, shedCredentials } from "../runtime/credential-handoff.ts";
import { applyEngineMode, sessionKind } from "../runtime/engine-mode.ts";
import { WorkerError } from "../worker/errors.ts";
import type { CliCommand } from "./command.ts";

type Loader = () => Promise<CliCommand>;

/** Every subcommand, imported only when named (or when `i --help` lists them). */
const SUBCOMMANDS: Record<string, Loader> = {
  init: () => import("./commands/init.ts").then((m) => m.command),
  auth: () => import("./commands/auth.ts").then((m) => m.command),
  worker: () => import("./commands/worker.ts").then((m) => m.command),
  "task-child": () => import("./commands/task-child.ts").then((m) => m.command),
  doctor: () => import("./commands/doctor.ts").then((m) => m.command),
  compact: () => import("./commands/compact.ts").then((m) => m.command),
  sessions: () => import("./commands/sessions.ts").then((m) => m.command),
  mcp: () => import("./commands/mcp.ts").then((m) => m.command),
  trust: () => import("./commands/trust.ts").then((m) => m.command),
  start: () => import("./commands/start.ts").then((m) => m.command),
  acp: () => import("./commands/acp.ts").then((m) => m.command),
  "--runtime": () => import("./commands/runtime.ts").then((m) => m.command),
};
const runCommand: Loader = () => import("./commands/run.ts").then((m) => m.command);
/** Commands `i` runs for itself (a sub-agent's child process): runnable, but not listed to the user. */
const INTERNAL = new Set(["task-child"]);
const LISTED = Object.keys(SUBCOMMANDS).filter((name) => !INTERNAL.has(name));

async function help(): Promise<number> {
  const [{ renderHelp }, run, ...subs] = await Promise.all([
    import("./help.ts"),
    runCommand(),
    ...LISTED.map((name) => (SUBCOMMANDS[name] as Loader)()),
  ]);
  const commands = LISTED.map((name, i) => {
    const meta = subs[i]?.meta as { description?: string } | undefined;
    return [name, meta?.description ?? ""] as const;
  });
  process.stdout.write(
    renderHelp({
      name: "i",
      version: pkg.version,
      description: "a coding agent for the terminal with replaceable worker modules",
      args: (run.args ?? {}) as ArgsDef,
      commands,
    }),
  );
  return 0;
}

/** First arguments after which `i` starts no worker and no command: no credential hand-off needed. */
const CHILDLESS = new Set(["--version", "-V", "--help", "-h", "help", "init", "auth", "sessions", "worker"]);

export async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  // Answered before citty loads (citty's runMain would print it too): `i --version` is the startup figure.
  if (first === "--version" || first === "-V") {
    process.stdout.write(`i ${pkg.version}\n`);
    return 0;
  }
  if (first === "help" && argv[1] !== undefined) {
    // `i help doctor` is `i doctor --help`, as in git and cargo.
    if (SUBCOMMANDS[argv[1]]) return main([argv[1], "--help"]);
    throw new UserError(
      `i help: no command "${argv[1]}"; commands are ${LISTED.join(", ")} (\`i --help\` lists them)`,
    );
  }
  if (first === "--help" || first === "-h" || first === "help") return help();
  // Routed here, not by citty's subCommands: the root's first positional is a free-text prompt, which
  // citty would take for an unknown command name.
  const load = first !== undefined ? SUBCOMMANDS[first] : undefined;
  // The debug log, only when asked for: its module (and consola) load only then.
  if (process.env.I_LOG_LEVEL !== undefined || argv.includes("--verbose")) {
    const { logWanted, startLogFromCli } = await import("./log-start.ts");
    if (logWanted(argv, !load && first !== "worker")) await startLogFromCli(argv, !load);
  }
  const [{ invoke }, cmd] = await Promise.all([import("./command.ts"), (load ?? runCommand)()]);
  let rest = load || first === "run" ? argv.slice(1) : argv;
  if (!load && (rest.includes("-r") || rest.includes("--resume")))
    rest = (await import("./resume-pick.ts")).markBareResume(rest);
  return invoke(cmd, rest, { main });
}

// Written directly, not through consola: a user error is exactly one line on stderr, and consola's
// reporters add a tag or an icon (and colour) to every message.
async function report(err: unknown): Promise<number> {
  // Messages quote file names, config values and worker output: shown inert, never interpreted.
  const { sanitize } = await import("../terminal/sanitize.ts");
  if (err instanceof UserError) {
    // User errors are self-describing (they start with the file, flag or setting they are about); the
    // program's name goes first, like every line `i` writes to stderr, unless the message already names
    // the subcommand (`i doctor: …`). The same messages appear unprefixed as `i doctor` problem rows.
    const line = sanitize(err.message);
    process.stderr.write(`${/^i( [\w-]+)?: /.test(line) ? line : `i: ${line}`}\n`);
    return err.exitCode;
  }
  // A worker's failure names the module, the event and the cause: that is the whole story, not a bug of ours.
  if (err instanceof WorkerError) {
    process.stderr.write(`i: ${sanitize(err.message)}\n`);
    return 1;
  }
  // Not the user's fault: one line by default, the stack only when asked for.
  process.stderr.write(
    `i: internal error: ${sanitize(errorMessage(err))}${process.env.I_DEBUG ? `\n${sanitize(String((err as Error).stack))}` : " (set I_DEBUG=1 for details)"}\n`,
  );
  return 1;
}

if (import.meta.main) {
  startupMark("main");
  const args = process.argv.slice(2);
  if (args[0] === "--version" || args[0] === "-V") answerVersion(args);
  else start(args);
}

/**
 * `i --version` is the startup figure: answered with one write to fd 1, before the engine mode, the
 * credential hand-off or process.stdout (a stream the runtime builds on first use) are touched. A
 * write that fails (a closed pipe, a full non-blocking one) goes through main() instead.
 */
function answerVersion(args: string[]): void {
  try {
    writeSync(1, `i ${pkg.version}\n`);
  } catch {
    start(args);
  }
}

function start(args: string[]): void {
  // First, before anything is read or started: it may replace the process (runtime/engine-mode.ts).
  applyEngineMode(
    args,
    sessionKind(args, (name) => SUBCOMMANDS[name] !== undefined || CHILDLESS.has(name)),
  );
  receiveCredentials();
  // A diagnostic for scripts/bench/memory.ts; the module is not even loaded without the variable.
  if (process.env.I_DEBUG_MEMORY)
    void import("../runtime/memory-report.ts").then((m) =>
      m.armMemoryReport(args[0] === "worker" ? "worker" : "core"),
    );
  // Commands that start no child process (and `--version`, which must stay fast) keep the environment.
  const shed = CHILDLESS.has(args[0] ?? "") ? Promise.resolve(undefined) : shedCredentials(args);
  shed
    .then((why) => {
      if (why)
        process.stderr.write(
          `i: warning: could not restart without the API-key variables (${why}); same-user processes can read them from /proc\n`,
        );
      // A closed pipe (`i … | head`) is the reader's choice, not an error worth a stack trace. Not for
      // `i worker`: it writes stdout synchronously, and a stream listener would make that fd non-blocking.
      if (args[0] !== "worker") {
        process.stdout.on("error", (err: NodeJS.ErrnoException) => {
          if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
        });
      }
      return main(args);
    })
    .then(
      (code) => {
        process.exitCode = code;
      },
      async (err) => {
        process.exitCode = await report(err);
      },
    );
}
