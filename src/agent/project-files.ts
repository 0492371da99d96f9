// A project's own hooks, agents, MCP and language servers (`.i/hooks.json`, `.i/agents/`, `.mcp.json`,
// `.i/lsp.json`): what they would run, and accepting them for this workspace (`i trust`, `/trust`; `i mcp
// trust` accepts the MCP file alone). They are untrusted until accepted; the acceptance covers the content shown, so a file
// changed since is asked about again.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { acceptProjectFiles, type ProjectFileTrust, untrustedProjectFiles } from "../config/project-trust.ts";
import { PROJECT_HOOKS_FILE } from "../contract/hooks-file.ts";
import { LSP_PROJECT_FILE } from "../contract/lsp.ts";
import { MCP_PROJECT_FILE } from "../contract/mcp.ts";
import { PROJECT_AGENTS_DIR } from "../contract/tasks.ts";
import { parseAgentFile } from "../lib/agent-definitions.ts";
import { hooksOf, parseHooksText } from "../lib/hooks-config.ts";
import { MAX_CONFIG_BYTES } from "../lib/json-file.ts";
import { describeLspFile } from "../lib/lsp-config.ts";
import { readMcpFile } from "../lib/mcp-config.ts";
import { serverSettingLines } from "../lib/mcp-describe.ts";
import { readRegularFile } from "../lib/regular-file.ts";

export const PROJECT_FILES = [
  PROJECT_HOOKS_FILE,
  PROJECT_AGENTS_DIR,
  MCP_PROJECT_FILE,
  LSP_PROJECT_FILE,
] as const;
export const TRUST_COMMAND = "i trust";

/** What one pending file would do, one line per hook or agent (throws a UserError for a malformed one). */
function describe(f: ProjectFileTrust): string[] {
  if (f.file === MCP_PROJECT_FILE) {
    return readMcpFile(f.path, "project").flatMap((e) => {
      const c = e.config;
      const what = "command" in c ? [c.command, ...(c.args ?? [])].join(" ") : c.url;
      return [`  mcp server ${e.name}: ${what}`, ...serverSettingLines(c)];
    });
  }
  if (f.file === LSP_PROJECT_FILE) return describeLspFile(f.path);
  if (f.file === PROJECT_HOOKS_FILE) {
    const text = readRegularFile(f.path, MAX_CONFIG_BYTES, "a config file") ?? "";
    const byEvent = hooksOf(f.path, parseHooksText(f.path, text));
    return Object.values(byEvent)
      .flat()
      .map((h) => `  hook ${h.event}${h.matcherText ? ` [${h.matcherText}]` : ""}: ${h.command}`);
  }
  const lines: string[] = [];
  for (const n of readdirSync(f.path)
    .filter((x) => x.endsWith(".md"))
    .sort()) {
    const file = join(f.path, n);
    const text = readRegularFile(file, 256 * 1024, "an agent definition") ?? "";
    try {
      const a = parseAgentFile(file, text);
      lines.push(`  agent ${a.name}: ${a.description} (tools: ${a.tools?.join(", ") ?? "the session's"})`);
    } catch (err) {
      lines.push(`  ${(err as Error).message}`);
    }
  }
  return lines;
}

export interface PendingProjectFiles {
  files: ProjectFileTrust[];
  /** per file: its path and state, then what it would run */
  lines: string[];
}

export function pendingProjectFiles(configDir: string, workspace: string): PendingProjectFiles {
  const files = untrustedProjectFiles(configDir, workspace, PROJECT_FILES);
  const lines: string[] = [];
  for (const f of files) {
    if (f.problem) {
      // A FIFO, a device or an oversized file: never read, so it can be neither shown nor accepted.
      lines.push(`${f.problem}; not accepted (it cannot be, as it is)`);
      continue;
    }
    lines.push(
      `${f.path} (${f.state === "changed" ? "changed since it was accepted" : "not accepted yet"}):`,
    );
    lines.push(...describe(f));
  }
  return { files, lines };
}

/** Accept exactly what `pending` showed (a file changed since stays untrusted). */
export function acceptPending(configDir: string, workspace: string, pending: PendingProjectFiles): void {
  acceptProjectFiles(configDir, workspace, pending.files);
}
