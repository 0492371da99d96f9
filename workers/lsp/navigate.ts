// The `lsp` tool: diagnostics, definitions, references, hover and symbols from the file's language server,
// answered as `path:line:col` lines (1-based, relative to the workspace) the model can read next.
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { LspInput } from "../../src/contract/lsp.ts";
import type { ToolResult } from "../../src/contract/protocol.ts";
import { toolError, toolText } from "../sdk/module.ts";
import { DIAGNOSTICS_CAP_MS } from "./changes.ts";
import { awaitDiagnostics, syncDocument, uriOf } from "./documents.ts";
import type { LspFleet } from "./fleet.ts";
import { diagnosticLine, pathOfUri, renderSections, shownPath, sortedProblems } from "./format.ts";
import type { DocumentSymbol, Hover, Location, LocationLink, SymbolInformation } from "./protocol.ts";
import type { LspServer } from "./server.ts";

const REQUEST_TIMEOUT_MS = 10_000;
/** Within LSP_TOOL_DEADLINE_MS (the tool's own deadline in the registry), with time to answer. */
const FIRST_REPORT_WAIT_MS = 20_000;
const MAX_RESULTS = 100;

const METHODS: Record<string, string> = {
  goToDefinition: "textDocument/definition",
  goToImplementation: "textDocument/implementation",
  findReferences: "textDocument/references",
  hover: "textDocument/hover",
  documentSymbol: "textDocument/documentSymbol",
};

const SYMBOL_KINDS = [
  "",
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum member",
  "struct",
  "event",
  "operator",
  "type parameter",
];

function sourceLine(path: string, line: number): string {
  try {
    const text = readFileSync(path, "utf8").split("\n")[line]?.trim() ?? "";
    return text.length > 160 ? `${text.slice(0, 159)}…` : text;
  } catch {
    return "";
  }
}

function locationLines(workspace: string, found: (Location | LocationLink)[]): string[] {
  return found.slice(0, MAX_RESULTS).map((l) => {
    const uri = "targetUri" in l ? l.targetUri : l.uri;
    const range = "targetUri" in l ? l.targetSelectionRange : l.range;
    const path = pathOfUri(uri);
    const at = `${shownPath(workspace, path)}:${range.start.line + 1}:${range.start.character + 1}`;
    const text = sourceLine(path, range.start.line);
    return text ? `${at}: ${text}` : at;
  });
}

function symbolLines(
  workspace: string,
  path: string,
  symbols: (DocumentSymbol | SymbolInformation)[],
): string[] {
  const out: string[] = [];
  const walk = (s: DocumentSymbol | SymbolInformation, depth: number) => {
    if (out.length >= MAX_RESULTS) return;
    const file = "location" in s ? pathOfUri(s.location.uri) : path;
    const start = "location" in s ? s.location.range.start : s.selectionRange.start;
    const kind = SYMBOL_KINDS[s.kind] ?? "symbol";
    out.push(
      `${"  ".repeat(depth)}${shownPath(workspace, file)}:${start.line + 1}:${start.character + 1} ${kind} ${s.name}`,
    );
    if ("children" in s) for (const c of s.children ?? []) walk(c, depth + 1);
  };
  for (const s of symbols) walk(s, 0);
  return out;
}

function hoverText(h: Hover | null): string {
  if (!h) return "";
  const parts = Array.isArray(h.contents) ? h.contents : [h.contents];
  return parts
    .map((p) => (typeof p === "string" ? p : p.value))
    .join("\n\n")
    .trim();
}

export class Navigator {
  constructor(private readonly fleet: LspFleet) {}

  private async serverFor(file: string): Promise<{ server: LspServer; path: string } | ToolResult> {
    const ws = this.fleet.workspace;
    const path = isAbsolute(file) ? resolve(file) : resolve(ws, file);
    const { server, def, why } = this.fleet.serve(path);
    if (!server) {
      const notes = this.fleet.takeNotices();
      if (why ?? notes[0]) return toolError(why ?? (notes[0] as string));
      if (def)
        return toolError(
          `no language server for ${file}: ${def.commands[0]?.[0]} (for ${def.name}) is not installed`,
        );
      return toolError(
        `no language server serves ${file} (outside the workspace, or no server is configured for its extension)`,
      );
    }
    if (!(await server.ensure()))
      return toolError(this.fleet.takeNotices()[0] ?? `lsp: ${server.name} is not running (${server.state})`);
    if (syncDocument(server, path, def?.languageIds) === undefined) return toolError(`cannot read ${file}`);
    return { server, path };
  }

  async run(input: LspInput): Promise<ToolResult> {
    try {
      return await this.operation(input);
    } catch (err) {
      return toolError((err as Error).message);
    }
  }

