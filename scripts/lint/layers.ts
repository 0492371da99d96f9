// The layering rules of the source tree, checked over the real import graph (static, dynamic and type-only
// imports alike, since a type import still ties a package to another):
//   src/contract/   imports only itself (and packages); src/lib/ only itself and the contract: the worker
//                   SDK package ships both
//   workers/sdk/    imports only itself, src/contract/ and src/lib/
//   workers/<m>/    imports only itself, workers/sdk/, src/contract/ and src/lib/
//   src/            never imports workers/, except the one registry entry point `i worker` uses
//   examples/       import the SDK by its package name, never a path into this repository
//   and no two concerns (src/<folder>, workers/<folder>) import each other, directly or in a cycle, nor
//   two files.
// `bun scripts/lint/layers.ts` prints the violations and exits 1; test/scripts/layers.test.ts runs it in CI.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** The only file of src/ allowed to import from workers/, and the only file it may import. */
export const WORKER_ENTRY = { from: "src/cli/commands/worker.ts", to: "workers/registry.ts" };

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^;'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

function sourceFiles(root: string, dir: string, out: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(join(root, dir));
  } catch {
    return out;
  }
  for (const name of names) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const rel = dir ? `${dir}/${name}` : name;
    if (statSync(join(root, rel)).isDirectory()) sourceFiles(root, rel, out);
    else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

/** The specifiers `text` imports (comments are not stripped: a commented import is rare and harmless). */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) out.push((m[1] ?? m[2] ?? m[3]) as string);
  return out;
}

/** `src/agent/loop.ts` → `src/agent`; `workers/sdk/serve.ts` → `workers/sdk`; top-level files → their dir. */
export function concernOf(file: string): string {
  const parts = file.split("/");
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
}

function ruleBroken(from: string, to: string): string | undefined {
  const toConcern = concernOf(to);
  const shipped = to.startsWith("src/contract/") || to.startsWith("src/lib/");
  if (from.startsWith("src/contract/")) {
    if (!to.startsWith("src/contract/")) return "the contract imports only itself";
  } else if (from.startsWith("src/lib/")) {
    if (!shipped) return "the shared lib imports only itself and the contract";
  } else if (from.startsWith("workers/sdk/")) {
    if (!to.startsWith("workers/sdk/") && !shipped)
      return "the SDK imports only itself, the contract and the shared lib";
  } else if (from === "workers/registry.ts") {
    if (!to.startsWith("workers/") && !to.startsWith("src/contract/"))
      return "the worker registry imports only workers and the contract";
  } else if (from.startsWith("workers/")) {
    const own = concernOf(from);
    if (toConcern !== own && !to.startsWith("workers/sdk/") && !shipped)
      return "a worker imports only its own folder, the SDK, the contract and the shared lib";
  } else if (from.startsWith("src/")) {
    if (to.startsWith("workers/") && !(from === WORKER_ENTRY.from && to === WORKER_ENTRY.to))
      return `src/ reaches workers/ only through ${WORKER_ENTRY.from} → ${WORKER_ENTRY.to}`;
  } else if (from.startsWith("examples/")) {
    if (concernOf(to) !== concernOf(from))
      return "an example imports the SDK by package name, never a path into the repository";
  }
  return undefined;
}

/** Concern-level cycles: each as the list of concerns around it. */
function cycles(edges: Map<string, Set<string>>): string[][] {
  // Tarjan's strongly connected components; any component of two or more concerns is a cycle.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v) as number, idx.get(w) as number));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/** Every broken rule under `root` (a repository checkout or a fixture tree), one line each. */
export function layerViolations(root: string): string[] {
  const problems: string[] = [];
  const edges = new Map<string, Set<string>>();
  const fileEdges = new Map<string, Set<string>>();
  const files = ["src", "workers", "examples"].flatMap((d) => sourceFiles(root, d));
  for (const from of files) {
    for (const spec of importsOf(readFileSync(join(root, from), "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const to = relative(root, resolve(root, dirname(from), spec))
        .split(sep)
        .join("/");
      const broken = ruleBroken(from, to);
      if (broken) problems.push(`${from} imports ${to}: ${broken}`);
      const out = fileEdges.get(from) ?? new Set<string>();
      fileEdges.set(from, out);
      out.add(to);
      const a = concernOf(from);
      const b = concernOf(to);
      if (a !== b && (a.startsWith("src/") || a.startsWith("workers/"))) {
        const set = edges.get(a) ?? new Set<string>();
        edges.set(a, set);
        set.add(b);
      }
    }
  }
  for (const c of cycles(edges)) problems.push(`folder cycle: ${c.join(" ↔ ")}`);
  for (const c of cycles(fileEdges)) problems.push(`file cycle: ${c.join(" ↔ ")}`);
  return problems;
}

if (import.meta.main) {
  const problems = layerViolations(resolve(import.meta.dirname, "..", ".."));
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log("layers: ok");
}
