// Bundles the GitHub Action (integrations/action/src) into the one file action.yml runs,
// integrations/action/dist/index.js, with @actions/core and @actions/github inside it: a JavaScript
// action runs from its repository as checked out, with no install step. The bundle is committed; CI
// rebuilds it and fails when it differs (`bun scripts/build-action.ts --check`).
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const out = join(root, "integrations", "action", "dist", "index.js");
const check = process.argv.includes("--check");
const before = check ? readFileSync(out, "utf8") : "";

const result = await Bun.build({
  entrypoints: [join(root, "integrations", "action", "src", "index.ts")],
  target: "node",
  format: "esm",
  outdir: join(root, "integrations", "action", "dist"),
  naming: "index.js",
});
if (!result.success) {
  for (const log of result.logs) console.error(String(log));
  process.exit(1);
}
if (check && readFileSync(out, "utf8") !== before) {
  console.error("integrations/action/dist/index.js is stale: run bun scripts/build-action.ts and commit it");
  process.exit(1);
}
console.log(`wrote ${out.slice(root.length + 1)}`);
