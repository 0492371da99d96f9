// The guard's entry: a bash command read as the shell will run it, and the one-line reason it is
// destructive (or why the guard cannot tell). Loaded by the bash tool on its first call.
import { tmpdir } from "node:os";
import { judge, redirect } from "./commands.ts";
import { bashParser, parseWith } from "./parser.ts";
import { realish } from "./paths.ts";
import type { GuardPlace, Verdict } from "./types.ts";
import { type Reading, walk } from "./walk.ts";

export type { GuardPlace, Verdict };

/** The temp directories writes may go to: TMPDIR (os.tmpdir()), or /tmp and /var/tmp without it. */
export function tempDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs = env.TMPDIR ? [tmpdir()] : [tmpdir(), "/tmp", "/var/tmp"];
  return [...new Set(dirs.map((d) => realish(d, true)))];
}

/** Whether `command` is destructive, read with an already loaded parser (see `classifyCommand`). */
export function classifyWith(
  parser: Awaited<ReturnType<typeof bashParser>>,
  command: string,
  place: GuardPlace,
): Verdict {
  const parsed = parseWith(parser, command);
  if (!parsed) return { kind: "unknown", reason: "the command could not be parsed" };
  const r: Reading = { place, parser, findings: [], written: new Map(), depth: 0, judge, redirect };
  try {
    walk(
      parsed.root,
      {
        cwd: place.cwd,
        vars: new Map([
          ["HOME", place.home],
          ["PWD", place.cwd],
        ]),
      },
      r,
      undefined,
    );
  } finally {
    parsed.free();
  }
  const flagged = r.findings.find((f) => f.kind === "flagged");
  if (flagged) return flagged;
  if (parsed.hasError) return { kind: "unknown", reason: "the command could not be parsed" };
  const unknown = r.findings[0];
  return unknown ?? { kind: "ok" };
}

/** Whether `command` is destructive; loads the parser on first use. */
export async function classifyCommand(command: string, place: GuardPlace): Promise<Verdict> {
  return classifyWith(await bashParser(), command, place);
}
