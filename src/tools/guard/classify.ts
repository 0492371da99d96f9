// The guard's entry: a bash command read as the shell will run it, and the one-line reason it is
// destructive (or why the guard cannot tell). Loaded by the bash tool on its first call.
import { tmpdir } from "node:os";
import { judge, redirect } from "./commands.ts";
import { bashParser, parseWith } from "./parser.ts";
import { realish } from "./paths.ts";
import { plainCommand } from "./plain.ts";
import type { Finding, GuardPlace, Verdict } from "./types.ts";
import { copyScope, downloads, newReading, ParserNeeded, type Scope, walk } from "./walk.ts";

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
  const r = newReading(place, parser, judge, redirect);
  try {
    walk(parsed.root, startScope(place), r, undefined);
  } finally {
    parsed.free();
  }
  return verdictOf(r.findings, parsed.hasError);
}

const startScope = (place: GuardPlace): Scope => ({
  cwd: place.cwd,
  vars: new Map([
    ["HOME", place.home],
    ["PWD", place.cwd],
  ]),
});

function verdictOf(findings: Finding[], hasError: boolean): Verdict {
  const flagged = findings.find((f) => f.kind === "flagged");
  if (flagged) return flagged;
  if (hasError) return { kind: "unknown", reason: "the command could not be parsed" };
  return findings[0] ?? { kind: "ok" };
}

/**
 * Whether a plain `command` (plain.ts) is destructive, read without the parser the way the walker reads
 * the parser's tree of it: lists in order in one scope, each stage of a pipeline in a scope of its own
 * and told when its input is a download, a stage's redirections before its words. Undefined when the
 * command is not plain or runs a script of its own: the parser reads it then.
 */
export function classifyPlain(command: string, place: GuardPlace): Verdict | undefined {
  const list = plainCommand(command);
  if (!list) return undefined;
  const r = newReading(place, undefined, judge, redirect);
  const scope = startScope(place);
  try {
    for (const pipeline of list) {
      let downloaded = false;
      for (const stage of pipeline) {
        const at = pipeline.length > 1 ? copyScope(scope) : scope;
        for (const { op, target } of stage.redirects) redirect(target, op, at, r, undefined);
        judge(stage.words, stage.env, at, r, downloaded ? { download: true } : undefined);
        if (downloads(stage.words[0]?.value)) downloaded = true;
      }
    }
  } catch (err) {
    if (err instanceof ParserNeeded) return undefined;
    throw err;
  }
  return verdictOf(r.findings, false);
}

/** Whether `command` is destructive; a plain one is read without the parser, which loads on first use. */
export async function classifyCommand(command: string, place: GuardPlace): Promise<Verdict> {
  return classifyPlain(command, place) ?? classifyWith(await bashParser(), command, place);
}
