// The module registry: every optional capability, the hook events it declares and the tools it offers.
// Names, events and tool schemas are public: a replacement must declare exactly these (checked at hello).
import { z } from "zod";
import { TOOL_SCHEMAS } from "./generated/tool-schemas.ts";
import { LSP_DESCRIPTION, LSP_TOOL_DEADLINE_MS, LspInput } from "./lsp.ts";
import { type HookEvent, type PayloadForm, type ToolDecl, USER_HOOK_CONTRACT_EVENTS } from "./protocol.ts";
import { TASK_DEADLINE_MS, TaskInput } from "./tasks.ts";

export const MODULE_NAMES = [
  "budget",
  "prompts",
  "compact",
  "skills",
  "memory",
  "cache",
  "search",
  "web",
  "responses",
  "hooks",
  "agents",
  "steering",
  "mcp",
  "plan",
  "lsp",
] as const;
export const ModuleName = z.enum(MODULE_NAMES);
export type ModuleName = z.infer<typeof ModuleName>;

/** The core's own tools, served in the core process: no module may offer a tool of these names. */
export const CORE_TOOL_NAMES: readonly string[] = ["read", "write", "edit", "apply_patch", "bash"];

interface ToolSpec {
  name: string;
  description: string;
  input: z.ZodType;
  /** several calls of it in one assistant message may run at once (they share no state) */
  parallel?: boolean;
  /** its own deadline, instead of the protocol's 15 s (a child task runs for minutes) */
  deadlineMs?: number;
  /**
   * The description is the module's to write at hello (it lists what the user configured, e.g. the
   * agents); only the name and the input schema are checked.
   */
  dynamicDescription?: boolean;
  /** the core sends the call a `context` telling it about its session (TaskContext for `task`) */
  wantsContext?: boolean;
  /** a call may change files in the workspace (a child session's edits): the turn's checkpoint comes first */
  mayChange?: boolean;
}

export interface ModuleSpec {
  name: ModuleName;
  summary: string;
  hooks: readonly HookEvent[];
  tools: readonly ToolSpec[];
  /** tools a module may add when configured (e.g. web_search with an endpoint); checked only if declared */
  optionalTools?: readonly ToolSpec[];
  /**
   * What the built-in implementation declares at hello it needs of the history, per hook (absent: the full
   * history). A replacement declares its own: it may ask for a summary where that is allowed (SUMMARISABLE
   * in the protocol) or take the full history.
   */
  payloads?: Partial<Record<HookEvent, PayloadForm>>;
  /**
   * The wire formats for which the built-in implementation's `before_request` does anything. For any
   * other the core does not send it the hook (a round trip per model request saved); a bound replacement
   * is always asked.
   */
  requestProviders?: readonly string[];
  /**
   * A namespace of tools the module declares at run time (see runtime-tools.ts): names starting with it are
   * the module's own, declared at hello and refreshed by the `tools` event before each model request.
   */
  runtimeTools?: { namespace: string };
  /**
   * The built-in implementation runs in a process of its own, never shared: it holds child processes and
   * serves requests concurrently (a cancel must reach it while a tool call runs), as its module's own
   * `concurrent` flag says to the SDK.
   */
  ownProcess?: boolean;
}

export const SkillInput = z.lazy(() =>
  z.strictObject({
    name: z.string().min(1).describe("skill name as listed in the system prompt"),
  }),
);
export const MemoryInput = z.lazy(() =>
  z.strictObject({
    action: z.enum(["add", "list", "remove"]).describe("add a note, list notes, or remove one by id"),
    text: z.string().optional().describe("the note to remember (add)"),
    id: z.string().optional().describe("the note id (remove)"),
  }),
);
/** A plan step's state: codex's update_plan and Claude Code's todo list use the same three. */
export const PlanStatus = z.enum(["pending", "in_progress", "done"]);
export const PlanInput = z.lazy(() =>
  z.strictObject({
    steps: z
      .array(
        z.strictObject({
          step: z.string().min(1).max(300).describe("what the step does, in a few words"),
          status: PlanStatus.describe("pending, in_progress (at most one) or done"),
        }),
      )
      .min(1)
      .max(50)
      .describe("the whole plan, every step, in order: each call replaces the previous plan"),
    explanation: z.string().max(500).optional().describe("why the plan changed, when it did"),
  }),
);
export type PlanInput = z.infer<typeof PlanInput>;

