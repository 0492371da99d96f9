// A faster way to typescript-language-server's diagnostics. It pushes them only after a debounce made for
// typing (300 ms and more after each change, then 50 ms more), longer than an agent's whole-file edit should
// wait; it also offers the `typescript.tsserverRequest` command, through which tsserver answers
// `syntacticDiagnosticsSync` and `semanticDiagnosticsSync` for a file at once (a few ms once the project is
// loaded). When a server offers that command this is how a change's diagnostics are asked for; what it
// pushes later says the same and replaces them.
import type { Diagnostic } from "./protocol.ts";
import type { LspServer } from "./server.ts";

export const TSSERVER_REQUEST = "typescript.tsserverRequest";

interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category: string;
}

const SEVERITY: Record<string, 1 | 2 | 3 | 4> = { error: 1, warning: 2, message: 3, suggestion: 4 };

export function offersTsserverRequest(server: LspServer): boolean {
  return server.capabilities.executeCommandProvider?.commands?.includes(TSSERVER_REQUEST) ?? false;
}

function toLsp(d: TsDiagnostic): Diagnostic {
  return {
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    severity: SEVERITY[d.category] ?? 1,
    ...(d.code !== undefined ? { code: d.code } : {}),
    source: "typescript",
    message: d.text,
  };
}

async function ask(server: LspServer, command: string, file: string, ms: number): Promise<Diagnostic[]> {
  const r = await server.request<{ success?: boolean; body?: TsDiagnostic[] }>(
    "workspace/executeCommand",
    { command: TSSERVER_REQUEST, arguments: [command, { file }] },
    ms,
  );
  if (!r?.success || !Array.isArray(r.body)) throw new Error(`tsserver did not answer ${command}`);
  return r.body.map(toLsp);
}

/** The file's syntax and type errors from tsserver, stored as the server's latest for it; false if not had. */
export async function tsserverDiagnostics(
  server: LspServer,
  uri: string,
  path: string,
  deadline: number,
): Promise<boolean> {
  const left = deadline - Date.now();
  if (left <= 0) return false;
  try {
    const [syntax, semantic] = await Promise.all([
      ask(server, "syntacticDiagnosticsSync", path, left),
      ask(server, "semanticDiagnosticsSync", path, left),
    ]);
    server.published.set(uri, {
      version: server.open.get(uri)?.version,
      items: [...syntax, ...semantic],
      seq: server.publishSeq,
    });
    return true;
  } catch {
    return false;
  }
}
