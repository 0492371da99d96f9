// Startup time of the compiled binary: `i --version`, wall clock per process, median of many runs.
// Builds the host binary first when dist/ has none. Usage: bun scripts/bench/startup.ts [runs]
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { arch, platform } from "node:os";
import { join } from "node:path";
import { report } from "./stats.ts";

const root = join(import.meta.dirname, "..", "..");
const os = platform() === "win32" ? "windows" : platform();
const bin = join(root, "dist", `i-${os}-${arch()}`, os === "windows" ? "i.exe" : "i");
if (!existsSync(bin)) spawnSync(process.execPath, ["scripts/build.ts"], { cwd: root, stdio: "inherit" });

const runs = Number(process.argv[2] ?? 40);
for (let i = 0; i < 5; i++) spawnSync(bin, ["--version"]);
const samples: number[] = [];
for (let i = 0; i < runs; i++) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(bin, ["--version"]);
  samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  if (r.status !== 0) throw new Error(`i --version exited ${r.status}`);
}
report("startup (i --version, compiled)", samples, "ms");
