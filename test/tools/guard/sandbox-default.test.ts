// The sandbox on by default: bash runs in it without any flag; where it cannot run the session says so
// in one line at start and goes on; --sandbox off and config.json's sandbox.mode "off" turn it off.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sandboxAvailability } from "../../../src/tools/sandbox.ts";
import { makeRig, type Rig } from "../../agent/rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const runs = !("problem" in sandboxAvailability());
const probe =
  "cat /proc/1/comm; touch ../outside.txt 2>/dev/null && echo wrote-outside || echo outside-read-only";

const toolResult = (r: Rig) => JSON.stringify(r.mock.requests[1]?.body ?? {});

test.skipIf(!runs)(
  "without a flag bash runs in the sandbox: its own pid 1, nothing written outside",
  async () => {
    rig = await makeRig({
      script: [{ tool_calls: [{ name: "bash", arguments: { command: probe } }] }, { text: "ok" }],
    });
    const r = await rig.run(["-p", "probe", "--approve", "all"]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("sandbox off");
    expect(toolResult(rig)).toContain("outside-read-only");
    expect(toolResult(rig)).toContain("bwrap");
    // The model is told it is sandboxed, with the network.
    expect(JSON.stringify(rig.mock.requests[0]?.body)).toContain(
      "Sandbox: commands can write only inside the workspace",
    );
  },
  30_000,
);

test("--sandbox off and config.json sandbox.mode off run bash unsandboxed, without a line", async () => {
  for (const how of ["flag", "config"] as const) {
    rig = await makeRig({
      script: [{ tool_calls: [{ name: "bash", arguments: { command: probe } }] }, { text: "ok" }],
      ...(how === "config" ? { config: { sandbox: { mode: "off" } } } : {}),
    });
    mkdirSync(join(rig.root, "tmp"));
    const r = await rig.run([
      "-p",
      "probe",
      "--approve",
      "all",
      ...(how === "flag" ? ["--sandbox", "off"] : []),
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(toolResult(rig)).toContain("wrote-outside");
    await rig.close();
    rig = undefined;
  }
}, 60_000);

test("where bubblewrap cannot run: one line at start saying why, and the run goes on", async () => {
  rig = await makeRig({ script: [{ text: "answered" }] });
  const r = await rig.run(["-p", "hi"], { PATH: "/nonexistent" });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("answered\n");
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^i: sandbox off: .*; bash runs unsandboxed/);
}, 30_000);
