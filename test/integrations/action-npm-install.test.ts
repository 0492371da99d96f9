// The action's default install: `npm install i-agent@VERSION` from a registry, here a local one in a
// process of its own serving the packages the release script packs (the wrapper and one package per
// platform, each holding a stand-in executable). npm picks the runner's platform package by its os and cpu;
// the second install comes from the tool cache; a tarball whose hash is not the registry's is refused.
import { afterEach, describe, expect, test } from "bun:test";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InstallError, installI, platformName } from "../../integrations/action/src/install.ts";
import { TARGETS, type Target } from "../../scripts/release/layout.ts";
import { packNpm } from "../../scripts/release/npm.ts";
import { ROOT, removeDir, tempDir } from "../helpers/cli.ts";

const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const windows = process.platform === "win32";

let root = "";
let registry: ChildProcess | undefined;
const saved = { ...process.env };

afterEach(() => {
  registry?.kill();
  registry = undefined;
  for (const k of [
    "npm_config_registry",
    "npm_config_cache",
    "npm_config_update_notifier",
    "npm_config_fetch_retries",
  ])
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  removeDir(root);
});

/** Packs every platform's package around a script that prints its platform, serves them, points npm there. */
async function serveRegistry(tamper?: string): Promise<void> {
  root = tempDir("i-npm-install-");
  const exe = join(root, "stand-in");
  writeFileSync(exe, `#!/bin/sh\necho i-from-npm ${platformName()}\n`, { mode: 0o755 });
  const binaries = new Map<Target, string>(TARGETS.map((t) => [t, exe]));
  const dist = join(root, "dist");
  mkdirSync(dist);
  packNpm(ROOT, dist, binaries);
  const child = spawn(
    process.execPath,
    [join(ROOT, "test/fixtures/npm-registry.ts"), join(dist, "npm"), ...(tamper ? ["--tamper", tamper] : [])],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  registry = child;
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.once("data", (b: Buffer) => resolve(b.toString().trim()));
    child.once("exit", (code) => reject(new Error(`the registry exited ${code}`)));
  });
  process.env.npm_config_registry = url;
  process.env.npm_config_cache = join(root, "npm-cache");
  process.env.npm_config_update_notifier = "false";
  // npm retries a corrupt tarball with a back-off of minutes; one attempt is enough to see it refused.
  if (tamper) process.env.npm_config_fetch_retries = "0";
}

describe.skipIf(windows)("install from npm", () => {
  test("the platform's package installed, its executable run, the second install from the cache", async () => {
    await serveRegistry();
    const logs: string[] = [];
    const opts = {
      version,
      method: "npm" as const,
      cacheDir: join(root, "cache"),
      log: (l: string) => logs.push(l),
    };
    const bin = await installI(opts);
    expect(bin).toEndWith(join("node_modules", `i-agent-${platformName()}`, "bin", "i"));
    expect(spawnSync(bin, [], { encoding: "utf8" }).stdout).toBe(`i-from-npm ${platformName()}\n`);
    // Only the runner's platform package is installed (npm honours each package's os and cpu).
    const modules = readdirSync(
      join(root, "cache", "i-agent", version, `${platformName()}-npm`, "node_modules"),
    );
    expect(modules.filter((m) => m.startsWith("i-agent-"))).toEqual([`i-agent-${platformName()}`]);
    expect(logs.at(-1)).toBe(`installed i ${version} (npm, ${platformName()})`);
    registry?.kill();
    const again = await installI(opts);
    expect(again).toBe(bin);
    expect(logs.at(-1)).toContain("from the tool cache");
  }, 120_000);

  test("a tarball that does not match the registry's integrity hash is refused with npm's reason, nothing installed", async () => {
    await serveRegistry("i-agent");
    const cacheDir = join(root, "cache");
    const run = installI({ version, method: "npm", cacheDir, log: () => {} });
    await expect(run).rejects.toThrow(InstallError);
    await expect(run).rejects.toThrow(`npm install i-agent@${version} failed: EINTEGRITY: sha512-`);
    await expect(run).rejects.toThrow("integrity checksum failed");
    expect(existsSync(join(cacheDir, "i-agent", version, `${platformName()}-npm`))).toBe(false);
  }, 120_000);
});
