// Keeping a server's view of a file equal to the disk (didOpen, then didChange with the whole text), and
// waiting for what it says about a change: pulled when the server offers textDocument/diagnostic, else the
// publishes it pushes — the changed file's fresh one, then until no other arrives for SETTLE_MS.
import { readFileSync, statSync } from "node:fs";
import { extname } from "node:path";
import { pathToFileURL } from "node:url";
import { pathOfUri } from "./format.ts";
import type { Diagnostic } from "./protocol.ts";
import type { LspServer } from "./server.ts";
import { offersTsserverRequest, tsserverDiagnostics } from "./tsserver-diagnostics.ts";

export const SETTLE_MS = 150;
/** Larger files are not sent to a server (a generated bundle, a data file). */
const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

const LANGUAGE_IDS: Record<string, string> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascriptreact",
  ".py": "python",
  ".pyi": "python",
  ".go": "go",
  ".rs": "rust",
  ".c": "c",
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hh": "cpp",
  ".hpp": "cpp",
  ".hxx": "cpp",
};

export function uriOf(path: string): string {
  return pathToFileURL(path).href;
}

function readDocument(path: string): string | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_DOCUMENT_BYTES) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function languageId(path: string, ids: Record<string, string> | undefined): string {
  const ext = extname(path).toLowerCase();
  return ids?.[ext] ?? LANGUAGE_IDS[ext] ?? ext.slice(1);
}

/**
 * Make the server see `path` as it is on disk. Returns the document's version, or undefined when the file
 * is gone (closed in the server) or too large.
 */
export function syncDocument(
  server: LspServer,
  path: string,
  ids?: Record<string, string>,
): number | undefined {
  const uri = uriOf(path);
  const text = readDocument(path);
  const open = server.open.get(uri);
  if (text === undefined) {
    if (open) {
      server.open.delete(uri);
      server.published.delete(uri);
      server.notify("textDocument/didClose", { textDocument: { uri } });
    }
    return undefined;
  }
  if (!open) {
    server.open.set(uri, { version: 1, text });
    server.notify("textDocument/didOpen", {
      textDocument: { uri, languageId: languageId(path, ids), version: 1, text },
    });
    return 1;
  }
  if (open.text === text) return open.version;
  const version = open.version + 1;
  server.open.set(uri, { version, text });
  server.notify("textDocument/didChange", {
    textDocument: { uri, version },
    contentChanges: [{ text }],
  });
  if (server.capabilities.textDocumentSync && typeof server.capabilities.textDocumentSync === "object")
    if (server.capabilities.textDocumentSync.save)
      server.notify("textDocument/didSave", { textDocument: { uri } });
  return version;
}

interface PullReport {
  kind: "full" | "unchanged";
  items?: Diagnostic[];
}

async function pull(server: LspServer, uri: string, deadline: number): Promise<void> {
  const left = deadline - Date.now();
  if (left <= 0) return;
  try {
    const r = await server.request<PullReport>("textDocument/diagnostic", { textDocument: { uri } }, left);
    if (r.kind === "full")
      server.published.set(uri, {
        version: server.open.get(uri)?.version,
        items: r.items ?? [],
        seq: server.publishSeq,
      });
  } catch {
    // Not answered in time: what the server said before stands.
  }
}

/**
 * Wait until the server has spoken about `uri` at `version` (or later) and then fallen quiet, or until
 * `deadline`. `since` is the publish count before the change was sent.
 */
export async function awaitDiagnostics(
  server: LspServer,
  uri: string,
  version: number,
  since: number,
  deadline: number,
): Promise<void> {
  if (offersTsserverRequest(server)) {
    const open = [...server.open.keys()];
    const done = await Promise.all(open.map((u) => tsserverDiagnostics(server, u, pathOfUri(u), deadline)));
    if (done[open.indexOf(uri)]) return;
  }
  if (server.capabilities.diagnosticProvider) {
    const others = [...server.open.keys()].filter((u) => u !== uri);
    await Promise.all([pull(server, uri, deadline), ...others.map((u) => pull(server, u, deadline))]);
    return;
  }
  const fresh = () => {
    const p = server.published.get(uri);
    return p !== undefined && p.seq > since && (p.version === undefined || p.version >= version);
  };
  while (!fresh() && Date.now() < deadline && server.state === "ready")
    await server.nextEvent(deadline - Date.now());
  // Other files' publishes follow the changed file's: wait for a quiet moment.
  while (fresh() && Date.now() < deadline && server.state === "ready") {
    const seen = server.publishSeq;
    await server.nextEvent(Math.min(SETTLE_MS, deadline - Date.now()));
    if (server.publishSeq === seen) return;
  }
}
