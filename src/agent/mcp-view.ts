// What the console's `/mcp` shows and does, behind the session facade: each configured server with its
// scope, where it stands (asked of the running mcp module, so no second copy of any server starts) and
// how it is reached; and `/mcp trust`, the acceptance of this workspace's .mcp.json.
import { configDir } from "../config/paths.ts";
import { acceptProjectFiles, projectTrust } from "../config/project-trust.ts";
import { errorMessage } from "../contract/errors.ts";
import { MCP_PROJECT_FILE } from "../contract/mcp.ts";
import type { GroupStatus } from "../contract/runtime-tools.ts";
import { configuredServers, describeStatus } from "./mcp-servers.ts";

export interface McpViewRow {
  name: string;
  scope: "user" | "project";
  status: string;
  transport: string;
}

export interface McpView {
  rows: McpViewRow[];
  /** a file that could not be read, said in one line */
  problem?: string;
  /** the workspace's .mcp.json exists and is not accepted (in its current content) */
  untrusted?: string;
}

export async function mcpView(
  workspace: string,
  status: (() => Promise<Partial<Record<string, Record<string, GroupStatus>>>>) | undefined,
): Promise<McpView> {
  let rows: ReturnType<typeof configuredServers>;
  try {
    rows = configuredServers(configDir(), workspace);
  } catch (err) {
    return { rows: [], problem: errorMessage(err) };
  }
  const live = status
    ? ((await status().catch(() => ({}))) as Record<string, Record<string, GroupStatus>>).mcp
    : undefined;
  const untrusted = rows.find((r) => r.untrusted)?.file;
  return {
    rows: rows.map((r) => ({
      name: r.name,
      scope: r.scope,
      transport: r.transport,
      status: r.disabled
        ? "disabled"
        : r.untrusted
          ? "not accepted: /mcp trust"
          : r.shadowed
            ? "replaced by the project's entry"
            : status
              ? describeStatus(live?.[r.name])
              : "not running in this session (a new session starts it, unless plugins.json disables mcp)",
    })),
    ...(untrusted ? { untrusted } : {}),
  };
}

/** Accept the workspace's .mcp.json as it is now; its servers start before the next model request. */
export function trustProjectMcp(workspace: string): { file: string; accepted: boolean; servers: string[] } {
  const dir = configDir();
  const [state] = projectTrust(dir, workspace, [MCP_PROJECT_FILE]);
  const servers = configuredServers(dir, workspace)
    .filter((r) => r.scope === "project")
    .map((r) => `${r.name}  ${r.transport}`);
  if (!state || state.state === "absent") return { file: "", accepted: false, servers };
  if (state.state !== "trusted") acceptProjectFiles(dir, workspace, [state]);
  return { file: state.path, accepted: true, servers };
}
