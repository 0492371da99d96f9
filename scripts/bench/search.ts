// Speed of the search module's grep and find on a generated tree (2,000 files, ~40 MB of text), in process,
// median of several runs. Usage: bun scripts/bench/search.ts [runs]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { find } from "../../workers/search/find.ts";
import { grep } from "../../workers/search/grep.ts";
import { report } from "./stats.ts";

const runs = Number(process.argv[2] ?? 7);
const ws = mkdtempSync(join(tmpdir(), "i-bench-search-"));
try {
  const line = "const value = computeSomething(input, options); // a typical line of source code\n";
  const body = line.repeat(250); // ~20 KB per file
  for (let d = 0; d < 40; d++) {
    const dir = join(ws, "src", `pkg${d}`, "lib");
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 50; f++) {
      const marker = f === 7 ? "the RARE_MARKER sits here\n" : "";
      writeFileSync(join(dir, `file${f}.ts`), body + marker + body);
    }
  }
  mkdirSync(join(ws, "node_modules", "dep"), { recursive: true });
  writeFileSync(join(ws, "node_modules", "dep", "index.js"), body.repeat(20));

  const time = (name: string, fn: () => unknown) => {
    fn(); // warm up the page cache and the JIT
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = process.hrtime.bigint();
      fn();
      samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    report(name, samples, "ms");
  };
  time("grep rare literal over 40 MB (full scan)", () => grep(ws, { pattern: "RARE_MARKER" }));
  time("grep common word, stop at 200 results", () => grep(ws, { pattern: "computeSomething" }));
  time("grep regex, ignore_case, glob", () =>
    grep(ws, { pattern: "rare_\\w+", ignore_case: true, glob: "**/*.ts" }),
  );
  time("find **/*.ts (2,000 files)", () => find(ws, { pattern: "**/*.ts", max_results: 5000 }));
} finally {
  rmSync(ws, { recursive: true, force: true });
}
