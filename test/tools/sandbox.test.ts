// --sandbox workspace-write: bash runs under bubblewrap with the filesystem read-only outside the
// workspace and a private /tmp, no network, and a pid namespace of its own (the core is not in its
// /proc). Without bwrap the flag is a one-line error, exit 2.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer, type Server } from "node:net";
import { join } from "node:path";
import { sandboxAvailability } from "../../src/tools/sandbox.ts";
import { makeRig, type Rig } from "../agent/rig.ts";
import { runCli } from "../helpers/cli.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const available = !("problem" in sandboxAvailability());

const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** A TCP port on 127.0.0.1 that accepts connections (and closes them). */
function listener(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer((sock) => sock.end());
    servers.push(server);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

describe.skipIf(!available)("bash in the sandbox", () => {
  test("workspace writable; outside read-only; /tmp private; no network; the core is not in /proc", async () => {
    // Outside the workspace and outside /tmp, on the real filesystem.
    const outsideDir = mkdtempSync("/var/tmp/i-sandbox-test-");
    const outside = join(outsideDir, "escaped.txt");
    try {
      const port = await listener();
      const hostTmp = `/tmp/i-sandbox-escape-${process.pid}-${Date.now()}.txt`;
      const command = [
        "echo inside > in-workspace.txt && echo wrote-workspace",
        `(echo x > ${outside}) 2>/dev/null && echo wrote-outside || echo outside-refused`,
        `echo t > ${hostTmp} && echo wrote-private-tmp`,
        `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo net-open || echo net-refused`,
        // The core runs src/cli/main.ts; the bracket keeps this command line itself from matching.
        "grep -l 'cli/mai[n]' /proc/[0-9]*/cmdline 2>/dev/null | wc -l | sed 's/^/core-visible-/'",
        "ls -d /proc/[0-9]* | wc -l | sed 's/^/pids-/'",
        `cat ${"$"}I_CONFIG_DIR/auth.json 2>/dev/null || echo auth-hidden`,
      ].join("; ");
      rig = await makeRig({
        script: [{ tool_calls: [{ name: "bash", arguments: { command } }] }, { text: "done" }],
      });
      // A config dir outside /tmp (the sandbox's /tmp is private anyway), with a key in auth.json.
      const cfg = join(outsideDir, "cfg");
      cpSync(rig.configDir, cfg, { recursive: true });
      writeFileSync(join(cfg, "auth.json"), '{"anthropic":"authfile-secret-value"}', { mode: 0o600 });
      const r = await rig.run(["-p", "probe", "--approve", "all", "--sandbox", "workspace-write"], {
        I_CONFIG_DIR: cfg,
      });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const result = JSON.stringify(rig.mock.requests[1]?.body);
      expect(result).toContain("wrote-workspace");
      expect(readFileSync(join(rig.workspace, "in-workspace.txt"), "utf8")).toBe("inside\n");
      expect(result).toContain("outside-refused");
      expect(existsSync(outside)).toBe(false);
      expect(result).toContain("wrote-private-tmp");
      expect(existsSync(hostTmp)).toBe(false);
      expect(result).toContain("net-refused");
      expect(result).toContain("core-visible-0");
      const pids = Number(/pids-(\d+)/.exec(result)?.[1]);
      expect(pids).toBeLessThan(8);
      expect(result).toContain("auth-hidden");
      expect(result).not.toContain("authfile-secret-value");
    } finally {
      rmSync(outsideDir, { recursive: true, force: true });
    }
  }, 30_000);

  test("workspace-write,network allows the network", async () => {
    const port = await listener();
    const command = `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo net-open || echo net-refused`;
    rig = await makeRig({
      script: [{ tool_calls: [{ name: "bash", arguments: { command } }] }, { text: "done" }],
    });
    const r = await rig.run(["-p", "probe", "--approve", "all", "--sandbox", "workspace-write,network"]);
    expect(r.code).toBe(0);
    expect(JSON.stringify(rig.mock.requests[1]?.body)).toContain("net-open");
  }, 30_000);
});

describe("i doctor", () => {
  test("says whether the sandbox is available", () => {
    const cfg = mkdtempSync("/tmp/i-sandbox-doctor-");
    try {
      const env = { I_CONFIG_DIR: cfg, I_DATA_DIR: join(cfg, "data") };
      const r = runCli(["doctor"], env, cfg);
      expect(r.stdout).toMatch(
        available
          ? /^sandbox: on by default \(bash runs in .*bwrap; --sandbox off or config.json sandbox.mode "off" turns it off\)$/m
          : /^sandbox: not available/m,
      );
      const none = runCli(["doctor"], { ...env, PATH: "/nonexistent" }, cfg);
      expect(none.stdout).toMatch(
        /^sandbox: not available, bash runs unsandboxed \(--sandbox would be refused\): /m,
      );
    } finally {
      rmSync(cfg, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("refusals", () => {
  test("without bwrap on PATH: one line naming the flag and the fix, exit 2", () => {
    const r = runCli(["-p", "x", "--sandbox", "workspace-write", "-m", "m"], { PATH: "/nonexistent" });
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^i: --sandbox: .*(bwrap|Linux and macOS only).*; or run with --sandbox off$/);
  });

  test("an unknown mode: one line, exit 2", () => {
    const r = runCli(["-p", "x", "--sandbox", "read-only", "-m", "m"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'i: --sandbox: "read-only" is not a sandbox mode; use workspace-write, workspace-write,network or off\n',
    );
  });
});
