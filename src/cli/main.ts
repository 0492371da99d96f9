#!/usr/bin/env bun
// Entry point of `i`. Kept tiny so `i --version` starts fast: every command is imported only when used.
import pkg from "../../package.json" with { type: "json" };
import { errorMessage, UserError } from "../contract/errors.ts";
import { receiveCredentials, shedCredentials } from "../runtime/credential-handoff.ts";
import type { Command } from "./command.ts";

type Loader = () => Promise<{ command: Command }>;

const SUBCOMMANDS: Record<string, Loader> = {
  init: () => import("./commands/init.ts"),
  worker: () => import("./commands/worker.ts"),
  doctor: () => import("./commands/doctor.ts"),
  compact: () => import("./commands/compact.ts"),
  sessions: () => import("./commands/sessions.ts"),
  start: () => import("./commands/start.ts"),
};

const HELP = `i ${pkg.version} — a coding agent for the terminal with replaceable worker modules

Usage:
  i [PROMPT]                       interactive console in the workspace
  i -p PROMPT [--json]             one non-interactive run (print mode)
  i --runtime manifest PROFILE     print the generated manifest
  i init                           create config_dir with defaults (never overwrites)
  i worker MODULE[,MODULE…]        run built-in modules as an NDJSON worker on stdio
  i doctor                         check config files, bindings and every worker
  i compact [-r ID] [--instructions TEXT]   compact a saved session now
  i sessions                       list sessions of this workspace
  i start [ARGS]                   launcher: fresh temporary manifest, then run

Run \`i COMMAND --help\` or \`i run --help\` for the options of a command.
`;

/** First arguments after which `i` starts no worker and no command: no credential hand-off needed. */
const CHILDLESS = new Set(["--version", "-V", "--help", "-h", "help", "init", "sessions", "worker"]);

export async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first === "--version" || first === "-V") {
    process.stdout.write(`i ${pkg.version}\n`);
    return 0;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  if (first === "--runtime") return (await import("./commands/runtime.ts")).command.invoke(argv.slice(1));
  const load = first !== undefined ? SUBCOMMANDS[first] : undefined;
  if (load) return (await load()).command.invoke(argv.slice(1));
  return (await import("./commands/run.ts")).command.invoke(first === "run" ? argv.slice(1) : argv);
}

function report(err: unknown): number {
  if (err instanceof UserError) {
    // User errors are self-describing: they start with the file or command they are about.
    process.stderr.write(`${err.message}\n`);
    return err.exitCode;
  }
  // Not the user's fault: one line by default, the stack only when asked for.
  process.stderr.write(
    `i: internal error: ${errorMessage(err)}${process.env.I_DEBUG ? `\n${(err as Error).stack}` : " (set I_DEBUG=1 for details)"}\n`,
  );
  return 1;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  receiveCredentials();
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
      (err) => {
        process.exitCode = report(err);
      },
    );
}
