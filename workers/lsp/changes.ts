// What a tool's change did, as the language servers see it: each changed file is synced to its server and
// its diagnostics awaited (bounded), then reported with the errors the change caused in other open files.
// Files only read are synced in the background: that starts their server before the first edit.
import type { FileDiagnosticCount } from "../../src/contract/lsp.ts";
import { awaitDiagnostics, syncDocument, uriOf } from "./documents.ts";
import type { LspFleet } from "./fleet.ts";
import {
  counts,
  diagnosticLine,
  pathOfUri,
  plural,
  renderSections,
  severityOf,
  shownPath,
  sortedProblems,
} from "./format.ts";
import type { Diagnostic } from "./protocol.ts";
import type { LspServer } from "./server.ts";

/** The most a change waits for its diagnostics once its server runs. */
export const DIAGNOSTICS_CAP_MS = 2_000;
/**
 * The most a change waits while its server has not said anything yet: starting it and loading the project
 * (tsserver reads its libraries first) take seconds once a session; after that DIAGNOSTICS_CAP_MS holds.
 */
export const COLD_START_CAP_MS = 8_000;

export interface ChangeReport {
  text: string;
  files: FileDiagnosticCount[];
}

const errorKey = (d: Diagnostic) => `${d.code ?? ""}\0${d.message}`;

/** How many times each error (by code and message) is in each open file other than `changed`. */
function errorsElsewhere(server: LspServer, changed: ReadonlySet<string>): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const [uri, p] of server.published) {
    if (changed.has(uri)) continue;
    const m = new Map<string, number>();
    for (const d of p.items) if (severityOf(d) === 1) m.set(errorKey(d), (m.get(errorKey(d)) ?? 0) + 1);
    out.set(uri, m);
  }
  return out;
}

async function started(server: LspServer, deadline: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ok = await Promise.race([
    server.ensure(),
    new Promise<false>((r) => {
      timer = setTimeout(() => r(false), Math.max(0, deadline - Date.now()));
    }),
  ]);
  clearTimeout(timer);
  return ok;
}

/** Sync files that were only read, without waiting (their server starts in the background). */
export function touch(fleet: LspFleet, paths: readonly string[]): void {
  for (const path of paths) {
    const { server, def, why } = fleet.serve(path);
    if (why) fleet.notice(why);
    if (!server) continue;
    void server.ensure().then((ok) => {
      if (ok) syncDocument(server, path, def?.languageIds);
    });
  }
}

export async function changed(fleet: LspFleet, paths: readonly string[]): Promise<ChangeReport | undefined> {
  const byServer = new Map<LspServer, string[]>();
  const languageIds = new Map<LspServer, Record<string, string> | undefined>();
  for (const path of paths) {
    const { server, def, why } = fleet.serve(path);
    if (why) fleet.notice(why);
    if (!server) continue;
    byServer.set(server, [...(byServer.get(server) ?? []), path]);
    languageIds.set(server, def?.languageIds);
  }
  if (byServer.size === 0) return undefined;
  const mine: { header: string; lines: string[] }[] = [];
  const theirs: string[] = [];
  const files: FileDiagnosticCount[] = [];
  await Promise.all(
    [...byServer].map(async ([server, list]) => {
      const cold = server.state !== "ready" || server.publishSeq === 0;
      const coldDeadline = Date.now() + COLD_START_CAP_MS;
      if (!(await started(server, cold ? coldDeadline : Date.now() + DIAGNOSTICS_CAP_MS))) return;
      const uris = new Set(list.map(uriOf));
      const before = errorsElsewhere(server, uris);
      const since = server.publishSeq;
      const deadline = cold ? coldDeadline : Date.now() + DIAGNOSTICS_CAP_MS;
      const synced = list.map((path) => ({
        path,
        version: syncDocument(server, path, languageIds.get(server)),
      }));
      await Promise.all(
        synced.map((s) =>
          s.version === undefined
            ? Promise.resolve()
            : awaitDiagnostics(server, uriOf(s.path), s.version, since, deadline),
        ),
      );
      for (const s of synced) {
        const items = s.version === undefined ? [] : (server.published.get(uriOf(s.path))?.items ?? []);
        const shown = shownPath(fleet.workspace, s.path);
        const c = counts(items);
        if (c.errors + c.warnings === 0) continue;
        files.push({ path: shown, ...c });
        const what = [
          c.errors ? plural(c.errors, "error") : "",
          c.warnings ? plural(c.warnings, "warning") : "",
        ];
        mine.push({
          header: `${server.name} reports ${what.filter(Boolean).join(" and ")} in ${shown}:`,
          lines: sortedProblems(items).map((d) => diagnosticLine(shown, d)),
        });
      }
      for (const [uri, p] of server.published) {
        if (uris.has(uri)) continue;
        const had = new Map(before.get(uri) ?? []);
        const fresh = p.items.filter((d) => {
          if (severityOf(d) !== 1) return false;
          const n = had.get(errorKey(d)) ?? 0;
          if (n > 0) {
            had.set(errorKey(d), n - 1);
            return false;
          }
          return true;
        });
        if (fresh.length === 0) continue;
        const shown = shownPath(fleet.workspace, pathOfUri(uri));
        files.push({ path: shown, errors: fresh.length, warnings: 0 });
        theirs.push(...sortedProblems(fresh).map((d) => diagnosticLine(shown, d)));
      }
    }),
  );
  if (mine.length === 0 && theirs.length === 0) return undefined;
  const text = renderSections([
    ...mine,
    { header: "New errors this change caused in other files:", lines: theirs },
  ]);
  return { text, files };
}
