// bash: a cut output is saved whole for read, bounded in number; workdir runs a command in a
// subdirectory of the workspace and nowhere else.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Approvals } from "../../src/tools/approvals.ts";
import { BASH_HEAD_BYTES, BASH_TAIL_BYTES } from "../../src/tools/bash.ts";
import { SAVED_OUTPUTS_KEPT, SavedOutputs } from "../../src/tools/saved-output.ts";
import type { ToolContext } from "../../src/tools/types.ts";
import { makeSandbox, run, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
let outputs: SavedOutputs;
const ctx = (): ToolContext => ({
  workspace: sb.workspace,
  approvals: new Approvals({ policy: "all" }),
  outputs,
});

beforeAll(() => {
  sb = makeSandbox();
  outputs = new SavedOutputs(join(sb.root, "session", "outputs"));
});
afterAll(() => sb.cleanup());

const savedPath = (text: string) => /is saved in (\S+):/.exec(text)?.[1];

describe("a cut output is saved whole", () => {
  test("the note names the file; read returns any part of it", async () => {
    const r = await run("bash", { command: "seq 1 20000" }, ctx());
    expect(r.text).toContain("cut from the middle of the output");
    expect(r.text).toMatch(
      /\[the whole output \(106\.3 KiB, 20000 lines\) is saved in \S+: `read` it with offset/,
    );
    const path = savedPath(r.text) as string;
    expect(path.startsWith(outputs.dir)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const part = await run("read", { path, offset: 10000, limit: 2 }, ctx());
    expect(part.is_error).toBe(false);
    expect(part.text).toStartWith("10000\t10000\n10001\t10001\n");
  });

  test("an output that fits is not saved", async () => {
    const before = existsSync(outputs.dir) ? readdirSync(outputs.dir).length : 0;
    const r = await run("bash", { command: "echo short" }, ctx());
    expect(r.text).toBe("short\n[exit code 0]");
    expect(readdirSync(outputs.dir).length).toBe(before);
  });

  test("only the newest outputs are kept", async () => {
    const big = BASH_HEAD_BYTES + BASH_TAIL_BYTES + 100;
    for (let i = 0; i < SAVED_OUTPUTS_KEPT + 2; i++)
      await run("bash", { command: `head -c ${big} /dev/zero | tr '\\0' x` }, ctx());
    expect(readdirSync(outputs.dir).length).toBe(SAVED_OUTPUTS_KEPT);
  });

  test("read refuses other paths outside the workspace, and links planted in the outputs folder", async () => {
    writeFileSync(join(sb.outside, "secret.txt"), "s");
    expect((await run("read", { path: join(sb.outside, "secret.txt") }, ctx())).text).toContain(
      "outside the workspace",
    );
    const { symlinkSync } = await import("node:fs");
    symlinkSync(join(sb.outside, "secret.txt"), join(outputs.dir, "bash-zz-link.txt"));
    expect((await run("read", { path: join(outputs.dir, "bash-zz-link.txt") }, ctx())).text).toContain(
      "outside the workspace",
    );
  });

  test("without a session (no outputs store) the old advice stays", async () => {
    const r = await run(
      "bash",
      { command: "seq 1 20000" },
      { workspace: sb.workspace, approvals: new Approvals({ policy: "all" }) },
    );
    expect(r.text).toContain("[to see all of the output, redirect it to a file and read or grep that]");
  });
});

describe("workdir", () => {
  test("runs the command in the subdirectory", async () => {
    mkdirSync(join(sb.workspace, "sub", "deep"), { recursive: true });
    const r = await run("bash", { command: "pwd", workdir: "sub/deep" }, ctx());
    expect(r.text).toBe(`${join(sb.workspace, "sub", "deep")}\n[exit code 0]`);
  });

  test("outside the workspace, missing or a file: one clear error, nothing run", async () => {
    const out = await run("bash", { command: "touch ran", workdir: "../outside" }, ctx());
    expect(out).toMatchObject({ is_error: true });
    expect(out.text).toContain("outside the workspace");
    expect(existsSync(join(sb.outside, "ran"))).toBe(false);
    expect((await run("bash", { command: "true", workdir: "nope" }, ctx())).text).toBe(
      'workdir "nope" does not exist; give a directory inside the workspace',
    );
    writeFileSync(join(sb.workspace, "f"), "");
    expect((await run("bash", { command: "true", workdir: "f" }, ctx())).text).toBe(
      'workdir "f" is a file, not a directory',
    );
  });
});
