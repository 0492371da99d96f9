// Builds standalone executables with `bun build --compile`: the core (which also serves the default workers
// via `i worker`) for each platform, the example compactor, and release archives with SHA-256 checksums.
//   bun scripts/build.ts                 host platform only → dist/
//   bun scripts/build.ts --all           every release target (fetches Bun runtimes from the npm registry)
//   bun scripts/build.ts --target linux-arm64 [--target …] [--package] [--out DIR]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { arch, platform } from "node:os";
import { join, resolve } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const outAt = process.argv.indexOf("--out");
const DIST =
  outAt > 0 && process.argv[outAt + 1] ? resolve(process.argv[outAt + 1] as string) : join(ROOT, "dist");
const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
type Target = (typeof TARGETS)[number];

function hostTarget(): Target {
  const os = platform() === "win32" ? "windows" : platform();
  const t = `${os}-${arch()}` as Target;
  if (!TARGETS.includes(t)) throw new Error(`unsupported host ${t}`);
  return t;
}

function run(cmd: string, args: string[], cwd = ROOT): void {
  const r = spawnSync(cmd, args, { cwd, stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`build: ${cmd} ${args.join(" ")} failed (exit ${r.status})`);
    process.exit(1);
  }
}

function compile(entry: string, outfile: string, target: Target): void {
  run(process.execPath, [
    "build",
    "--compile",
    "--minify",
    "--bytecode",
    "--sourcemap=none",
    `--target=bun-${target}`,
    entry,
    "--outfile",
    outfile,
  ]);
}

async function sha256(file: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest("hex");
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const targets: Target[] = argv.includes("--all")
    ? [...TARGETS]
    : argv.flatMap((a, i) => (argv[i - 1] === "--target" ? [a as Target] : []));
  if (targets.length === 0) targets.push(hostTarget());
  for (const t of targets)
    if (!TARGETS.includes(t)) throw new Error(`unknown target ${t}; use one of ${TARGETS.join(", ")}`);
  const pack = argv.includes("--package") || argv.includes("--all");

  run(process.execPath, ["scripts/gen-prompts.ts"]);
  mkdirSync(DIST, { recursive: true });
  for (const t of targets) {
    const exe = t.startsWith("windows") ? ".exe" : "";
    const dir = join(DIST, `i-${t}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    compile("src/cli/main.ts", join(dir, `i${exe}`), t);
    const example = join(ROOT, "examples", "local-compactor", "main.ts");
    if (existsSync(example)) compile(example, join(dir, `i-local-compactor${exe}`), t);
    copyFileSync(join(ROOT, "scripts", "start.sh"), join(dir, "start.sh"));
    copyFileSync(join(ROOT, "scripts", "start.cmd"), join(dir, "start.cmd"));
    cpSync(join(ROOT, "schemas"), join(dir, "schemas"), { recursive: true });
    console.log(`built ${dir}`);
    if (pack) {
      const archive = join(DIST, `i-${t}.tar.gz`);
      run("tar", ["-czf", archive, "-C", DIST, `i-${t}`]);
      console.log(`packed ${archive}`);
    }
  }
  if (pack) {
    const lines: string[] = [];
    for (const f of readdirSync(DIST)
      .filter((f) => f.endsWith(".tar.gz"))
      .sort())
      lines.push(`${await sha256(join(DIST, f))}  ${f}`);
    writeFileSync(join(DIST, "SHA256SUMS"), `${lines.join("\n")}\n`);
    console.log(`wrote ${join(DIST, "SHA256SUMS")}`);
  }
}

await main();
