// The guard's place in the bash tool: each command is classified (the parser loads on the first call)
// before the approval question, which a destructive command gets even under "allow all". What the
// user opted into (--allow-destructive, exact commands and paths in config.json's `guard`) is not asked
// again; what the guard cannot read is left to the sandbox, and asked about when the sandbox is off.
import { homedir } from "node:os";
import { errorMessage } from "../contract/errors.ts";
import type { ToolContext } from "./types.ts";

export interface GuardCheck {
  /** why the command needs the user's own yes (absent: the ordinary policy decides) */
  reason?: string;
  /** a git command that loses work in this repository: its state is recorded before it runs */
  git?: string;
}

type Classify = typeof import("./guard/classify.ts");

/** The guard's module once loaded: every later call skips the import's promise round. */
let loaded: Classify | undefined;

/**
 * The home and temp directories the guard judges paths against, resolved once per value of the variables
 * they come from (a realpath of each temp directory per call was a good part of a one-line command's cost).
 */
interface Places {
  /** the HOME and TMPDIR they were resolved for */
  key: string;
  home: string;
  temp: readonly string[];
}
let places: Places | undefined;

function placesOf(classify: Classify, allowPaths: readonly string[] | undefined): Places {
  const key = `${process.env.HOME}\0${process.env.TMPDIR}`;
  if (places?.key !== key) places = { key, home: homedir(), temp: classify.tempDirs() };
  if (!allowPaths?.length) return places;
  return { ...places, temp: [...places.temp, ...allowPaths] };
}

/** What the guard says of `command` run in `cwd` (absolute, real). */
export async function guardCheck(command: string, cwd: string, ctx: ToolContext): Promise<GuardCheck> {
  const g = ctx.guard ?? {};
  let verdict: Awaited<ReturnType<Classify["classifyCommand"]>>;
  try {
    loaded ??= await import("./guard/classify.ts");
    const { home, temp } = placesOf(loaded, g.allowPaths);
    verdict = await loaded.classifyCommand(command, { workspace: ctx.workspace, cwd, home, temp });
  } catch (err) {
    verdict = { kind: "unknown", reason: `the guard's shell parser could not run (${errorMessage(err)})` };
  }
  if (verdict.kind === "ok") return {};
  const optedIn = g.allowDestructive === true || g.allowed?.(command) === true;
  if (verdict.kind === "flagged") {
    const git = verdict.git ? { git: verdict.git } : {};
    return optedIn ? git : { reason: verdict.reason, ...git };
  }
  // Unknown: the sandbox judges it; without one it is the user's call.
  if (ctx.sandbox || optedIn) return {};
  return { reason: `${verdict.reason}, and the sandbox is off` };
}
