// The sandbox a command's sessions run bash in, from `--sandbox` or the default (on where bubblewrap runs,
// unless config.json turns it off; one line on stderr where it cannot run). Shared by print mode, the
// console and `i acp`, so an editor's session is confined exactly as a terminal's is.
import { resolve } from "node:path";
import { configDir, dataDir } from "../config/paths.ts";
import { defaultSandbox, parseSandbox, type SandboxSpec } from "../tools/sandbox.ts";

export const SANDBOX_ARG = {
  type: "string",
  valueHint: "mode",
  description:
    "how bash runs (Linux, bubblewrap): workspace-write (no network), workspace-write,network (the default where bwrap runs) or off",
} as const;

export async function sandboxOption(value: string | undefined): Promise<{ sandbox?: SandboxSpec }> {
  const hide = [configDir()];
  // The session's folders stay readable inside (the saved outputs a bash result names are there).
  const readable = [dataDir(), process.env.I_SESSION_DIR]
    .filter((d): d is string => !!d)
    .map((d) => resolve(d));
  let sandbox = parseSandbox(value, hide, readable);
  if (value === undefined) {
    const { loadConfigFile } = await import("../config/load.ts");
    const settings = loadConfigFile(configDir()).sandbox;
    sandbox = defaultSandbox(settings, hide, (line) => process.stderr.write(`i: ${line}\n`), readable);
  }
  return sandbox ? { sandbox } : {};
}
