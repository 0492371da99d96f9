// The configured MCP servers as `i mcp`, `i doctor` and the console's `/mcp` show them: each entry of both
// scopes (a project's file only once accepted), and where each stands, asked of the mcp module itself in a
// worker of its own (the core has no MCP client: it starts the module and reads its `tools` reply).
import { loadBindingsFile } from "../config/load.ts";
import { untrustedProjectFiles } from "../config/project-trust.ts";
import { MCP_PROJECT_FILE } from "../contract/mcp.ts";
import { MODULE_NAMES } from "../contract/registry.ts";
import type { GroupStatus } from "../contract/runtime-tools.ts";
import {
  describeTransport,
  type McpServerEntry,
  projectMcpFile,
  readMcpFile,
  userMcpFile,
} from "../lib/mcp-config.ts";
import { generateManifest } from "../manifest/generate.ts";
import { CORE_TOOL_NAMES } from "../tools/index.ts";
import { TOOLS_WAIT_MS, WorkerHost } from "../worker/host.ts";
import { mcpSetup } from "./runtime-tools.ts";

export interface McpServerRow {
  name: string;
  scope: "user" | "project";
  file: string;
  transport: string;
  disabled: boolean;
  /** the project's file is not accepted (in its current content): its servers do not start */
  untrusted: boolean;
  /** a user entry of this name is replaced by the project's */
  shadowed: boolean;
  entry: McpServerEntry;
}

/** Both scopes' entries (a UserError names a file that is unusable). */
export function configuredServers(configDir: string, workspace: string): McpServerRow[] {
  const user = readMcpFile(userMcpFile(configDir), "user");
  const project = readMcpFile(projectMcpFile(workspace), "project");
  const untrusted = untrustedProjectFiles(configDir, workspace, [MCP_PROJECT_FILE]).length > 0;
  const projectNames = new Set(untrusted ? [] : project.map((e) => e.name));
  const row = (e: McpServerEntry): McpServerRow => ({
    name: e.name,
    scope: e.scope,
    file: e.file,
    transport: describeTransport(e.config),
    disabled: e.config.disabled === true,
    untrusted: e.scope === "project" && untrusted,
    shadowed: e.scope === "user" && projectNames.has(e.name),
    entry: e,
  });
  return [...user.map(row), ...project.map(row)];
}

export interface ProbeResult {
  status: Record<string, GroupStatus>;
  notices: string[];
}

/**
 * Start the mcp module as a run would (its binding, if any) and ask where each server stands, waiting for
 * servers still starting; then stop it.
 */
export async function probeServers(configDir: string, workspace: string): Promise<ProbeResult> {
  const manifest = generateManifest({
    profile: "full",
    configDir,
    plugins: { disabled: MODULE_NAMES.filter((m) => m !== "mcp") },
    bindings: loadBindingsFile(configDir),
  });
  const setup = mcpSetup(manifest, configDir, workspace);
  const host = new WorkerHost(manifest, {
    workspace,
    configDir,
    reservedToolNames: CORE_TOOL_NAMES,
    moduleEnv: { mcp: setup.env },
  });
  try {
    const r = await host.refreshTools(TOOLS_WAIT_MS);
    return { status: r.status.mcp ?? {}, notices: r.notices };
  } finally {
    await host.close();
  }
}

/** One status in a few words: `ready, 13 tools`, `failed: why`. */
export function describeStatus(s: GroupStatus | undefined): string {
  if (!s) return "not started";
  const tools = `${s.tools} tool${s.tools === 1 ? "" : "s"}`;
  switch (s.state) {
    case "ready":
      return `connected, ${tools}`;
    case "failed":
      return `failed: ${s.detail ?? "?"}`;
    case "crashed":
      return `crashed (${s.detail ?? "?"}); restarts on the next call`;
    default:
      return s.state;
  }
}
