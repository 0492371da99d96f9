// The ACP registry entry (`agent.json`) for a release: binary distribution for the five release platforms,
// each pointing at that platform's archive and the `i` executable inside it, started as `i acp`.
//   bun scripts/release/acp-agent.ts --release-url https://…/releases/download/v0.1.0 [--out dist/agent.json]
import { writeFileSync } from "node:fs";
import pkg from "../../package.json" with { type: "json" };
import { archiveExt, exeSuffix, TARGETS, type Target } from "./layout.ts";

/** The registry's platform names for ours. */
export const REGISTRY_PLATFORMS: Record<Target, string> = {
  "linux-x64": "linux-x86_64",
  "linux-arm64": "linux-aarch64",
  "darwin-x64": "darwin-x86_64",
  "darwin-arm64": "darwin-aarch64",
  "windows-x64": "windows-x86_64",
};

export interface AcpAgentEntry {
  id: string;
  name: string;
  version: string;
  description: string;
  license: string;
  distribution: { binary: Record<string, { archive: string; cmd: string; args: string[] }> };
}

export function acpAgentEntry(version: string, releaseUrl: string): AcpAgentEntry {
  const base = releaseUrl.replace(/\/+$/, "");
  const binary: AcpAgentEntry["distribution"]["binary"] = {};
  for (const t of TARGETS)
    binary[REGISTRY_PLATFORMS[t]] = {
      archive: `${base}/i-${t}${archiveExt(t)}`,
      // Each archive holds one top directory named like it (scripts/release/layout.ts).
      cmd: `./i-${t}/i${exeSuffix(t)}`,
      args: ["acp"],
    };
  return {
    id: "i",
    name: "i",
    version,
    description: pkg.description,
    license: pkg.license,
    distribution: { binary },
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const url = value("--release-url");
  if (!url || !/^https:\/\//.test(url)) {
    process.stderr.write(
      "acp-agent: --release-url URL is required: the https:// address the release archives are downloaded from\n",
    );
    process.exit(2);
  }
  const text = `${JSON.stringify(acpAgentEntry(pkg.version, url), null, 2)}\n`;
  const out = value("--out");
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
}
