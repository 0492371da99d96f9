// What a project's MCP server would be started with, for the trust question: beyond its command or URL,
// each env key and header name with the `${VAR}` names its value expands — never a value, which may be a
// token — and a mark on the variables that change what a program loads, the way a hostile `.mcp.json`
// would run code inside an innocent-looking command (`node server.js` with NODE_OPTIONS=--require …).
import type { McpServer } from "../contract/mcp.ts";
import { referencedVars } from "./expand-vars.ts";

/** Variables that make a program load or run other code than its own (runtime and dynamic-linker hooks). */
const LOADER_VARS = new Set([
  "NODE_OPTIONS",
  "NODE_PATH",
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "LD_AUDIT",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "PYTHONHOME",
  "PERL5LIB",
  "PERL5OPT",
  "RUBYOPT",
  "RUBYLIB",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "CLASSPATH",
  "BASH_ENV",
  "ENV",
  "PATH",
  "GCONV_PATH",
  "BUN_OPTIONS",
  "DENO_OPTIONS",
]);

/** Whether setting `name` changes what a program loads (DYLD_* included). */
export function changesWhatLoads(name: string): boolean {
  return LOADER_VARS.has(name) || name.startsWith("DYLD_");
}

function setting(what: string, name: string, value: string, markLoader: boolean): string {
  const vars = [...new Set(referencedVars(value))];
  const from = vars.length > 0 ? ` from ${vars.map((v) => `\${${v}}`).join(", ")}` : "";
  const notes = [
    ...(vars.length === 0 ? ["set in the file"] : []),
    ...(markLoader && changesWhatLoads(name) ? ["changes what the program loads"] : []),
  ];
  return `${what} ${name}${from}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
}

/** One line per env key (stdio) or header (http, sse) of `c`, indented under the server's line. */
export function serverSettingLines(c: McpServer, indent = "    "): string[] {
  if ("command" in c)
    return Object.entries(c.env ?? {}).map(([k, v]) => `${indent}${setting("env", k, v, true)}`);
  return Object.entries(c.headers ?? {}).map(([k, v]) => `${indent}${setting("header", k, v, false)}`);
}