export const GrepInput = z.lazy(() =>
  z.strictObject({
    pattern: z
      .string()
      .min(1)
      .describe("regular expression (JavaScript syntax; a leading (?i), (?s) or (?m) sets that flag)"),
    path: z.string().optional().describe("file or directory relative to the workspace (default: workspace)"),
    glob: z
      .string()
      .optional()
      .describe(
        "only files whose path (relative to path, or to the workspace) matches this glob, e.g. **/*.ts",
      ),
    ignore_case: z.boolean().optional(),
    context: z
      .number()
      .int()
      .min(0)
      .max(20)
      .optional()
      .describe("lines of context to show before and after each match (like grep -C)"),
    files_only: z.boolean().optional().describe("list only the files that have a match (like grep -l)"),
    hidden: z
      .boolean()
      .optional()
      .describe("also search hidden files and directories (names starting with .)"),
    max_results: z.number().int().positive().max(5000).optional(),
  }),
);
export const FindInput = z.lazy(() =>
  z.strictObject({
    pattern: z
      .string()
      .min(1)
      .describe("glob matched against paths relative to path (or to the workspace), e.g. **/*.ts"),
    path: z.string().optional().describe("directory to search from (default: workspace)"),
    hidden: z.boolean().optional().describe("also list hidden files and directories (names starting with .)"),
    max_results: z.number().int().positive().max(5000).optional(),
  }),
);
export const WebFetchInput = z.lazy(() =>
  z.strictObject({
    url: z.string().url().describe("http or https URL"),
    max_bytes: z.number().int().positive().optional(),
  }),
);
export const WebSearchInput = z.strictObject({ query: z.string().min(1) });
export { TaskInput };

/** Every module tool's argument schema, by tool name: what the declaration is generated from. */
export const TOOL_INPUTS = {
  skill: SkillInput,
  memory: MemoryInput,
  plan: PlanInput,
  grep: GrepInput,
  find: FindInput,
  web_fetch: WebFetchInput,
  web_search: WebSearchInput,
  task: TaskInput,
  lsp: LspInput,
} as const;
export type ToolName = keyof typeof TOOL_INPUTS;
/** The parsed arguments of tool `N`. */
export type ToolInput<N extends ToolName> = z.infer<(typeof TOOL_INPUTS)[N]>;

/** The `task` tool's description before the module lists the agents it found (at hello). */
export const TASK_DESCRIPTION =
  "Hand a self-contained task to a sub-agent: a child session with its own context window and tools, which sees nothing of this conversation and returns only its final answer. Several task calls in one message run in parallel.";

/**
 * Registry order is the pipeline order when several modules declare one event: prompts runs
 * before compact on `before_compact` so a prompt it supplies reaches the compactor; memory runs after
 * compact on `before_compact_commit`.
 */
export const MODULES: Record<ModuleName, ModuleSpec> = {
  budget: {
    name: "budget",
    summary: "context budget estimates and compaction recommendation",
    hooks: ["budget"],
    tools: [],
    // It counts: the roles, token tallies and image parts of each message are all it reads.
    payloads: { budget: "summary" },
  },
  prompts: {
    name: "prompts",
    summary: "system prompt additions and the compaction prompt",
    hooks: ["system_prompt", "before_compact"],
    tools: [],
  },
  compact: {
    name: "compact",
    summary: "where to cut and how to summarise when the context fills",
    hooks: ["compact_plan", "before_compact", "after_compact", "before_compact_commit"],
    tools: [],
  },
  skills: {
    name: "skills",
    summary: "reusable instructions loaded on demand",
    hooks: ["system_prompt"],
    tools: [
      { name: "skill", description: "Load the full instructions of a named skill.", input: SkillInput },
    ],
  },
  memory: {
    name: "memory",
    summary: "notes that survive sessions and compactions",
    hooks: ["system_prompt", "before_compact_commit"],
    tools: [
      {
        name: "memory",
        description: "Remember, list or forget durable notes about this workspace.",
        input: MemoryInput,
      },
    ],
  },
  cache: {
    name: "cache",
    summary: "prompt-cache breakpoints for providers that support them",
    hooks: ["before_request"],
    tools: [],
    // Breakpoints depend on the roles alone.
    payloads: { before_request: "summary" },
    // Providers that cache prompt prefixes by themselves (OpenAI Chat Completions, Responses) need none;
    // Anthropic (direct, on Bedrock as cache points, on Vertex) caches only up to explicitly marked blocks.
    requestProviders: ["anthropic", "bedrock", "vertex"],
  },
  search: {
    name: "search",
    summary: "fast content and file-name search in the workspace",
    hooks: [],
    tools: [
      {
        name: "grep",
        description: "Search file contents in the workspace with a regular expression.",
        input: GrepInput,
      },
      { name: "find", description: "Find files in the workspace by glob pattern.", input: FindInput },
    ],
  },
  web: {
    name: "web",
    summary: "fetch web pages (and search, when an endpoint is configured)",
    hooks: [],
    tools: [
      { name: "web_fetch", description: "Fetch a URL and return its text content.", input: WebFetchInput },
    ],
    optionalTools: [{ name: "web_search", description: "Search the web.", input: WebSearchInput }],
  },
  responses: {
    name: "responses",
    summary: "the OpenAI Responses wire format",
    hooks: ["wire_request", "wire_response"],
    tools: [],
  },
  hooks: {
    name: "hooks",
    summary: "the user's own commands on agent events (hooks.json)",
    hooks: USER_HOOK_CONTRACT_EVENTS,
    tools: [],
  },
  agents: {
    name: "agents",
    summary: "sub-agents: the task tool runs a child session in its own process",
    hooks: [],
    tools: [
      {
        name: "task",
        description: TASK_DESCRIPTION,
        input: TaskInput,
        parallel: true,
        deadlineMs: TASK_DEADLINE_MS,
        dynamicDescription: true,
        wantsContext: true,
        mayChange: true,
      },
    ],
    ownProcess: true,
  },
  steering: { name: "steering", summary: "messages typed while a turn runs", hooks: ["steer"], tools: [] },
  mcp: {
    name: "mcp",
    summary: "tools of the MCP servers in mcp.json and a trusted .mcp.json",
    hooks: [],
    tools: [],
    runtimeTools: { namespace: "mcp__" },
    ownProcess: true,
  },
  plan: {
    name: "plan",
    summary: "a visible plan of the work: steps with their status, updated as the work goes",
    hooks: [],
    tools: [
      {
        name: "plan",
        description:
          "Show the user your plan for a task of several steps, and keep it current: send the whole list each time, with each step pending, in_progress (one at a time) or done.",
        input: PlanInput,
      },
    ],
  },
  lsp: {
    name: "lsp",
    summary: "language servers: diagnostics after each change, and code navigation",
    hooks: ["files_changed"],
    tools: [
      {
        name: "lsp",
        description: LSP_DESCRIPTION,
        input: LspInput,
        parallel: true,
        deadlineMs: LSP_TOOL_DEADLINE_MS,
      },
    ],
    ownProcess: true,
  },
};

