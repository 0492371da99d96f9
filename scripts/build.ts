// Builds the release: per platform one standalone `i` (core, every default worker via `i worker …`, and the
// launcher logic) with `bun build --compile`, the examples, and with --package reproducible archives plus
// SHA256SUMS; with --npm the npm packages (a wrapper and one package per platform).
//   bun scripts/build.ts                       host platform, staged in dist/ (no archives)
//   bun scripts/build.ts --all                 every target, archives and SHA256SUMS
//   bun scripts/build.ts --target linux-arm64 [--target …] [--package] [--npm] [--out DIR]
// Other platforms' Bun runtimes come from the npm registry the first time (then Bun's cache).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { arch, platform } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ORDER_FILES } from "./bytecode-order-files.ts";
import { JIT_POLICY } from "./jit-policy.ts";
import { gzip, tar, zip } from "./release/archive.ts";
import {
  archiveExt,
  entriesOf,
  examplesLayout,
  exeSuffix,
  isWindows,
  type Layout,
  platformLayout,
  TARGETS,
  type Target,
} from "./release/layout.ts";
import { packNpm } from "./release/npm.ts";

const ROOT = join(import.meta.dirname, "..");
const USAGE = "usage: bun scripts/build.ts [--all | --target TARGET …] [--package] [--npm] [--out DIR]";

/** A build that cannot go on: one line, no stack. Usage mistakes exit 2, failed steps 1. */
function fail(message: string, code: 1 | 2): never {
  process.stderr.write(`build: ${message}\n`);
  process.exit(code);
}

function parse(argv: string[]): { targets: Target[]; pack: boolean; npm: boolean; dist: string } {
  let values: { all?: boolean; target?: string[]; package?: boolean; npm?: boolean; out?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        all: { type: "boolean" },
        target: { type: "string", multiple: true },
        package: { type: "boolean" },
        npm: { type: "boolean" },
        out: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    fail(`${(err as Error).message}; ${USAGE}`, 2);
  }
  for (const t of values.target ?? [])
    if (!(TARGETS as readonly string[]).includes(t))
      fail(`unknown target "${t}" (--target); use one of ${TARGETS.join(", ")}`, 2);
  if (values.all && values.target) fail(`--all already builds every target; drop --target. ${USAGE}`, 2);
  const targets = values.all ? [...TARGETS] : [...new Set((values.target ?? []) as Target[])];
  if (targets.length === 0) targets.push(hostTarget());
  return {
    targets,
    pack: values.package === true || values.all === true,
    npm: values.npm === true,
    dist: resolve(values.out ?? join(ROOT, "dist")),
  };
}

