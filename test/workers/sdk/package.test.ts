// The SDK is installable the way an outside author installs it: the packed tarball, the example compactor
// copied to a directory outside this repository, `npm install --offline` of the tarball, a standalone
// build, and `i doctor` with the result bound as the compact module. Offline npm has no registry metadata
// for zod, so zod is handed over as a tarball too, packed from this checkout's node_modules.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { packSdk, SDK_PACKAGE } from "../../../scripts/pack-sdk.ts";
import { BUN, MAIN, ROOT, TempDirs } from "../../worker/helpers.ts";

const dirs = new TempDirs();
let tarball = "";
let zod = "";
let app = "";

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: 120_000 });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

beforeAll(() => {
  const packs = dirs.make("i-sdk-pack-");
  tarball = packSdk(packs);
  const z = sh(
    "npm",
    ["pack", "--silent", "--pack-destination", packs, join(ROOT, "node_modules", "zod")],
    ROOT,
  );
  if (z.code !== 0) throw new Error(`npm pack zod failed: ${z.out}`);
  zod = join(packs, z.out.trim().split("\n").at(-1) as string);
  app = dirs.make("i-outside-author-");
  for (const f of ["main.ts", "notes.ts", "build.ts", "package.json"])
    cpSync(join(ROOT, "examples", "local-compactor", f), join(app, f));
}, 60_000);
afterAll(() => dirs.cleanup());

describe("the worker SDK package", () => {
  test("npm pack gives @i-agent/worker-sdk at i's version, with types, depending on zod only", () => {
    const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
    expect(tarball).toEndWith(`i-agent-worker-sdk-${version}.tgz`);
    const listing = sh("tar", ["tzf", tarball], ROOT).out;
    expect(listing).toContain("package/dist/workers/sdk/index.js");
    expect(listing).toContain("package/dist/workers/sdk/index.d.ts");
    expect(listing).toContain("package/dist/src/contract/hooks.js");
    expect(listing).not.toContain("package/dist/src/cli/");
    const example = JSON.parse(
      readFileSync(join(ROOT, "examples", "local-compactor", "package.json"), "utf8"),
    );
    expect(example.dependencies[SDK_PACKAGE]).toBe(version);
  });

  test("the example compactor builds outside the repository and passes i doctor", () => {
    expect(relative(ROOT, app).startsWith("..")).toBe(true);
    const install = sh("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball, zod], app);
    expect(install.out).not.toContain("ERR");
    expect(install.code).toBe(0);
    expect(existsSync(join(app, "node_modules", "@i-agent", "worker-sdk", "package.json"))).toBe(true);
    // Nothing in the copied sources may reach back into the repository.
    for (const f of ["main.ts", "notes.ts"])
      expect(readFileSync(join(app, f), "utf8")).not.toContain("../../");

    // The shipped declarations type the example as they type the repository's own workers.
    const types = sh(
      join(ROOT, "node_modules", ".bin", "tsc"),
      [
        ...["--noEmit", "--strict", "--skipLibCheck", "--allowImportingTsExtensions", "--target", "ES2022"],
        ...["--module", "preserve", "--moduleResolution", "bundler", "--types", "node"],
        ...["--typeRoots", join(ROOT, "node_modules", "@types"), "main.ts", "notes.ts", "build.ts"],
      ],
      app,
    );
    expect(types.out).toBe("");
    expect(types.code).toBe(0);

    const build = sh(BUN, ["build.ts"], app);
    expect(build.code).toBe(0);
    const binary = join(app, "dist", "i-local-compactor");
    expect(existsSync(binary)).toBe(true);

    const config = dirs.make("i-sdk-config-");
    writeFileSync(
      join(config, "bindings.json"),
      JSON.stringify({ compact: { exec: [binary, "--keep", "4"] } }),
    );
    const env = { ...process.env, I_CONFIG_DIR: config, I_DATA_DIR: join(config, "data"), HOME: config };
    // A model and a key, so the target checks doctor also makes pass and the worker rows decide.
    const doctor = sh(BUN, [MAIN, "doctor", "-m", "gpt-4o"], app, {
      ...env,
      OPENAI_API_KEY: "sk-test-key-not-real-0000000000",
    });
    expect(doctor.code).toBe(0);
    const row = doctor.out.split("\n").find((l) => l.startsWith("compact "));
    expect(row).toContain(binary);
    expect(row).toContain("ok");
  }, 120_000);
});
