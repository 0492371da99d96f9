// Sub-agents: the `task` tool (the `agents` module) runs a child `i` session in its own process. These are
// the shapes around it: the tool's input, an agent definition file, what the core tells the module about
// the parent session with each call, what the module writes to the child's stdin, and the progress the
// module reports while the child runs.
import { z } from "zod";

/** Tasks running at once when the model asks for several in one message (config.json `tasks.max_parallel`). */
export const DEFAULT_MAX_PARALLEL_TASKS = 4;
export const MAX_PARALLEL_TASKS = 16;
/** A child task may run this long before the core gives up on it (its own turns are bounded too). */
export const TASK_DEADLINE_MS = 2 * 60 * 60 * 1000;
/** Where agent definitions live: `<workspace>/.i/agents/NAME.md` (the project's) and `config_dir/agents/`. */
export const PROJECT_AGENTS_DIR = ".i/agents";
export const AGENTS_DIR = "agents";

export const TaskInput = z.lazy(() =>
  z.strictObject({
    description: z.string().min(1).max(200).describe("a short (3-5 word) description of the task"),
    prompt: z.string().min(1).describe("the whole task for the agent: it sees nothing of this conversation"),
    agent: z.string().min(1).optional().describe("which agent runs it (default: general)"),
  }),
);
export type TaskInput = z.infer<typeof TaskInput>;

export const AgentName = z
  .string()
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_-]{0,63}$/, "must be letters, digits, - and _ (at most 64)");

/** The front matter of an agent definition (`NAME.md`); the body is the child's system prompt. */
export const AgentFrontMatter = z.lazy(() =>
  z.strictObject({
    name: AgentName,
    description: z.string().min(1),
    /** comma-separated tool names; absent: the parent's tools */
    tools: z.string().optional(),
    /** the model the child uses; absent: the parent's */
    model: z.string().min(1).optional(),
  }),
);
export type AgentFrontMatter = z.infer<typeof AgentFrontMatter>;

export const AgentDefinition = z.lazy(() =>
  z.strictObject({
    name: AgentName,
    description: z.string(),
    /** undefined: the parent's tools */
    tools: z.array(z.string()).optional(),
    model: z.string().optional(),
    system_prompt: z.string(),
    /** where it was defined ("built-in" for general and explore) */
    source: z.string(),
  }),
);
export type AgentDefinition = z.infer<typeof AgentDefinition>;

/** What the core tells the module about the parent with each `task` call (the `context` of the tool data). */
export const TaskContext = z.lazy(() =>
  z.strictObject({
    /** the argv that starts `i` (this very executable) */
    exec: z.array(z.string().min(1)).min(1),
    session_id: z.string(),
    workspace: z.string(),
    provider: z.string(),
    model: z.string(),
    base_url: z.string().optional(),
    /** the parent's bash policy; a child never asks, so what would be asked is refused */
    approve: z.enum(["all", "edits", "ask", "none"]),
    /** the parent's --sandbox mode */
    sandbox: z.string().optional(),
    /** the folders the parent's sandbox lets commands read (the session's, where saved outputs are) */
    sandbox_readable: z.array(z.string()).optional(),
    /** the parent's --allow-destructive: the guard's flagged commands run without its question */
    allow_destructive: z.boolean().optional(),
    /** the parent's own tools: a child gets no tool its parent lacks */
    tools: z.array(z.string()),
    /** how the child fetches the API key from the parent: a one-time ticket at a private socket */
    credential: z.strictObject({ socket: z.string(), ticket: z.string() }).optional(),
  }),
);
export type TaskContext = z.infer<typeof TaskContext>;

/** The first line of a child's stdin (stdin then stays open: its end means the parent is gone). */
export const ChildSpec = z.lazy(() =>
  z.strictObject({
    prompt: z.string(),
    description: z.string(),
    call_id: z.string(),
    agent: AgentDefinition,
    context: TaskContext,
  }),
);
export type ChildSpec = z.infer<typeof ChildSpec>;

/** Progress of a running task, reported by the module while the call runs. */
export const TaskProgress = z.lazy(() =>
  z.strictObject({
    agent: z.string(),
    description: z.string(),
    /** the child's session, once it has one */
    session_id: z.string().optional(),
    /** the tool the child is running now */
    tool: z.string().optional(),
  }),
);
export type TaskProgress = z.infer<typeof TaskProgress>;
