// Which folder of the source tree may import which: the allowed directions of the layer lint
// (scripts/lint/layers.ts), printed in docs/architecture.md from this very table.
//
// A row's key is a folder (a concern: src/<folder>, workers/<folder>, examples/<folder>) or one file; a
// file's row adds to its folder's row. A target is a folder (any file in it) or one file; `workers/*`
// stands for every module folder of workers/. A folder always imports its own files. An edge no row
// allows is an error, and so is a folder without a row: a new folder states its place here.

/** The contract and the shared lib: what every layer may import. */
const BASE = ["src/contract", "src/lib"];

export interface LayerRow {
  /** What the rows' files may import besides their own folder. */
  may: readonly string[];
  /** Why, in a few words: shown in the docs. */
  role: string;
}

export const LAYERS: Readonly<Record<string, LayerRow>> = {
  "src/contract": { may: [], role: "the public shapes: zod schemas and the types inferred from them" },
  "src/lib": { may: ["src/contract"], role: "utilities shared by the core, the SDK and the workers" },
  "src/runtime": { may: BASE, role: "the only home of Bun-specific calls; processes, /proc" },
  "src/terminal": { may: BASE, role: "sanitiser, styling, display widths" },
  "src/config": { may: BASE, role: "config_dir files, paths, credentials" },
  "src/session": { may: BASE, role: "sessions on disk: event log, checkpoints, listing" },
  "src/tools": { may: [...BASE, "src/runtime"], role: "the core tools read, write, edit, bash" },
  "src/manifest": { may: [...BASE, "src/config", "src/runtime"], role: "profiles + bindings → manifest" },
  "src/worker": {
    may: [...BASE, "src/config", "src/runtime", "src/terminal"],
    role: "the worker host: processes, NDJSON, deadlines, eviction",
  },
  "src/provider": {
    may: [...BASE, "src/config", "src/runtime", "src/worker"],
    role: "model wire formats, streaming, retries",
  },
  "src/compaction": {
    may: [...BASE, "src/provider", "src/worker"],
    role: "the compaction pipeline and its checks",
  },
  "src/safety": {
    may: [...BASE, "src/session", "src/tools"],
    role: "workspace checkpoints, undo/redo/rewind, fork, export",
  },
  "src/agent": {
    may: [
      ...BASE,
      "src/safety",
      "src/compaction",
      "src/config",
      "src/manifest",
      "src/provider",
      "src/runtime",
      "src/session",
      "src/terminal",
      "src/tools",
      "src/worker",
    ],
    role: "the agent loop, run setup, print mode",
  },
  "src/doctor": {
    may: [
      ...BASE,
      "src/agent",
      "src/config",
      "src/manifest",
      "src/provider",
      "src/runtime",
      "src/terminal",
      "src/worker",
    ],
    role: "`i doctor`: every check a run makes",
  },
  "src/console": {
    may: [...BASE, "src/terminal", "src/agent/agent-session.ts"],
    role: "the interactive console: drives a session only through the facade",
  },
  "src/acp": {
    may: [...BASE, "src/terminal", "src/agent/agent-session.ts"],
    role: "`i acp`: the Agent Client Protocol front end, through the facade",
  },
  "src/cli": {
    may: [
      ...BASE,
      "src/acp",
      "src/agent",
      "src/config",
      "src/console",
      "src/doctor",
      "src/manifest",
      "src/provider",
      "src/runtime",
      "src/safety",
      "src/session",
      "src/terminal",
      "src/tools",
      "src/worker",
      "package.json",
    ],
    role: "the command line: the composition root",
  },
  "src/cli/commands/worker.ts": {
    may: ["workers/registry.ts"],
    role: "`i worker`: the one way into workers/",
  },
  "workers/sdk": { may: BASE, role: "the worker SDK: serve loop, module and tool helpers" },
  "workers/*": { may: [...BASE, "workers/sdk"], role: "one built-in module each" },
  "workers/registry.ts": { may: ["src/contract", "workers/*"], role: "module name → implementation" },
  "examples/*": { may: [], role: "replacement workers: the SDK by its package name only" },
};

/**
 * Edges the table does not allow but today's code still has, each a debt with its owner's plan: the
 * console reaches into the core until the session facade (src/agent/agent-session.ts) replaces them.
 * Only these target files are tolerated, from these folders; an entry nothing uses any more is an error,
 * so the list only shrinks.
 */
export const PENDING: Readonly<Record<string, readonly string[]>> = {};
