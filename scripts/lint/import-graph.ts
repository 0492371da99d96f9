// The import graph of a source tree: every relative import (static, dynamic, type-only, side-effect and
// re-export alike, since a type import still ties a package to another) as an edge between repository
// paths, and the cycles in a graph. The layer lint (layers.ts) judges the edges.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^;'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

/** The folders whose files the graph covers. */
export const ROOTS = ["src", "workers", "examples"];

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

export interface ImportEdge {
  from: string;
  to: string;
}

/** The source files under `root` and every relative import among them, as repository paths. */
export function importGraph(root: string): { files: string[]; edges: ImportEdge[] } {
  const files = ROOTS.flatMap((d) => sourceFiles(root, d));
  const edges: ImportEdge[] = [];
  for (const from of files)
    for (const spec of importsOf(readFileSync(join(root, from), "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const to = relative(root, resolve(root, dirname(from), spec))
        .split(sep)
        .join("/");
      edges.push({ from, to });
    }
  return { files, edges };
}

/** The strongly connected components of two or more nodes: each cycle as its sorted members. */
export function cycles(edges: Map<string, Set<string>>): string[][] {
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
