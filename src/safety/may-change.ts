// Which tool calls may change the workspace: every tool but the ones known to only read. A tool added
// later (a module's, an MCP server's, `task`) counts as one that may write until it is listed here.
const READ_ONLY = new Set(["read", "grep", "find", "web_fetch", "web_search", "skill", "memory"]);

export function mayChangeFiles(toolName: string): boolean {
  return !READ_ONLY.has(toolName);
}
