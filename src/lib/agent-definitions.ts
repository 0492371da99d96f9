// Agent definitions for the `task` tool, in the format users already write: `NAME.md` with front matter
// (name, description, tools, model) and the child's system prompt as the body. Built in: `general` (the
// parent's tools) and `explore` (read-only). Then config_dir/agents/, then the project's .i/agents/ (only
// once the user accepted that directory for this workspace); a later one of the same name wins. Shared by
// the agents worker and the core (the tool's description, /agents).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describeIssue } from "../contract/errors.ts";
import { AGENTS_DIR, type AgentDefinition, AgentFrontMatter, PROJECT_AGENTS_DIR } from "../contract/tasks.ts";
import { readRegularFile } from "./regular-file.ts";
import { isTrusted } from "./trust-store.ts";

const MAX_AGENT_FILE_BYTES = 256 * 1024;

const GENERAL_PROMPT =
  "You are a sub-agent: another agent handed you one self-contained task. Do it fully with your tools, then reply with a concise final answer that gives the other agent everything it needs (what you found or changed, with file paths). You cannot ask anyone questions; when something is not allowed, say so in your answer.";
const EXPLORE_PROMPT =
  "You are a read-only exploring sub-agent: another agent handed you a question about this workspace. Search and read files (read, grep, find) to answer it; you cannot change anything. Reply with a concise final answer: what you found, with file paths and line numbers.";

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: "general",
    description: "a general-purpose agent with the same tools as you, for multi-step tasks",
    system_prompt: GENERAL_PROMPT,
    source: "built-in",
  },
  {
    name: "explore",
    description: "a fast read-only agent (read, grep, find) to search the code and answer questions about it",
    tools: ["read", "grep", "find"],
    system_prompt: EXPLORE_PROMPT,
    source: "built-in",
  },
];

/** Split `---\nfront matter\n---\nbody`; every front-matter line is `key: value`. */
function splitFrontMatter(file: string, text: string): { fields: Record<string, string>; body: string } {
  const t = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const m = /^---\n([\s\S]*?)\n---(?:\n|$)([\s\S]*)$/.exec(t);
  if (!m)
    throw new Error(`${file}: no front matter; start the file with a --- block holding name and description`);
  const fields: Record<string, string> = {};
  for (const [i, line] of (m[1] as string).split("\n").entries()) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) throw new Error(`${file}: front matter line ${i + 2} is not "key: value"`);
    const v = (kv[2] as string).trim();
    fields[kv[1] as string] = /^(["']).*\1$/.test(v) ? v.slice(1, -1) : v;
  }
  return { fields, body: (m[2] as string).trim() };
}

/** One definition file, or an Error whose message is one line naming the file and field. */
export function parseAgentFile(file: string, text: string): AgentDefinition {
  const { fields, body } = splitFrontMatter(file, text);
  // Claude Code's `color` is for its own display: accepted and ignored, so its users' files work as they are.
  const { color: _color, ...rest } = fields;
  const parsed = AgentFrontMatter.safeParse(rest);
  if (!parsed.success) throw new Error(describeIssue(`${file}: front matter`, parsed.error));
  const fm = parsed.data;
  if (body === "") throw new Error(`${file}: the body (the agent's system prompt) is empty`);
  const tools = fm.tools
    ?.split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
  return {
    name: fm.name,
    description: fm.description,
    ...(tools ? { tools } : {}),
    ...(fm.model ? { model: fm.model } : {}),
    system_prompt: body,
    source: file,
  };
}

export interface LoadedAgents {
  agents: AgentDefinition[];
  /** one line per definition that could not be used */
  problems: string[];
  /** the project's directory exists but is not accepted for this workspace */
  projectIgnored?: string;
}

function loadDir(dir: string, into: Map<string, AgentDefinition>, problems: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith(".md"))
      .sort();
  } catch {
    return;
  }
  for (const n of names) {
    const file = join(dir, n);
    try {
      const text = readRegularFile(file, MAX_AGENT_FILE_BYTES, "an agent definition");
      if (text === undefined) continue;
      const def = parseAgentFile(file, text);
      into.set(def.name.toLowerCase(), def);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
}

export function loadAgents(configDir: string, workspace: string): LoadedAgents {
  const byName = new Map<string, AgentDefinition>();
  for (const a of BUILTIN_AGENTS) byName.set(a.name, a);
  const problems: string[] = [];
  loadDir(join(configDir, AGENTS_DIR), byName, problems);
  const projectDir = join(workspace, PROJECT_AGENTS_DIR);
  let projectIgnored: string | undefined;
  let exists = false;
  try {
    exists = readdirSync(projectDir).length >= 0;
  } catch {}
  if (exists) {
    if (isTrusted(configDir, workspace, PROJECT_AGENTS_DIR)) loadDir(projectDir, byName, problems);
    else projectIgnored = projectDir;
  }
  return { agents: [...byName.values()], problems, ...(projectIgnored ? { projectIgnored } : {}) };
}

/** The `task` tool's description: what it does and the agents it can run. */
export function taskDescription(base: string, agents: readonly AgentDefinition[]): string {
  const list = agents.map((a) => `- ${a.name}: ${a.description.replace(/\s+/g, " ").trim()}`).join("\n");
  return `${base}\nAgents (the "agent" argument; default general):\n${list}`;
}
