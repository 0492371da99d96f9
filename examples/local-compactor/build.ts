// Compile the example compactor into one standalone executable (no Bun needed to run it).
//   bun examples/local-compactor/build.ts            → dist/i-local-compactor       (this machine)
//   bun examples/local-compactor/build.ts --windows  → dist/i-local-compactor.exe   (bun-windows-x64)
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const windows = process.argv.includes("--windows");
const here = import.meta.dirname;
const out = join(here, "dist", windows ? "i-local-compactor.exe" : "i-local-compactor");
const args = ["build", "--compile", join(here, "main.ts"), "--outfile", out];
if (windows) args.push("--target=bun-windows-x64");
const r = spawnSync(process.execPath, args, { stdio: "inherit" });
if (r.status !== 0) process.exit(r.status ?? 1);
console.log(out);
