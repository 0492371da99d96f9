// `i trust`: show what this workspace's own hooks (.i/hooks.json), agents (.i/agents/) and MCP servers
// (.mcp.json) would run, and accept them for this workspace; `--revoke` forgets the acceptance.
import { resolveWorkspace } from "../../agent/options.ts";
import { acceptPending, PROJECT_FILES, pendingProjectFiles } from "../../agent/project-files.ts";
import { configDir, refuseBadDirs } from "../../config/paths.ts";
import { revokeProjectFiles } from "../../config/project-trust.ts";
import { sanitize } from "../../terminal/sanitize.ts";
import { defineSubcommand } from "../command.ts";

export const command = defineSubcommand(
  {
    name: "i trust",
    description:
      "Accept this workspace's own hooks (.i/hooks.json), agents (.i/agents/) and MCP servers (.mcp.json) after showing them",
    args: {
      workspace: { type: "string", valueHint: "dir", description: "workspace directory (default: cwd)" },
      revoke: {
        type: "boolean",
        description: "forget what was accepted for this workspace's hooks, agents and MCP servers",
      },
    },
  },
  async (args) => {
    refuseBadDirs();
    const listed = `${PROJECT_FILES.slice(0, -1).join(", ")} and ${PROJECT_FILES.at(-1)}`;
    const workspace = resolveWorkspace(args.workspace);
    const dir = configDir();
    if (args.revoke) {
      revokeProjectFiles(dir, workspace, PROJECT_FILES);
      process.stdout.write(`forgot the acceptance of ${listed} for ${sanitize(workspace)}\n`);
      return 0;
    }
    const pending = pendingProjectFiles(dir, workspace);
    if (pending.files.length === 0) {
      process.stdout.write(`nothing to accept: ${listed} are absent or already accepted\n`);
      return 0;
    }
    acceptPending(dir, workspace, pending);
    const accepted = pending.files.some((f) => f.sha256 !== undefined);
    process.stdout.write(
      `${pending.lines.map((l) => sanitize(l)).join("\n")}\n${accepted ? "accepted" : "nothing accepted"} for ${sanitize(workspace)}\n`,
    );
    return 0;
  },
);
