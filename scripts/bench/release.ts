// The release for this host's platform: how long `scripts/build.ts --package --npm` takes, how big the
// archives are, and the startup of `i --version` installed with `npm install -g` (through the wrapper's
// Node launcher) against its floors measured in the same run: the bare executable, and Node starting
// an empty script. Usage: bun scripts/bench/release.ts [runs]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { report } from "./stats.ts";

const root = join(import.meta.dirname, "..", "..");
const runs = Number(process.argv[2] ?? 30);
const work = mkdtempSync(join(tmpdir(), "i-bench-release-"));
const out = join(work, "dist");

try {
  const t0 = performance.now();
  const b = spawnSync(process.execPath, ["scripts/build.ts", "--package", "--npm", "--out", out], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (b.status !== 0) throw new Error(`build failed (exit ${b.status})`);
  console.log(`build (host target, --package --npm): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  for (const f of readdirSync(out).filter((f) => f.endsWith(".tar.gz") || f.endsWith(".zip")))
    console.log(`archive ${f}: ${(statSync(join(out, f)).size / 1e6).toFixed(1)} MB`);

  const prefix = join(work, "prefix");
  const tgz = readdirSync(join(out, "npm"))
    .filter((f) => f.endsWith(".tgz"))
    .map((f) => join(out, "npm", f));
  const env = {
    ...process.env,
    npm_config_cache: join(work, "npm-cache"),
    npm_config_update_notifier: "false",
  };
  const inst = spawnSync(
    "npm",
    ["install", "-g", "--prefix", prefix, "--offline", "--no-audit", "--no-fund", ...tgz],
    {
      env,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  if (inst.status !== 0) throw new Error(`npm install failed (exit ${inst.status})`);

  const windows = process.platform === "win32";
  const viaNpm = join(prefix, windows ? "i.cmd" : join("bin", "i"));
  const bare = readdirSync(out).find(
    (d) => d.startsWith("i-") && !d.startsWith("i-examples") && !d.includes("."),
  );
  const exe = join(out, bare as string, windows ? "i.exe" : "i");
  const time = (file: string, args: string[]): number[] => {
    for (let i = 0; i < 3; i++) spawnSync(file, args);
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const s = process.hrtime.bigint();
      const r = spawnSync(file, args);
      samples.push(Number(process.hrtime.bigint() - s) / 1e6);
      if (r.status !== 0) throw new Error(`${file} ${args.join(" ")} exited ${r.status}`);
    }
    return samples;
  };
  report("i --version, npm-installed (node launcher + executable)", time(viaNpm, ["--version"]), "ms");
  report("floor: i --version, the executable itself", time(exe, ["--version"]), "ms");
  const node = spawnSync("node", ["--version"], { encoding: "utf8" }).stdout.trim();
  report(`floor: node -e '' (the launcher's runtime, Node ${node})`, time("node", ["-e", ""]), "ms");
} finally {
  rmSync(work, { recursive: true, force: true });
}