/** A registry tool's spec, by module and name. */
export function toolSpec(module: ModuleName, name: string): ToolSpec | undefined {
  const m = MODULES[module];
  return m.tools.find((t) => t.name === name) ?? m.optionalTools?.find((t) => t.name === name);
}

const declCache = new Map<string, ToolDecl>();

/** The JSON Schema a tool's declaration carries for its arguments' zod schema. */
export function toolInputSchema(input: z.ZodType): Record<string, unknown> {
  const schema = z.toJSONSchema(input, { target: "draft-2020-12" }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/**
 * The built-in tools' schemas converted at build time (generated/tool-schemas.ts), by the zod schema they
 * were converted from: a declaration uses one only for that very schema object, any other is converted
 * here. Converting them all took milliseconds at every start of the core and of the worker.
 */
const converted = new WeakMap<z.ZodType, Record<string, unknown>>();

/** Take the build-time conversions of these tools (name and argument schema) for their declarations. */
export function adoptToolSchemas(tools: readonly { name: string; input: z.ZodType }[]): void {
  for (const t of tools) {
    const schema = TOOL_SCHEMAS[t.name];
    if (schema) converted.set(t.input, schema);
  }
}
adoptToolSchemas(Object.entries(TOOL_INPUTS).map(([name, input]) => ({ name, input })));

/** The public declaration of a tool: name, description and JSON Schema generated from its zod schema. */
export function toolDecl(spec: ToolSpec): ToolDecl {
  let d = declCache.get(spec.name);
  if (!d) {
    const schema = converted.get(spec.input) ?? toolInputSchema(spec.input);
    d = { name: spec.name, description: spec.description, input_schema: schema };
    declCache.set(spec.name, d);
  }
  return d;
}

let changing: Set<string> | undefined;

/** Whether registry tool `name` (of any module) may change files in the workspace. */
export function moduleToolMayChange(name: string): boolean {
  changing ??= new Set(
    MODULE_NAMES.flatMap((m) => [...MODULES[m].tools, ...(MODULES[m].optionalTools ?? [])])
      .filter((t) => t.mayChange)
      .map((t) => t.name),
  );
  return changing.has(name);
}

export function moduleToolDecls(name: ModuleName): ToolDecl[] {
  return MODULES[name].tools.map(toolDecl);
}

export function isModuleName(s: string): s is ModuleName {
  return (MODULE_NAMES as readonly string[]).includes(s);
}

/**
 * Whether `before_request` must run for requests in wire format `provider`: when any module declaring it
 * is bound (a replacement decides for itself), or is a built-in whose implementation acts on this format.
 */
export function beforeRequestWanted(
  refs: readonly { module: ModuleName; builtin: boolean }[],
  provider: string,
): boolean {
  return refs.some((r) => !r.builtin || (MODULES[r.module].requestProviders?.includes(provider) ?? true));
}
