// The lsp module's public shapes: its config file (config_dir/lsp.json, a trusted <workspace>/.i/lsp.json),
// the `lsp` tool's arguments, and the `files_changed` hook the core sends after a tool changed files.
import { z } from "zod";

export const LSP_CONFIG_FILE = "lsp.json";
export const LSP_PROJECT_FILE = ".i/lsp.json";

/**
 * One language server. Every field is optional so that an entry may override a built-in server by name
 * (`{"typescript": {"disabled": true}}`); a server that is not a built-in needs `command` and `extensions`.
 */
export const LspServerConfig = z.lazy(() =>
  z.strictObject({
    command: z.string().min(1).optional().describe("the executable, found on PATH or an absolute path"),
    args: z.array(z.string()).optional().describe('its arguments, e.g. ["--stdio"]'),
    extensions: z
      .array(z.string().regex(/^\.[A-Za-z0-9_+-]+$/, 'a file extension with its dot, e.g. ".ts"'))
      .min(1)
      .optional()
      .describe("the file extensions it serves"),
    root_markers: z
      .array(z.string().min(1))
      .optional()
      .describe("files whose directory is the project root (the nearest one above the file)"),
    initialization_options: z.record(z.string(), z.unknown()).optional(),
    /** answered to the server's workspace/configuration requests, by section */
    settings: z.record(z.string(), z.unknown()).optional(),
    env: z.record(z.string(), z.string()).optional().describe("added to the server's environment"),
    /** LSP language id sent with didOpen, per extension (default: derived from the extension) */
    language_ids: z.record(z.string(), z.string()).optional(),
    disabled: z.boolean().optional(),
  }),
);
export type LspServerConfig = z.infer<typeof LspServerConfig>;

export const LspFile = z.lazy(() =>
  z.strictObject({
    $schema: z.string().optional(),
    $comment: z.string().optional(),
    servers: z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/), LspServerConfig),
  }),
);
export type LspFile = z.infer<typeof LspFile>;

/** Operations of the `lsp` tool, named as Claude Code's LSP tool names them (plus diagnostics). */
export const LSP_OPERATIONS = [
  "diagnostics",
  "goToDefinition",
  "findReferences",
  "hover",
  "documentSymbol",
  "workspaceSymbol",
  "goToImplementation",
] as const;

export const LspInput = z.lazy(() =>
  z.strictObject({
    operation: z.enum(LSP_OPERATIONS),
    file_path: z
      .string()
      .optional()
      .describe("the file, relative to the workspace or absolute (every operation but workspaceSymbol)"),
    line: z.number().int().positive().optional().describe("1-based line (definition, references, hover)"),
    character: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("1-based column of the symbol on that line (definition, references, hover)"),
    query: z.string().optional().describe("the symbol name to look for (workspaceSymbol)"),
  }),
);
export type LspInput = z.infer<typeof LspInput>;

/** The `lsp` tool's deadline: a first diagnostics report may wait for a server loading its project. */
export const LSP_TOOL_DEADLINE_MS = 30_000;

export const LSP_DESCRIPTION =
  "Ask the project's language servers: diagnostics of a file (or of every open file without file_path), goToDefinition, findReferences, hover, goToImplementation at file_path:line:character, documentSymbol of a file, workspaceSymbol by query. Results are path:line:col lines.";

/** What a change did to one file's diagnostics (for the console's line under the edit). */
export const FileDiagnosticCount = z.lazy(() =>
  z.strictObject({ path: z.string(), errors: z.number().int(), warnings: z.number().int() }),
);
export type FileDiagnosticCount = z.infer<typeof FileDiagnosticCount>;

/**
 * Sent after a tool changed (`changed`) or read (`touched`) files: absolute paths. With `status` (and no
 * tool) it asks where the servers stand instead (`/lsp`), answered in `servers`.
 */
export const FilesChangedData = z.looseObject({
  tool_name: z.string().optional(),
  changed: z.array(z.string()),
  touched: z.array(z.string()).optional(),
  status: z.boolean().optional(),
});

/** One server definition, and each of its processes (one per project root) as they stand. */
export const LspServerStatus = z.lazy(() =>
  z.strictObject({
    name: z.string(),
    /** the command found on PATH, or null when none of its commands is */
    command: z.string().nullable(),
    /** "not installed", "disabled", "not started", or a process's state */
    state: z.string(),
    root: z.string().optional(),
    open_files: z.number().int().optional(),
    crashes: z.number().int().optional(),
    /** what the server said it is at initialize */
    version: z.string().optional(),
    initialize_ms: z.number().optional(),
    log: z.string().optional(),
  }),
);
export type LspServerStatus = z.infer<typeof LspServerStatus>;

/** The module's answer: text for the tool's result (absent when clean) and the counts behind it. */
export const FilesChangedReply = z.looseObject({
  diagnostics: z.strictObject({ text: z.string(), files: z.array(FileDiagnosticCount) }).optional(),
  /** lines for the user, each said once a session (a server that failed, a bad lsp.json) */
  notices: z.array(z.string()).optional(),
  servers: z.array(LspServerStatus).optional(),
});
