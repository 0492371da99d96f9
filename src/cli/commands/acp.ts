// `i acp`: serve the Agent Client Protocol on stdin/stdout, for editors (Zed, JetBrains, neovim, Emacs)
// and harnesses. The SDK and the ACP front end load only for this command.
import pkg from "../../../package.json" with { type: "json" };
import { startupMark } from "../../lib/startup-trace.ts";
import type { ApprovalPolicy } from "../../tools/types.ts";
import { defineSubcommand } from "../command.ts";
import { SANDBOX_ARG, sandboxOption } from "../sandbox-option.ts";
import { TARGET_ARGS, targetFlags } from "../target-args.ts";

const { workspace: _, ...TARGET } = TARGET_ARGS;

export const command = defineSubcommand(
  {
    name: "acp",
    description: "serve the Agent Client Protocol on stdio (for Zed, JetBrains, neovim, Emacs, acpx)",
    args: {
      ...TARGET,
      approve: {
        type: "enum",
        options: ["all", "edits", "ask", "none"],
        description: "the mode sessions start in: ask (default) asks the editor before commands and changes",
      },
      sandbox: SANDBOX_ARG,
      "max-turns": {
        type: "string",
        valueHint: "n",
        description: "stop a prompt after this many model requests",
      },
    },
  },
  async (args) => {
    const { workspace: _w, ...flags } = targetFlags({ ...args, workspace: undefined });
    const maxTurns = args["max-turns"] === undefined ? Number.POSITIVE_INFINITY : Number(args["max-turns"]);
    if (maxTurns !== Number.POSITIVE_INFINITY && !(Number.isInteger(maxTurns) && maxTurns >= 1)) {
      const { UserError } = await import("../../contract/errors.ts");
      throw new UserError(
        `--max-turns: "${args["max-turns"]}" is not a positive whole number, e.g. --max-turns 20`,
      );
    }
    // Bash in an editor's session runs in the same sandbox as in the terminal.
    const sandbox = await sandboxOption(args.sandbox);
    startupMark("acp command");
    const [{ serveAcp }, { configuredImages }, { listSessions }, { configDir, dataDir }] = await Promise.all([
      import("../../acp/server.ts"),
      import("./acp-images.ts"),
      import("../../session/store.ts"),
      import("../../config/paths.ts"),
    ]);
    startupMark("acp loaded");
    return serveAcp({
      options: { ...flags, ...sandbox, approve: (args.approve ?? "ask") as ApprovalPolicy, maxTurns },
      version: pkg.version,
      configDir: configDir(),
      images: configuredImages(flags),
      listSessions: (cwd) => listSessions(dataDir(), cwd),
    });
  },
);
