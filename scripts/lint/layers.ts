// The layer lint: every import between folders of the source tree must be a direction the table in
// layer-table.ts allows (which folder may import which; docs/architecture.md prints it). Besides the table:
//   src/            reaches workers/ only through the one registry entry point `i worker` uses
//   examples/       import the SDK by its package name, never a path into this repository
//   and no two concerns (src/<folder>, workers/<folder>) import each other, directly or in a cycle, nor
//   two files.
//   bun scripts/lint/layers.ts               prints the violations and exits 1 (CI: test/scripts/lint/)
//   bun scripts/lint/layers.ts --graph       prints today's folder graph (what the table was derived from)
//   bun scripts/lint/layers.ts --write-docs  rewrites the table in docs/architecture.md from layer-table.ts
import { resolve } from "node:path";
import { concernOf, cycles, importGraph } from "./import-graph.ts";
import { writeLayerDocs } from "./layer-docs.ts";
import { LAYERS, type LayerRow, PENDING } from "./layer-table.ts";

export { concernOf, importsOf } from "./import-graph.ts";

/** The only file of src/ allowed to import from workers/, and the only file it may import. */
export const WORKER_ENTRY = { from: "src/cli/commands/worker.ts", to: "workers/registry.ts" };

export interface LayerTable {
  layers: Readonly<Record<string, LayerRow>>;
  pending: Readonly<Record<string, readonly string[]>>;
}

const TABLE: LayerTable = { layers: LAYERS, pending: PENDING };

/** The folder row a file falls under: its concern's own row, else the `workers/*` or `examples/*` row. */
export function folderRow(file: string, layers: LayerTable["layers"]): string | undefined {
  const c = concernOf(file);
  if (layers[c]) return c;
  const wild = `${c.split("/")[0]}/*`;
  return c.includes("/") && layers[wild] ? wild : undefined;
}

/** Whether a table target (a folder, one file, or `workers/*`) covers the repository path `to`. */
function covers(target: string, to: string): boolean {
  if (target.endsWith("/*")) return to.startsWith(target.slice(0, -1)) && to.split("/").length > 2;
  return to === target || to.startsWith(`${target}/`);
}

function explain(key: string, row: LayerRow): string {
  if (row.may.length === 0) return `${key} imports only its own files`;
  return `${key} may import only its own files and ${row.may.join(", ")}`;
}

/** Every broken rule under `root` (a repository checkout or a fixture tree), one line each. */
export function layerViolations(root: string, table: LayerTable = TABLE): string[] {
  const problems: string[] = [];
  const { files, edges } = importGraph(root);
  const unplaced = new Set<string>();
  const pendingUsed = new Set<string>();
  const folderEdges = new Map<string, Set<string>>();
  const fileEdges = new Map<string, Set<string>>();
  for (const f of files) {
    const key = folderRow(f, table.layers);
    if (!key && !table.layers[f]) unplaced.add(concernOf(f));
  }
  for (const { from, to } of edges) {
    const a = concernOf(from);
    const b = concernOf(to);
    (fileEdges.get(from) ?? fileEdges.set(from, new Set()).get(from))?.add(to);
    if (a === b) continue;
    if (a.startsWith("src/") || a.startsWith("workers/"))
      (folderEdges.get(a) ?? folderEdges.set(a, new Set()).get(a))?.add(b);
    const key = folderRow(from, table.layers);
    const rows = [key, from].flatMap((k) => (k && table.layers[k] ? [table.layers[k]] : []));
    if (rows.length === 0) continue; // reported once for the folder, below
    if (rows.some((r) => r.may.some((t) => covers(t, to)))) continue;
    const pending = key ? table.pending[key] : undefined;
    if (pending?.includes(to)) {
      pendingUsed.add(`${key} ${to}`);
      continue;
    }
    // The shipped layers' own rule (only the contract, only the lib) says more than the worker entry rule.
    const shipped = key === "src/contract" || key === "src/lib";
    if (from.startsWith("src/") && to.startsWith("workers/") && !shipped)
      problems.push(
        `${from} imports ${to}: src/ reaches workers/ only through ${WORKER_ENTRY.from} → ${WORKER_ENTRY.to}`,
      );
    else if (from.startsWith("examples/"))
      problems.push(
        `${from} imports ${to}: an example imports the SDK by package name, never a path into the repository`,
      );
    else {
      const k = key ?? from;
      problems.push(
        `${from} imports ${to}: ${explain(k, table.layers[k] as LayerRow)} (scripts/lint/layer-table.ts)`,
      );
    }
  }
  problems.sort();
  for (const c of [...unplaced].sort())
    problems.push(
      `${c} has no row in the layer table: add one to scripts/lint/layer-table.ts saying what it may import`,
    );
  for (const [key, targets] of Object.entries(table.pending)) {
    if (!files.some((f) => folderRow(f, table.layers) === key)) continue;
    for (const t of targets)
      if (!pendingUsed.has(`${key} ${t}`))
        problems.push(
          `layer table: PENDING lets ${key} import ${t}, which nothing there imports any more: delete that entry`,
        );
  }
  for (const c of cycles(folderEdges)) problems.push(`folder cycle: ${c.join(" ↔ ")}`);
  for (const c of cycles(fileEdges)) problems.push(`file cycle: ${c.join(" ↔ ")}`);
  return problems;
}

/** Today's folder graph, one line per folder: what the table's rows were derived from. */
export function folderGraph(root: string): string[] {
  const out = new Map<string, Set<string>>();
  for (const { from, to } of importGraph(root).edges) {
    const a = concernOf(from);
    const b = concernOf(to);
    if (a !== b) (out.get(a) ?? out.set(a, new Set()).get(a))?.add(b);
  }
  return [...out].sort(([x], [y]) => x.localeCompare(y)).map(([a, s]) => `${a} → ${[...s].sort().join(" ")}`);
}

if (import.meta.main) {
  const root = resolve(import.meta.dirname, "..", "..");
  const arg = process.argv[2];
  if (arg === "--graph") {
    for (const line of folderGraph(root)) console.log(line);
  } else if (arg === "--write-docs") {
    console.log(writeLayerDocs(root));
  } else if (arg !== undefined) {
    console.error(`layers: unknown option ${arg} (options: --graph, --write-docs)`);
    process.exit(2);
  } else {
    const problems = layerViolations(root);
    for (const p of problems) console.error(p);
    if (problems.length > 0) process.exit(1);
    const debts = Object.values(PENDING).reduce((n, t) => n + t.length, 0);
    console.log(`layers: ok (${debts} pending edge${debts === 1 ? "" : "s"} in scripts/lint/layer-table.ts)`);
  }
}
