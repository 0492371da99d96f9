// `npm run bench`: every benchmark script in turn, each in its own process, printing its own medians.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const SCRIPTS = [
  "startup.ts",
  "console.ts",
  "hook-roundtrip.ts",
  "hook-kept-fields.ts",
  "turns.ts",
  "providers.ts",
  "memory.ts",
  "estimate.ts",
  "compaction.ts",
  "search.ts",
  "checkpoint.ts",
  "release.ts",
];
let failed = 0;
for (const s of SCRIPTS) {
  console.log(`\n== ${s}`);
  const r = spawnSync(process.execPath, [join(import.meta.dirname, s)], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