  private async operation(input: LspInput): Promise<ToolResult> {
    const ws = this.fleet.workspace;
    if (input.operation === "workspaceSymbol") return this.workspaceSymbol(input.query ?? "");
    if (input.operation === "diagnostics" && !input.file_path) return this.allDiagnostics();
    if (!input.file_path) return toolError(`${input.operation} needs file_path`);
    const got = await this.serverFor(input.file_path);
    if (!("server" in got)) return got;
    const { server, path } = got;
    const uri = uriOf(path);
    if (input.operation === "diagnostics") {
      const version = server.open.get(uri)?.version ?? 1;
      // Asked for, a first report is worth waiting for while the server loads the project.
      const wait = server.published.has(uri) ? DIAGNOSTICS_CAP_MS : FIRST_REPORT_WAIT_MS;
      await awaitDiagnostics(server, uri, version, -1, Date.now() + wait);
      const items = sortedProblems(server.published.get(uri)?.items ?? []);
      const shown = shownPath(ws, path);
      if (items.length === 0) return toolText(`${shown}: no errors or warnings`);
      return toolText(
        renderSections([{ header: `${shown}:`, lines: items.map((d) => diagnosticLine(shown, d)) }]),
      );
    }
    const method = METHODS[input.operation] as string;
    if (input.operation === "documentSymbol") {
      const r = await server.request<(DocumentSymbol | SymbolInformation)[] | null>(
        method,
        { textDocument: { uri } },
        REQUEST_TIMEOUT_MS,
      );
      const lines = symbolLines(ws, path, r ?? []);
      return toolText(lines.length ? lines.join("\n") : `no symbols in ${input.file_path}`);
    }
    if (input.line === undefined || input.character === undefined)
      return toolError(
        `${input.operation} needs line and character (1-based) of the symbol in ${input.file_path}`,
      );
    const position = { line: input.line - 1, character: input.character - 1 };
    const params = {
      textDocument: { uri },
      position,
      ...(input.operation === "findReferences" ? { context: { includeDeclaration: true } } : {}),
    };
    if (input.operation === "hover") {
      const text = hoverText(await server.request<Hover | null>(method, params, REQUEST_TIMEOUT_MS));
      return toolText(text || `nothing known at ${input.file_path}:${input.line}:${input.character}`);
    }
    const r = await server.request<Location | Location[] | LocationLink[] | null>(
      method,
      params,
      REQUEST_TIMEOUT_MS,
    );
    const found = r === null ? [] : Array.isArray(r) ? r : [r];
    if (found.length === 0)
      return toolText(
        `no result for ${input.operation} at ${input.file_path}:${input.line}:${input.character}`,
      );
    const lines = locationLines(ws, found);
    const more = found.length > lines.length ? [`... and ${found.length - lines.length} more`] : [];
    return toolText([...lines, ...more].join("\n"));
  }

  private running(): LspServer[] {
    return [...this.fleet.servers.values()].filter((s) => s.state === "ready");
  }

  private allDiagnostics(): ToolResult {
    const sections: { header: string; lines: string[] }[] = [];
    for (const s of this.running())
      for (const [uri, p] of s.published) {
        const shown = shownPath(this.fleet.workspace, pathOfUri(uri));
        const items = sortedProblems(p.items);
        if (items.length)
          sections.push({ header: `${shown}:`, lines: items.map((d) => diagnosticLine(shown, d)) });
      }
    if (this.running().length === 0)
      return toolText(
        "no language server is running yet: they start when a file of their language is read or changed",
      );
    return toolText(
      sections.length
        ? renderSections(sections)
        : "no errors or warnings in the files the language servers have open",
    );
  }

  private async workspaceSymbol(query: string): Promise<ToolResult> {
    const servers = this.running();
    if (servers.length === 0)
      return toolError(
        "no language server is running yet: read a file of the project first, or use documentSymbol with its file_path",
      );
    const lines: string[] = [];
    for (const s of servers) {
      const r = await s
        .request<(SymbolInformation | { name: string; kind: number; location: { uri: string } })[] | null>(
          "workspace/symbol",
          { query },
          REQUEST_TIMEOUT_MS,
        )
        .catch(() => null);
      for (const sym of r ?? []) {
        if (lines.length >= MAX_RESULTS) break;
        const loc = sym.location as Location | { uri: string };
        const start = "range" in loc ? loc.range.start : { line: 0, character: 0 };
        lines.push(
          `${shownPath(this.fleet.workspace, pathOfUri(loc.uri))}:${start.line + 1}:${start.character + 1} ${SYMBOL_KINDS[sym.kind] ?? "symbol"} ${sym.name}`,
        );
      }
    }
    return toolText(lines.length ? lines.join("\n") : `no symbol matches "${query}"`);
  }
}
