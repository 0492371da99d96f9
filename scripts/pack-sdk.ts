// Packs the worker SDK, the contract and the shared lib (src/lib) as the npm package @i-agent/worker-sdk, version = i's version:
// compiled to JavaScript with type declarations (so it runs under Node, Bun and Deno alike), zod as its one
// dependency.   bun scripts/pack-sdk.ts [OUT_DIR]   → OUT_DIR/i-agent-worker-sdk-<version>.tgz (default dist/)
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const SDK_PACKAGE = "@i-agent/worker-sdk";

const root = resolve(import.meta.dirname, "..");

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr || r.stdout}`);
  return r.stdout;
}

/** Build the package in a scratch directory and `npm pack` it into `outDir`; returns the tarball's path. */
export function packSdk(outDir: string): string {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    version: string;
    license: string;
    dependencies: Record<string, string>;
  };
  const stage = mkdtempSync(join(tmpdir(), "i-worker-sdk-"));
  try {
    const tsc = join(root, "node_modules", ".bin", "tsc");
    run(
      tsc,
      ["-p", join(root, "workers", "sdk", "tsconfig.pack.json"), "--outDir", join(stage, "dist")],
      root,
    );
    const entry = "./dist/workers/sdk/index";
    const manifest = {
      name: SDK_PACKAGE,
      version: pkg.version,
      description:
        "Write worker modules for the i coding agent: the protocol contract (zod) and the serve loop",
      license: pkg.license,
      type: "module",
      exports: { ".": { types: `${entry}.d.ts`, default: `${entry}.js` } },
      main: `${entry}.js`,
      types: `${entry}.d.ts`,
      files: ["dist", "README.md"],
      dependencies: { zod: pkg.dependencies.zod },
    };
    writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    copyFileSync(join(root, "workers", "sdk", "README.md"), join(stage, "README.md"));
    mkdirSync(outDir, { recursive: true });
    const out = run("npm", ["pack", "--silent", "--pack-destination", resolve(outDir)], stage).trim();
    return join(resolve(outDir), out.split("\n").at(-1) as string);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(packSdk(process.argv[2] ?? join(root, "dist")));
