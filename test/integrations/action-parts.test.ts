// The action's parts on their own: the job log made inert, argument splitting, the Windows bash check,
// and installing `i` from a release archive checked against SHA256SUMS (served from 127.0.0.1), with the
// tool cache used the second time and a tampered archive refused.
import { afterEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InputError, splitArgs } from "../../integrations/action/src/inputs.ts";
import { expectedSum, InstallError, installI, platformName } from "../../integrations/action/src/install.ts";
import { inert, logLines } from "../../integrations/action/src/log-lines.ts";
import { bashMissing } from "../../integrations/action/src/preflight.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

describe("the job log", () => {
  test("text from the model or a tool cannot issue a workflow command or move the cursor", () => {
    expect(inert("ok\n::set-output name=x::1\n  ::add-mask::y")).toBe(
      "ok\n· ::set-output name=x::1\n·   ::add-mask::y",
    );
    expect(inert("a\u001b[2Jb\rc\u0007")).toBe("a[2Jb\nc");
  });
  test("events as short lines: calls, diffs, failed results, errors, totals", () => {
    expect(logLines({ type: "tool_call", name: "bash", arguments: '{"command":"npm test"}' })).toEqual([
      "▸ bash npm test",
    ]);
    expect(
      logLines({
        type: "tool_diff",
        path: "a.ts",
        added: 1,
        removed: 1,
        omitted: 0,
        hunks: [
          [
            { op: "-", text: "old" },
            { op: "+", text: "new" },
          ],
        ],
      }),
    ).toEqual(["  a.ts: +1 -1", "    -old", "    +new"]);
    expect(logLines({ type: "tool_result", name: "bash", is_error: true, content: "exit 1" })).toEqual([
      "  ✗ bash: exit 1",
    ]);
    expect(logLines({ type: "tool_result", name: "read", is_error: false, content: "x" })).toEqual([]);
    expect(logLines({ type: "text_delta", text: "x" })).toEqual([]);
    expect(logLines({ type: "done", turns: 3, cost_usd: 0.01234 })).toEqual([
      "done: 3 model requests, $0.0123",
    ]);
  });
});

test("args split like a shell: quotes group words; an unclosed quote is an input error", () => {
  expect(splitArgs(`--max-turns 20 --profile "my profile" 'a b'`)).toEqual([
    "--max-turns",
    "20",
    "--profile",
    "my profile",
    "a b",
  ]);
  expect(splitArgs("")).toEqual([]);
  expect(() => splitArgs(`--x "open`)).toThrow(InputError);
});

test("Windows without bash: a line that says how to get Git Bash; elsewhere no check", () => {
  const msg = bashMissing("win32", { PATH: "/nonexistent" });
  expect(msg).toContain("no bash on PATH");
  expect(msg).toContain("Git for Windows");
  expect(msg).toContain("GITHUB_PATH");
  expect(bashMissing("linux", { PATH: "/nonexistent" })).toBeUndefined();
});

describe("install from a release archive", () => {
  let root = "";
  let server: ReturnType<typeof Bun.serve> | undefined;
  afterEach(() => {
    server?.stop(true);
    removeDir(root);
  });

  function serveRelease(tamper = false): string {
    root = tempDir("i-release-");
    const platform = platformName();
    const pkg = join(root, "pkg", `i-${platform}`);
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, "i"), "#!/bin/sh\necho i-from-release\n");
    const archive = join(root, `i-${platform}.tar.gz`);
    expect(spawnSync("tar", ["-czf", archive, "-C", join(root, "pkg"), `i-${platform}`]).status).toBe(0);
    const data = readFileSync(archive);
    const sum = createHash("sha256").update(data).digest("hex");
    const sums = `${tamper ? "0".repeat(64) : sum}  i-${platform}.tar.gz\n${"1".repeat(64)}  i-other.zip\n`;
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req) => {
        const name = new URL(req.url).pathname.split("/").pop();
        if (name === "SHA256SUMS") return new Response(sums);
        if (name === `i-${platform}.tar.gz`) return new Response(data);
        return new Response("not found", { status: 404 });
      },
    });
    return `http://127.0.0.1:${server.port}/v9.9.9`;
  }

  test("verified, unpacked, cached: the second install downloads nothing", async () => {
    const url = serveRelease();
    const logs: string[] = [];
    const opts = {
      version: "9.9.9",
      method: "release" as const,
      releaseUrl: url,
      cacheDir: join(root, "cache"),
    };
    const bin = await installI({ ...opts, log: (l) => logs.push(l) });
    expect(spawnSync(bin, [], { encoding: "utf8" }).stdout).toBe("i-from-release\n");
    expect(logs.some((l) => l.startsWith("verified i-"))).toBe(true);
    server?.stop(true);
    const again = await installI({ ...opts, log: (l) => logs.push(l) });
    expect(again).toBe(bin);
    expect(logs.at(-1)).toContain("from the tool cache");
  });

  test("an archive that does not match SHA256SUMS is refused, nothing installed", async () => {
    const url = serveRelease(true);
    const cacheDir = join(root, "cache");
    const run = installI({ version: "9.9.9", method: "release", releaseUrl: url, cacheDir, log: () => {} });
    await expect(run).rejects.toThrow(InstallError);
    await expect(
      installI({ version: "9.9.9", method: "release", releaseUrl: url, cacheDir, log: () => {} }),
    ).rejects.toThrow(/does not match SHA256SUMS/);
    expect(spawnSync("ls", [join(cacheDir, "i-agent", "9.9.9")], { encoding: "utf8" }).stdout).toBe("");
  });

  test("SHA256SUMS lines, with and without the binary-mode star", () => {
    const a = "a".repeat(64);
    expect(expectedSum(`${a}  i-linux-x64.tar.gz\n`, "i-linux-x64.tar.gz")).toBe(a);
    expect(expectedSum(`${a} *i-windows-x64.zip`, "i-windows-x64.zip")).toBe(a);
    expect(expectedSum(`${a}  other`, "i-linux-x64.tar.gz")).toBeUndefined();
  });
});