function hostTarget(): Target {
  const t = `${platform() === "win32" ? "windows" : platform()}-${arch()}`;
  if (!(TARGETS as readonly string[]).includes(t))
    fail(`this host (${t}) is not a release target; pass --target with one of ${TARGETS.join(", ")}`, 2);
  return t as Target;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const r = spawnSync(cmd, args, { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"] });
  if (r.error) fail(`cannot run ${cmd}: ${r.error.message}`, 1);
  if (r.status !== 0) fail(`${cmd} ${args.join(" ")} failed (exit ${r.status})`, 1);
}

function compile(entry: string, outfile: string, t: Target): void {
  mkdirSync(dirname(outfile), { recursive: true });
  run(process.execPath, [
    "build",
    "--compile",
    "--minify",
    "--bytecode",
    // Split into chunks loaded on first import: a start loads the code of what it runs, not of all of
    // `i` (`i --version` ~13 → ~8 ms, a worker loads no console). Splitting needs the ESM output format.
    "--format=esm",
    "--splitting",
    "--sourcemap=none",
    `--compile-jit-policy=${JIT_POLICY}`,
    // A standalone Bun executable reads `.env` and `bunfig.toml` from the directory it starts in unless
    // told not to: a workspace's `.env` would set I_CONFIG_DIR (its own plugins, hooks and bindings) and
    // its bunfig.toml `preload` would run its code before ours. `i` reads its settings from config_dir and
    // the user's environment only; and not looking for the two files sheds their syscalls at every start.
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    // The functions a session runs laid out together (scripts/bytecode-order.ts): fewer pages mapped.
    ...(ORDER_FILES.every((f) => existsSync(f)) ? [`--bytecode-order=${ORDER_FILES.join(",")}`] : []),
    `--target=bun-${t}`,
    join(ROOT, entry),
    "--outfile",
    outfile,
  ]);
}

/**
 * The Rust example's linux-x64 binary, built with the documented command (offline, from the vendored
 * crates). Cargo builds for the machine it runs on, so this needs a linux-x64 host. Source paths are
 * remapped to relative ones (in a target directory of its own, so the everyday build is not redone), so
 * the binary does not depend on where the repository is checked out.
 */
function rustBinary(): string {
  const targetDir = join(ROOT, "examples", "rust-plugin", "target", "archive");
  const bin = join(targetDir, "release", "i-plugin-example");
  const hasCargo = spawnSync("cargo", ["--version"], { stdio: "ignore" }).status === 0;
  if (hostTarget() !== "linux-x64" || !hasCargo) {
    fail(
      hostTarget() !== "linux-x64"
        ? "the linux-x64 examples archive carries the Rust example's binary, which cargo builds only on a linux-x64 host; package linux-x64 there"
        : "the linux-x64 examples archive needs cargo to build examples/rust-plugin (install Rust, or Debian's cargo)",
      1,
    );
  }
  const manifest = join("examples", "rust-plugin", "Cargo.toml");
  run("cargo", ["build", "--release", "--locked", "--manifest-path", manifest, "--target-dir", targetDir], {
    ...process.env,
    CARGO_ENCODED_RUSTFLAGS: `--remap-path-prefix=${ROOT}=.`,
  });
  return bin;
}

/** Copy (or write) every member into dist/<name>/ so the staged tree is exactly what the archive holds. */
function stage(dist: string, layout: Layout): string {
  const dir = join(dist, layout.name);
  for (const m of layout.members) {
    const dest = join(dir, m.rel);
    mkdirSync(dirname(dest), { recursive: true });
    if (m.text !== undefined) writeFileSync(dest, m.text);
    else if (m.from && resolve(m.from) !== resolve(dest)) copyFileSync(m.from, dest);
    chmodSync(dest, m.mode);
  }
  return dir;
}

function writeArchive(dist: string, layout: Layout, t: Target): string {
  const dir = join(dist, layout.name);
  const entries = entriesOf(layout, (rel) => readFileSync(join(dir, rel)));
  const file = join(dist, `${layout.name}${archiveExt(t)}`);
  writeFileSync(file, isWindows(t) ? zip(entries) : gzip(tar(entries)));
  return file;
}

const sha256 = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");

function main(): void {
  const started = performance.now();
  const { targets, pack, npm, dist } = parse(process.argv.slice(2));
  if (!existsSync(join(ROOT, "LICENSE"))) fail("LICENSE is missing from the repository root", 1);
  run(process.execPath, ["scripts/gen-prompts.ts"]);
  mkdirSync(dist, { recursive: true });
  // An earlier build's checksums must not outlive it: a failed or archive-less build leaves none.
  rmSync(join(dist, "SHA256SUMS"), { force: true });
  const artifacts: string[] = [];
  const binaries = new Map<Target, string>();
  for (const t of targets) {
    const platformDir = join(dist, `i-${t}`);
    const examplesDir = join(dist, `i-examples-${t}`);
    rmSync(platformDir, { recursive: true, force: true });
    rmSync(examplesDir, { recursive: true, force: true });
    const binary = join(platformDir, `i${exeSuffix(t)}`);
    compile("src/cli/main.ts", binary, t);
    binaries.set(t, binary);
    const compactor = join(examplesDir, "local-compactor", `i-local-compactor${exeSuffix(t)}`);
    compile("examples/local-compactor/main.ts", compactor, t);
    // Staging alone (no --package) skips the cargo build: the binary matters only in the archive.
    const rust = t === "linux-x64" && pack ? rustBinary() : undefined;
    const layouts = [platformLayout(ROOT, t, binary), examplesLayout(ROOT, t, compactor, rust)];
    for (const layout of layouts) {
      console.log(`staged ${stage(dist, layout)}`);
      if (pack) {
        const file = writeArchive(dist, layout, t);
        artifacts.push(file);
        console.log(`packed ${file}`);
      }
    }
  }
  if (npm) {
    try {
      artifacts.push(...packNpm(ROOT, dist, binaries));
    } catch (err) {
      fail((err as Error).message, 1);
    }
  }
  if (artifacts.length > 0) {
    // Exactly this build's artifacts: an older or foreign archive lying in dist/ is not vouched for.
    const names = artifacts
      .map((f) =>
        f
          .slice(dist.length + 1)
          .split("\\")
          .join("/"),
      )
      .sort();
    const lines = names.map((name) => `${sha256(join(dist, name))}  ${name}`);
    writeFileSync(join(dist, "SHA256SUMS"), `${lines.join("\n")}\n`);
    console.log(`wrote ${join(dist, "SHA256SUMS")}`);
  }
  console.log(`built ${targets.join(", ")} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main();
