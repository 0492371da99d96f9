// Where the action's `i` comes from: one already on the machine (the i_path input or I_ACTION_BINARY),
// the npm package for the runner's platform (npm checks the registry's integrity hashes), or the release
// archive for the platform, checked against the release's SHA256SUMS before it is unpacked. Installed
// copies are kept in the runner's tool cache by version and platform, so a later job on the same runner
// (a self-hosted one) starts without a download.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export class InstallError extends Error {}

/** linux-x64, darwin-arm64, windows-x64, … as the archives and npm packages name them. */
export function platformName(platform = process.platform, arch = process.arch): string {
  const os = { linux: "linux", darwin: "darwin", win32: "windows" }[platform as string];
  const name = `${os}-${arch}`;
  const known = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"];
  if (!os || !known.includes(name))
    throw new InstallError(`i has no build for ${platform}-${arch}; it runs on ${known.join(", ")}`);
  return name;
}

const exe = (platform: string) => (platform.startsWith("windows") ? "i.exe" : "i");

/** The SHA-256 SHA256SUMS gives for `file` (lines "HASH  NAME" or "HASH *NAME"). */
export function expectedSum(sums: string, file: string): string | undefined {
  for (const line of sums.split("\n")) {
    const m = /^([0-9a-f]{64})\s+\*?(.+)$/i.exec(line.trim());
    if (m && m[2] === file) return (m[1] as string).toLowerCase();
  }
  return undefined;
}

export interface InstallOptions {
  version: string;
  method: "npm" | "release";
  /** where releases live: `${releaseUrl}/i-<platform>.tar.gz` and `${releaseUrl}/SHA256SUMS` */
  releaseUrl?: string;
  /** the runner's tool cache (RUNNER_TOOL_CACHE), else a temporary folder */
  cacheDir: string;
  platform?: string;
  log: (line: string) => void;
}

async function download(url: string): Promise<Buffer> {
  const res = await fetch(url).catch((err: Error) => {
    throw new InstallError(`cannot download ${url}: ${err.message}`);
  });
  if (!res.ok) throw new InstallError(`cannot download ${url}: HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

function findFile(dir: string, name: string): string | undefined {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isFile() && e.name === name) return p;
    if (e.isDirectory()) {
      const found = findFile(p, name);
      if (found) return found;
    }
  }
  return undefined;
}

async function fromRelease(o: InstallOptions, platform: string, into: string): Promise<string> {
  if (!o.releaseUrl)
    throw new InstallError("install: release needs the release_url input (where the archives are)");
  const archive = `i-${platform}${platform.startsWith("windows") ? ".zip" : ".tar.gz"}`;
  const base = o.releaseUrl.replace(/\/+$/, "");
  const [sums, data] = [await download(`${base}/SHA256SUMS`), await download(`${base}/${archive}`)];
  const want = expectedSum(sums.toString("utf8"), archive);
  if (!want) throw new InstallError(`${base}/SHA256SUMS does not list ${archive}; the release is incomplete`);
  const got = createHash("sha256").update(data).digest("hex");
  if (got !== want)
    throw new InstallError(`${archive}: SHA-256 ${got} does not match SHA256SUMS (${want}); not installed`);
  o.log(`verified ${archive} against SHA256SUMS (${got})`);
  const file = join(into, archive);
  writeFileSync(file, data);
  // tar unpacks both: GNU tar the .tar.gz, Windows' bsdtar the .zip.
  const r = spawnSync("tar", ["-xf", file, "-C", into], { encoding: "utf8" });
  rmSync(file);
  if (r.status !== 0)
    throw new InstallError(`cannot unpack ${archive}: ${(r.stderr || r.error?.message || "").trim()}`);
  const bin = findFile(into, exe(platform));
  if (!bin) throw new InstallError(`${archive} holds no ${exe(platform)}`);
  return bin;
}

/** npm's own reason from its error lines: its last line only points at a debug log, so it is left out. */
export function npmReason(stderr = ""): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("npm error ") && !/complete log of this run/i.test(l))
    .map((l) => l.slice("npm error ".length));
  const code = lines.find((l) => /^code \S+$/.test(l))?.slice(5);
  const why =
    lines.find((l) => !/^(code|errno|syscall) \S+$/.test(l)) ?? stderr.trim().split("\n").at(-1) ?? "";
  const line = code && !why.includes(code) ? `${code}: ${why}` : why;
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

function fromNpm(o: InstallOptions, platform: string, into: string): string {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const r = spawnSync(
    npm,
    ["install", "--prefix", into, "--no-save", "--no-audit", "--no-fund", `i-agent@${o.version}`],
    { encoding: "utf8", shell: process.platform === "win32" },
  );
  if (r.status !== 0)
    throw new InstallError(
      `npm install i-agent@${o.version} failed: ${npmReason(r.stderr || r.error?.message)}`,
    );
  const bin = join(into, "node_modules", `i-agent-${platform}`, "bin", exe(platform));
  if (!existsSync(bin)) throw new InstallError(`npm installed i-agent@${o.version} without ${bin}`);
  return bin;
}

/** The path of an `i` to run: from the cache, else installed into it. */
export async function installI(o: InstallOptions): Promise<string> {
  const platform = o.platform ?? platformName();
  const dir = join(o.cacheDir || tmpdir(), "i-agent", o.version, `${platform}-${o.method}`);
  const marker = join(dir, ".binary");
  if (existsSync(marker)) {
    const bin = readFileSync(marker, "utf8").trim();
    if (existsSync(bin)) {
      o.log(`i ${o.version} from the tool cache (${bin})`);
      return bin;
    }
  }
  // Installed beside the final folder and renamed into place: a cancelled job leaves no half install.
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const bin =
      o.method === "release" ? await fromRelease(o, platform, staging) : fromNpm(o, platform, staging);
    if (!platform.startsWith("windows")) chmodSync(bin, 0o755);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    const final = join(dir, bin.slice(staging.length + 1));
    writeFileSync(marker, final);
    o.log(`installed i ${o.version} (${o.method}, ${platform})`);
    return final;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
