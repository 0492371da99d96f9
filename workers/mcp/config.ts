// The servers this worker runs: config_dir/mcp.json, and <workspace>/.mcp.json only when the user accepted
// exactly the bytes read (the core asks; a file changed since is ignored until accepted again).
import { errorMessage } from "../../src/contract/errors.ts";
import { CLIENT_MCP_ENV, MCP_PROJECT_FILE, type McpServer } from "../../src/contract/mcp.ts";
import {
  expandServer,
  type McpServerEntry,
  mergeScopes,
  parseMcpFile,
  projectMcpFile,
  readMcpFile,
  userMcpFile,
} from "../../src/lib/mcp-config.ts";
import { RefusedFile, readRegularFile } from "../../src/lib/regular-file.ts";
import { isTrustedContent } from "../../src/lib/trust-store.ts";

export interface LoadedServers {
  servers: { name: string; config: McpServer }[];
  /** problems to tell the user once (a bad file, an unset variable) */
  problems: string[];
  /** the project file exists but is not accepted (in its current content) */
  projectUntrusted: boolean;
}

function projectEntries(
  configDir: string,
  workspace: string,
): { entries: McpServerEntry[]; untrusted: boolean } {
  const file = projectMcpFile(workspace);
  let text: string | undefined;
  try {
    text = readRegularFile(file, 1024 * 1024, "a config file");
  } catch (err) {
    // A FIFO or a device: the core named it already (it can never be accepted as it is); it is watched
    // like an untrusted file, so a fixed and accepted one starts its servers.
    if (err instanceof RefusedFile) return { entries: [], untrusted: true };
    throw err;
  }
  if (text === undefined) return { entries: [], untrusted: false };
  if (!isTrustedContent(configDir, workspace, MCP_PROJECT_FILE, text))
    return { entries: [], untrusted: true };
  let raw: unknown;
  try {
    raw = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (err) {
    throw new Error(`${file}: malformed JSON (${errorMessage(err)}); fix the syntax`);
  }
  return { entries: parseMcpFile(file, "project", raw), untrusted: false };
}

/** The servers an ACP client offered (the core passes them in CLIENT_MCP_ENV): the user set them up there. */
function clientEntries(env: NodeJS.ProcessEnv, problems: string[]): McpServerEntry[] {
  const text = env[CLIENT_MCP_ENV];
  if (!text) return [];
  try {
    return parseMcpFile("the editor's MCP servers (session/new)", "user", JSON.parse(text));
  } catch (err) {
    problems.push(`mcp: ${errorMessage(err)}`);
    return [];
  }
}

export function loadServers(configDir: string, workspace: string, env: NodeJS.ProcessEnv): LoadedServers {
  const problems: string[] = [];
  let user: McpServerEntry[] = [];
  let project: McpServerEntry[] = [];
  let projectUntrusted = false;
  try {
    user = readMcpFile(userMcpFile(configDir), "user");
  } catch (err) {
    problems.push(`mcp: ${errorMessage(err)}`);
  }
  try {
    const p = projectEntries(configDir, workspace);
    project = p.entries;
    projectUntrusted = p.untrusted;
  } catch (err) {
    problems.push(`mcp: ${errorMessage(err)}`);
  }
  const client = clientEntries(env, problems);
  const servers: LoadedServers["servers"] = [];
  const clientNames = new Set(client.map((e) => e.name));
  const merged = [...mergeScopes(user, project).filter((e) => !clientNames.has(e.name)), ...client];
  for (const entry of merged) {
    try {
      servers.push({ name: entry.name, config: expandServer(entry, env) });
    } catch (err) {
      problems.push(`mcp: ${errorMessage(err)}; the session goes on without it`);
    }
  }
  return { servers, problems, projectUntrusted };
}

/** Whether the workspace's .mcp.json, as it is now, is accepted (a cheap check made before each poll). */
export function projectAccepted(configDir: string, workspace: string): boolean {
  try {
    const text = readRegularFile(projectMcpFile(workspace), 1024 * 1024, "a config file");
    return text !== undefined && isTrustedContent(configDir, workspace, MCP_PROJECT_FILE, text);
  } catch {
    return false;
  }
}
