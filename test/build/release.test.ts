// The release as users download it, for this host's platform: `scripts/build.ts --package --npm` twice
// (the archives and npm tarballs must come out byte for byte the same), what each archive holds, and the npm
// packages installed offline into a throwaway prefix, then run against the mock model.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { arch, platform } from "node:os";
import { join } from "node:path";
import { wrapperProblem } from "../../scripts/release/npm.ts";
import { type MockServer, startMockServer } from "../fixtures/mock-server/index.ts";
import { dirEnv, ROOT, removeDir, startProgram, tempDir } from "../helpers/cli.ts";

const target = `${platform() === "win32" ? "windows" : platform()}-${arch()}`;
const windows = target.startsWith("windows");
const ext = windows ? ".zip" : ".tar.gz";
const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
let dir: string;

function build(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["scripts/build.ts", ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Pids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // The parent pid is the second field after the parenthesised command name.
        const stat = readFileSync(`/proc/${d}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** Member names of an archive, via the system's tar (zip: Python's zipfile). */
function members(file: string): string[] {
  if (file.endsWith(".zip")) {
    const script = "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))";
    return spawnSync("python3", ["-c", script, file], { encoding: "utf8" }).stdout.trim().split("\n");
  }
  return spawnSync("tar", ["-tzf", file], { encoding: "utf8" }).stdout.trim().split("\n");
}

beforeAll(() => {
  dir = tempDir("i-release-");
  mkdirSync(join(dir, "b"));
  // A stale archive from some other build: SHA256SUMS must not vouch for it.
  writeFileSync(join(dir, "b", "i-old-build.tar.gz"), "not ours");
  for (const out of ["a", "b"]) {
    const r = build(["--target", target, "--package", "--npm", "--out", join(dir, out)]);
    if (r.code !== 0) throw new Error(`build failed: ${r.stderr}`);
  }
}, 600_000);
afterAll(() => removeDir(dir));

describe("release archives", () => {
  test("two builds give the same SHA-256 for every artifact; SHA256SUMS lists exactly them", () => {
    const sums = readFileSync(join(dir, "a", "SHA256SUMS"), "utf8");
    expect(readFileSync(join(dir, "b", "SHA256SUMS"), "utf8")).toBe(sums);
    const listed = sums
      .trim()
      .split("\n")
      .map((l) => l.split("  ") as [string, string]);
    expect(listed.map(([, f]) => f)).toEqual(
      [
        `i-${target}${ext}`,
        `i-examples-${target}${ext}`,
        `npm/i-agent-${version}.tgz`,
        `npm/i-agent-${target}-${version}.tgz`,
      ].sort(),
    );
    for (const [hash, f] of listed) expect(sha256(join(dir, "b", f))).toBe(hash);
  });

  test("the platform archive: one runtime (i), this platform's launchers, README, docs, LICENSE, schemas", () => {
    const file = join(dir, "a", `i-${target}${ext}`);
    const names = members(file).map((n) => n.replace(`i-${target}/`, ""));
    const exe = windows ? "i.exe" : "i";
    const launchers = windows ? ["start.cmd", "i-console.cmd"] : ["start.sh"];
    const desktop = windows
      ? "i-console.cmd"
      : target.startsWith("darwin")
        ? "i-console.command"
        : "i-console.desktop";
    if (existsSync(join(ROOT, "scripts", "desktop", desktop)) && !launchers.includes(desktop))
      launchers.push(desktop);
    for (const n of [
      exe,
      ...launchers,
      "README.md",
      "docs/architecture.md",
      "LICENSE",
      "schemas/config.json",
      "schemas/protocol/",
    ])
      expect(names).toContain(n);
    // Nothing else executable from another platform or from the examples.
    for (const n of [windows ? "start.sh" : "start.cmd", "i-local-compactor", "i-local-compactor.exe"])
      expect(names).not.toContain(n);
    const staged = join(dir, "a", `i-${target}`);
    const big = names.filter((n) => !n.endsWith("/") && statSync(join(staged, n)).size > 5_000_000);
    expect(big).toEqual([exe]);
  });

  test.skipIf(target !== "linux-x64")("the linux-x64 archive is at most 60 MB", () => {
    expect(statSync(join(dir, "a", `i-linux-x64${ext}`)).size).toBeLessThanOrEqual(60 * 1024 * 1024);
  });

  test("the examples archive: compiled TS compactor, Python compactor, Rust source (vendored) + binary", () => {
    const names = members(join(dir, "a", `i-examples-${target}${ext}`)).map((n) =>
      n.replace(`i-examples-${target}/`, ""),
    );
    for (const n of [
      `local-compactor/i-local-compactor${windows ? ".exe" : ""}`,
      "python-compactor/compactor.py",
      "rust-plugin/Cargo.toml",
      "rust-plugin/Cargo.lock",
      "rust-plugin/src/main.rs",
      "rust-plugin/vendor/serde_json/.cargo-checksum.json",
      ".cargo/config.toml",
    ])
      expect(names).toContain(n);
    const rust = "rust-plugin/target/release/i-plugin-example";
    if (target === "linux-x64") {
      expect(names).toContain(rust);
      const hello = JSON.stringify({
        id: 0,
        event: "hello",
        workspace: "/",
        data: { protocol: 1, module: "compact" },
      });
      const r = spawnSync(join(dir, "a", `i-examples-${target}`, rust), ["--compact"], {
        input: `${hello}\n`,
        encoding: "utf8",
      });
      expect(JSON.parse(r.stdout).data.hooks).toContain("compact_plan");
    } else expect(names).not.toContain(rust);
  });

  test("bad build flags are one line and exit 2", () => {
    for (const args of [["--target", "bogus"], ["--frobnicate"], ["--all", "--target", "linux-x64"]]) {
      const r = build(args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toStartWith("build: ");
    }
    expect(build(["--target", "bogus"]).stderr).toContain('unknown target "bogus"');
  });
});

describe("npm install -g", () => {
  let mock: MockServer;
  let prefix: string;
  const bin = () => join(prefix, windows ? "i.cmd" : join("bin", "i"));
  const npm = (args: string[]) =>
    spawnSync("npm", args, {
      encoding: "utf8",
      env: { ...process.env, npm_config_cache: join(dir, "npm-cache"), npm_config_update_notifier: "false" },
    });

  beforeAll(async () => {
    prefix = join(dir, "prefix");
    const tgz = (name: string) => join(dir, "a", "npm", `${name}-${version}.tgz`);
    const r = npm([
      "install",
      "-g",
      "--prefix",
      prefix,
      "--offline",
      "--no-audit",
      "--no-fund",
      tgz("i-agent"),
      tgz(`i-agent-${target}`),
    ]);
    if (r.status !== 0) throw new Error(`npm install failed: ${r.stderr}`);
    mock = await startMockServer({ script: [{ text: "hello from the npm build" }] });
    for (const d of ["ws", "cfg", "data"]) mkdirSync(join(dir, d), { recursive: true });
    writeFileSync(
      join(dir, "cfg", "config.json"),
      JSON.stringify({ models: { "mock-model": { context_window: 60000 } } }),
    );
  }, 120_000);
  afterAll(async () => {
    await mock?.close();
  });

  test("the wrapper's version and optionalDependencies match package.json", () => {
    expect(wrapperProblem(ROOT)).toBeUndefined();
    const platformPkg = JSON.parse(
      readFileSync(join(dir, "a", "npm", `i-agent-${target}`, "package.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(platformPkg).toMatchObject({ version, os: [windows ? "win32" : platform()], cpu: [arch()] });
    expect(platformPkg.scripts).toBeUndefined();
  });

  test("`i --version` on the installed package", async () => {
    const r = await startProgram(bin(), ["--version"], { env: dirEnv(dir) }).done;
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`i ${version}\n`);
    expect(r.code).toBe(0);
  });

  test("a print session through the installed package, its built-in workers included", async () => {
    const r = await startProgram(bin(), ["-p", "hi", "-m", "mock-model", "--base-url", mock.url], {
      env: dirEnv(dir),
      cwd: join(dir, "ws"),
    }).done;
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("hello from the npm build\n");
    expect(r.code).toBe(0);
    expect(mock.requests).toHaveLength(1);
  });

  test.skipIf(platform() !== "linux")(
    "SIGTERM to the launcher reaches i; neither is left running",
    async () => {
      const hang = await startMockServer({ script: [{ text: "working on it", hang: true }] });
      try {
        const run = startProgram(bin(), ["-p", "hi", "-m", "mock-model", "--base-url", hang.url], {
          env: dirEnv(dir),
          cwd: join(dir, "ws"),
        });
        for (let i = 0; i < 400 && hang.requests.length === 0; i++) await sleep(50);
        expect(hang.requests).toHaveLength(1);
        // i is the launcher's child (or, where Node can exec, the launcher process itself).
        const launcher = run.child.pid as number;
        const ids = [launcher, ...childrenOf(launcher)];
        run.child.kill("SIGTERM");
        const r = await run.done;
        expect(r.code).not.toBe(0);
        await sleep(300);
        for (const id of ids) expect(existsSync(`/proc/${id}`)).toBe(false);
      } finally {
        await hang.close();
      }
    },
    60_000,
  );

  test("without its platform package the launcher says which one is missing", async () => {
    const alone = join(dir, "alone");
    const r = npm([
      "install",
      "-g",
      "--prefix",
      alone,
      "--offline",
      "--no-audit",
      "--no-fund",
      join(dir, "a", "npm", `i-agent-${version}.tgz`),
    ]);
    expect(r.status).toBe(0);
    const run = await startProgram(join(alone, windows ? "i.cmd" : join("bin", "i")), ["--version"]).done;
    expect(run.code).toBe(1);
    expect(run.stderr).toStartWith(
      `i: the package i-agent-${target} that holds the i executable is not installed`,
    );
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  }, 60_000);
});
