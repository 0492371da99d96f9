// The guard's settings for one run: --allow-destructive, config.json's `guard` (exact commands and
// paths), the commands allowed at the console's question (config_dir/guard-allowed.json), and the
// recording of git state before an allowed git command that loses work (for /undo).
import { allowedCommands, rememberCommand } from "../config/guard-allowed.ts";
import { errorMessage } from "../contract/errors.ts";
import type { GuardSettings } from "../contract/guard.ts";
import { recordGitState } from "../safety/git-state.ts";
import { ToolError } from "../tools/tool-error.ts";
import type { GuardOptions } from "../tools/types.ts";

export interface GuardSetup {
  guard: GuardOptions;
  /** "always" at the guard's question: the exact command, for this workspace from now on */
  remember: (command: string) => void;
}

export function guardSetup(o: {
  configDir: string;
  workspace: string;
  settings: GuardSettings | undefined;
  allowDestructive: boolean | undefined;
  session: { id: string; dir: string };
}): GuardSetup {
  const fromConfig = new Set(o.settings?.allow_commands ?? []);
  // Read once, when the first flagged command asks (most runs never get one).
  let remembered: Set<string> | undefined;
  const stored = () => {
    remembered ??= allowedCommands(o.configDir, o.workspace);
    return remembered;
  };
  return {
    guard: {
      allowDestructive: o.allowDestructive === true || o.settings?.allow_destructive === true,
      ...(o.settings?.allow_paths ? { allowPaths: o.settings.allow_paths } : {}),
      allowed: (command) => fromConfig.has(command) || stored().has(command),
      beforeGit: (dir, command) => {
        try {
          recordGitState(o.session.dir, o.session.id, dir, command);
        } catch (err) {
          // Never lose work silently: without the record, the command does not run.
          throw new ToolError(
            `not run: the repository's state could not be recorded first, so /undo could not bring it back (${errorMessage(err)})`,
          );
        }
      },
    },
    remember: (command) => {
      stored().add(command);
      rememberCommand(o.configDir, o.workspace, command);
    },
  };
}
