// The ACP registry entry: every release platform, each pointing at its archive and the executable in it.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { acpAgentEntry, REGISTRY_PLATFORMS } from "../../scripts/release/acp-agent.ts";
import { platformLayout, TARGETS } from "../../scripts/release/layout.ts";
import { ROOT } from "../helpers/cli.ts";

describe("agent.json", () => {
  test("binary distribution for the five release platforms, started as `i acp`", () => {
    const e = acpAgentEntry("1.2.3", "https://example.org/download/v1.2.3/");
    expect(e.id).toBe("i");
    expect(e.version).toBe("1.2.3");
    expect(Object.keys(e.distribution.binary).sort()).toEqual([
      "darwin-aarch64",
      "darwin-x86_64",
      "linux-aarch64",
      "linux-x86_64",
      "windows-x86_64",
    ]);
    for (const t of TARGETS) {
      const b = e.distribution.binary[REGISTRY_PLATFORMS[t]];
      const layout = platformLayout(ROOT, t, "i-built");
      expect(b?.archive).toBe(
        `https://example.org/download/v1.2.3/${layout.name}${t.startsWith("windows") ? ".zip" : ".tar.gz"}`,
      );
      // the archive holds its files under a top directory of its name: cmd is the executable there
      const exe = layout.members.find((m) => m.rel === "i" || m.rel === "i.exe")?.rel;
      expect(b?.cmd).toBe(`./${layout.name}/${exe}`);
      expect(b?.args).toEqual(["acp"]);
    }
  });

  test("the script refuses to write one without an https release URL", () => {
    const bad = spawnSync(process.execPath, ["scripts/release/acp-agent.ts"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--release-url URL is required");
  });
});
