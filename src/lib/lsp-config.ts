// The language servers the lsp module may start: built-in definitions for the common languages, overridden
// or added to by config_dir/lsp.json and then by a trusted <workspace>/.i/lsp.json (the core asks before a
// project file counts). The lsp worker starts servers from these; `i doctor` and the trust prompt read them.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import { errorMessage } from "../contract/errors.ts";
import { LSP_CONFIG_FILE, LSP_PROJECT_FILE, LspFile, type LspServerConfig } from "../contract/lsp.ts";
import { parseConfigText, parseWith } from "./json-file.ts";
import { readRegularFile } from "./regular-file.ts";
import { isTrustedContent } from "./trust-store.ts";

export interface LspServerDef {
  name: string;
  /** argv alternatives in order of preference: the first whose program is found runs */
  commands: string[][];
  extensions: string[];
  rootMarkers: string[];
  initializationOptions?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  languageIds?: Record<string, string>;
  disabled: boolean;
  /** "built-in", or the file that defined or last changed it */
  source: string;
}

const BUILTIN: readonly Omit<LspServerDef, "disabled" | "source">[] = [
  {
    name: "typescript",
    commands: [["typescript-language-server", "--stdio"]],
    extensions: [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"],
    rootMarkers: ["tsconfig.json", "jsconfig.json", "package.json"],
  },
  {
    name: "python",
    commands: [
      ["pyright-langserver", "--stdio"],
      ["basedpyright-langserver", "--stdio"],
    ],
    extensions: [".py", ".pyi"],
    rootMarkers: ["pyproject.toml", "setup.cfg", "setup.py", "pyrightconfig.json", "requirements.txt"],
  },
  { name: "go", commands: [["gopls"]], extensions: [".go"], rootMarkers: ["go.work", "go.mod"] },
  { name: "rust", commands: [["rust-analyzer"]], extensions: [".rs"], rootMarkers: ["Cargo.toml"] },
  {
    name: "clangd",
    commands: [["clangd"]],
    extensions: [".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx"],
    rootMarkers: ["compile_commands.json", "compile_flags.txt", ".clangd"],
  },
];

export interface LoadedLspServers {
  servers: LspServerDef[];
  /** a bad file or entry, one line each, to be said once */
  problems: string[];
  /** the project file exists but is not accepted in its current content */
  projectUntrusted: boolean;
}

/** The entries of one lsp.json text (throws a UserError naming the file and field). */
export function parseLspFile(file: string, text: string): Record<string, LspServerConfig> {
  return parseWith(file, LspFile, parseConfigText(file, text)).servers;
}

function merge(defs: Map<string, LspServerDef>, file: string, entries: Record<string, LspServerConfig>) {
  const problems: string[] = [];
  for (const [name, c] of Object.entries(entries)) {
    const base = defs.get(name);
    if (!base && !c.disabled && (!c.command || !c.extensions)) {
      problems.push(
        `lsp: ${file}: server "${name}" is not a built-in one (${BUILTIN.map((b) => b.name).join(", ")}), so it needs "command" and "extensions"; it is left out`,
      );
      continue;
    }
    const def: LspServerDef = base
      ? { ...base }
      : { name, commands: [], extensions: [], rootMarkers: [], disabled: false, source: file };
    if (c.command) def.commands = [[c.command, ...(c.args ?? [])]];
    else if (c.args) def.commands = def.commands.map((argv) => [argv[0] as string, ...(c.args ?? [])]);
    if (c.extensions) def.extensions = c.extensions;
    if (c.root_markers) def.rootMarkers = c.root_markers;
    if (c.initialization_options) def.initializationOptions = c.initialization_options;
    if (c.settings) def.settings = c.settings;
    if (c.env) def.env = { ...def.env, ...c.env };
    if (c.language_ids) def.languageIds = c.language_ids;
    if (c.disabled !== undefined) def.disabled = c.disabled;
    def.source = file;
    defs.set(name, def);
  }
  return problems;
}

/** Built-ins, then config_dir/lsp.json, then the project's .i/lsp.json when the user accepted it. */
export function loadLspServers(configDir: string, workspace: string): LoadedLspServers {
  const defs = new Map<string, LspServerDef>(
    BUILTIN.map((b) => [b.name, { ...b, disabled: false, source: "built-in" }]),
  );
  const problems: string[] = [];
  let projectUntrusted = false;
  const files = [
    { file: join(configDir, LSP_CONFIG_FILE), project: false },
    { file: join(workspace, LSP_PROJECT_FILE), project: true },
  ];
  for (const { file, project } of files) {
    try {
      const text = readRegularFile(file, 1024 * 1024, "a config file");
      if (text === undefined) continue;
      if (project && !isTrustedContent(configDir, workspace, LSP_PROJECT_FILE, text)) {
        projectUntrusted = true;
        continue;
      }
      problems.push(...merge(defs, file, parseLspFile(file, text)));
    } catch (err) {
      problems.push(`lsp: ${errorMessage(err)}`);
    }
  }
  return { servers: [...defs.values()], problems, projectUntrusted };
}

/** The absolute path of `program` as the environment's PATH finds it, or undefined. */
export function findProgram(program: string, path = process.env.PATH ?? ""): string | undefined {
  const candidates = isAbsolute(program)
    ? [program]
    : program.includes("/")
      ? []
      : path
          .split(delimiter)
          .filter(Boolean)
          .flatMap((dir) =>
            process.platform === "win32"
              ? [".exe", ".cmd", ".bat", ""].map((ext) => join(dir, program + ext))
              : [join(dir, program)],
          );
  for (const c of candidates) {
    try {
      if (!statSync(c).isFile()) continue;
      accessSync(c, constants.X_OK);
      return c;
    } catch {}
  }
  return undefined;
}

/** The first of a server's commands whose program is found, with that program's absolute path. */
export function resolveCommand(def: LspServerDef, path?: string): string[] | undefined {
  for (const argv of def.commands) {
    const found = findProgram(argv[0] as string, path);
    if (found) return [found, ...argv.slice(1)];
  }
  return undefined;
}

/** What a project's lsp.json would run, one line per server (for the trust question). */
export function describeLspFile(file: string): string[] {
  const text = readRegularFile(file, 1024 * 1024, "a config file") ?? "";
  return Object.entries(parseLspFile(file, text)).map(([name, c]) => {
    if (c.disabled) return `  language server ${name}: disabled`;
    const argv = c.command ? [c.command, ...(c.args ?? [])].join(" ") : "(the built-in command)";
    return `  language server ${name}: ${argv}`;
  });
}
