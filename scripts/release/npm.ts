// npm packages, the way native CLIs ship on npm: the wrapper `i-agent` (npm/i-agent: a tiny launcher) lists
// one package per platform in optionalDependencies; each of those holds the executable and declares `os`
// and `cpu`, so npm installs only the matching one. No install script downloads anything.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isWindows, TARGETS, type Target } from "./layout.ts";

const NPM_OS: Record<string, string> = { linux: "linux", darwin: "darwin", windows: "win32" };

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
}

/** Why the wrapper's package.json disagrees with the repository's version and targets, if it does. */
export function wrapperProblem(root: string): string | undefined {
  const version = readJson(join(root, "package.json")).version;
  const wrapper = readJson(join(root, "npm", "i-agent", "package.json"));
  if (wrapper.version !== version)
    return `npm/i-agent/package.json has version ${String(wrapper.version)}, package.json ${String(version)}`;
  const want = Object.fromEntries(TARGETS.map((t) => [`i-agent-${t}`, version]));
  const have = wrapper.optionalDependencies as Record<string, unknown> | undefined;
  if (JSON.stringify(Object.entries(have ?? {}).sort()) !== JSON.stringify(Object.entries(want).sort()))
    return `npm/i-agent/package.json optionalDependencies must be exactly ${JSON.stringify(want)}`;
  return undefined;
}

function platformManifest(t: Target, version: unknown): Record<string, unknown> {
  const [os, cpu] = t.split("-") as [string, string];
  return {
    name: `i-agent-${t}`,
    version,
    description: `The i executable for ${t} (installed by the i-agent package)`,
    license: "MIT",
    os: [NPM_OS[os]],
    cpu: [cpu],
    files: ["bin/", "README.md", "LICENSE"],
    preferUnplugged: true,
  };
}

/** `npm pack` in `dir`, into `dest`; the tarball's path. */
function pack(dir: string, dest: string): string {
  const r = spawnSync("npm", ["pack", "--silent", "--pack-destination", dest], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    // npm is a .cmd script on Windows, which only a shell can start.
    shell: process.platform === "win32",
  });
  const name = r.stdout?.trim().split("\n").at(-1);
  if (r.status !== 0 || !name) throw new Error(`npm pack failed in ${dir} (exit ${r.status})`);
  return join(dest, name);
}

/** Stage and pack the wrapper and one package per built target; the tarballs' paths. */
export function packNpm(root: string, dist: string, binaries: ReadonlyMap<Target, string>): string[] {
  const problem = wrapperProblem(root);
  if (problem) throw new Error(`${problem} (keep them in step)`);
  const version = readJson(join(root, "package.json")).version;
  const out = join(dist, "npm");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const tarballs: string[] = [];

  const wrapper = join(out, "i-agent");
  cpSync(join(root, "npm", "i-agent"), wrapper, { recursive: true });
  copyFileSync(join(root, "LICENSE"), join(wrapper, "LICENSE"));
  chmodSync(join(wrapper, "bin", "i.js"), 0o755);
  tarballs.push(pack(wrapper, out));

  for (const [t, binary] of binaries) {
    const dir = join(out, `i-agent-${t}`);
    mkdirSync(join(dir, "bin"), { recursive: true });
    writeFileSync(join(dir, "package.json"), `${JSON.stringify(platformManifest(t, version), null, 2)}\n`);
    writeFileSync(
      join(dir, "README.md"),
      `# i-agent-${t}\n\nThe \`i\` executable for ${t}. Install the \`i-agent\` package instead: it picks this one on ${t}.\n`,
    );
    copyFileSync(join(root, "LICENSE"), join(dir, "LICENSE"));
    const exe = join(dir, "bin", isWindows(t) ? "i.exe" : "i");
    copyFileSync(binary, exe);
    chmodSync(exe, 0o755);
    tarballs.push(pack(dir, out));
  }
  return tarballs;
}
