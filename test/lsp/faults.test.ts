// Faults with fake language servers (fixtures/fake-server.mjs): each is one clear line for the user, said
// once, and the edit itself stands as it would without the module.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { events, type Rig } from "../agent/rig.ts";
import { fakeConfig, lspRig, notices, toolResults } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const write = (path: string, content: string) => ({
  tool_calls: [{ name: "write", arguments: { path, content } }],
});
const run = (r: Rig) => r.run(["-p", "go", "--approve", "all", "--json"]);

describe("lsp faults", () => {
  test("a working server: errors first, then warnings, line:col, code and message; clean adds nothing", async () => {
    rig = await lspRig({
      lsp: fakeConfig("ok"),
      script: [write("a.fk", "meh\nbad\n"), write("a.fk", "fine\n"), { text: "done" }],
    });
    const r = await run(rig);
    expect(r.code).toBe(0);
    const [first, second] = toolResults(rig);
    expect(first).toEndWith(
      "fake reports 1 error and 1 warning in a.fk:\na.fk:2:1 error [F1]: fake error\na.fk:1:1 warning [F2]: fake warning",
    );
    expect(second).not.toContain("fake");
    expect(notices(r.stdout)).toEqual([]);
  }, 60_000);

  test("a configured command that does not exist: one line naming the file and command, said once", async () => {
    rig = await lspRig({
      lsp: { servers: { fake: { command: "no-such-language-server", extensions: [".fk"] } } },
      script: [write("a.fk", "bad\n"), write("b.fk", "bad\n"), { text: "done" }],
    });
    const r = await run(rig);
    expect(r.code).toBe(0);
    expect(toolResults(rig)).toEqual(["Created a.fk (4 B, 1 line)", "Created b.fk (4 B, 1 line)"]);
    const n = notices(r.stdout);
    expect(n).toEqual([
      `lsp: ${join(rig.configDir, "lsp.json")}: server "fake": command "no-such-language-server" was not found on PATH; install it or fix the command`,
    ]);
  }, 60_000);

  test("a server that crashes at start is tried again on each change; the third time it stays off, said once", async () => {
    rig = await lspRig({
      lsp: fakeConfig("crash"),
      script: [
        write("a.fk", "bad\n"),
        write("a.fk", "bad\n\n"),
        write("a.fk", "bad\n\n\n"),
        write("a.fk", "x\n"),
        { text: "done" },
      ],
    });
    const r = await run(rig);
    expect(r.code).toBe(0);
    for (const t of toolResults(rig)) expect(t).not.toContain("fake");
    const n = notices(r.stdout);
    expect(n).toHaveLength(2);
    expect(n[0]).toMatch(
      /^lsp: fake stopped: it exited \(code 3\); it is started again on the next change; its stderr is in .*lsp-fake\.log$/,
    );
    expect(n[1]).toMatch(/^lsp: fake \(.*\) stopped 3 times \(last: .*\); it stays off for this session/);
  }, 60_000);

  test("a server that writes garbage is said to, and stopped", async () => {
    rig = await lspRig({ lsp: fakeConfig("garbage"), script: [write("a.fk", "bad\n"), { text: "done" }] });
    const r = await run(rig);
    expect(r.code).toBe(0);
    expect(toolResults(rig)[0]).not.toContain("fake");
    expect(notices(r.stdout)[0]).toMatch(/^lsp: fake stopped: it wrote something that is not LSP/);
  }, 60_000);

  test("a flood of diagnostics is cut to 20 lines and a count", async () => {
    rig = await lspRig({ lsp: fakeConfig("flood"), script: [write("a.fk", "x\n"), { text: "done" }] });
    const r = await run(rig);
    expect(r.code).toBe(0);
    const t = toolResults(rig)[0] ?? "";
    expect(t).toContain("fake reports 500 errors in a.fk:");
    expect(t).toContain("a.fk:20:1 error [F1]: flood 19");
    expect(t).not.toContain("flood 20");
    expect(t).toEndWith("... and 480 more");
  }, 60_000);

  test("a server killed mid-session is started again on the next change", async () => {
    const pidFile = "pids.txt";
    rig = await lspRig({
      lsp: { servers: { fake: { ...(fakeConfig("ok").servers as { fake: object }).fake } } },
      script: [
        write("a.fk", "bad\n"),
        { tool_calls: [{ name: "bash", arguments: { command: `kill -9 $(head -1 ${pidFile})` } }] },
        write("a.fk", "bad\nbad\n"),
        { text: "done" },
      ],
    });
    const file = join(rig.workspace, pidFile);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      join(rig.configDir, "lsp.json"),
      JSON.stringify(fakeConfig("ok", { env: { FAKE_PID_FILE: file } })),
    );
    // The model's bash kills the server from outside: the sandbox's own pid namespace would stop it.
    const r = await rig.run(["-p", "go", "--approve", "all", "--json", "--sandbox", "off"]);
    expect(r.code).toBe(0);
    const results = toolResults(rig);
    expect(results[0]).toContain("fake reports 1 error in a.fk");
    expect(results[2]).toContain("fake reports 2 errors in a.fk");
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(2);
    expect(notices(r.stdout)).toEqual([
      expect.stringMatching(
        /^lsp: fake stopped: it exited \(signal SIGKILL\); it is started again on the next change/,
      ),
    ]);
  }, 60_000);

  test("a server that dies on every change: three times, then off for the session, said once", async () => {
    rig = await lspRig({
      lsp: fakeConfig("exit-on-change"),
      script: [
        write("a.fk", "bad\n"),
        write("a.fk", "bad\n1\n"),
        write("a.fk", "bad\n2\n"),
        write("a.fk", "bad\n3\n"),
        write("a.fk", "bad\n4\n"),
        write("a.fk", "bad\n5\n"),
        { text: "done" },
      ],
    });
    const r = await run(rig);
    expect(r.code).toBe(0);
    const n = notices(r.stdout);
    expect(n.filter((l) => l.includes("stays off for this session"))).toHaveLength(1);
    expect(n.filter((l) => l.includes("started again on the next change"))).toHaveLength(1);
  }, 60_000);

  test("a file of an unknown language, and a workspace without a root marker", async () => {
    rig = await lspRig({
      lsp: fakeConfig("ok", { root_markers: ["fake.root"] }),
      script: [write("notes.xyz", "bad\n"), write("sub/a.fk", "bad\n"), { text: "done" }],
    });
    const r = await run(rig);
    expect(r.code).toBe(0);
    const results = toolResults(rig);
    expect(results[0]).not.toContain("error");
    expect(results[1]).toContain("sub/a.fk:1:1 error [F1]: fake error");
    expect(notices(r.stdout)).toEqual([]);
  }, 60_000);

  test("only files of a server's extensions (any case) reach the worker once it said which at hello", async () => {
    rig = await lspRig({
      lsp: fakeConfig("ok", { extensions: [".FK"] }),
      script: [write("a.fk", "bad\n"), write("README.md", "bad\n"), write("b.Fk", "bad\n"), { text: "done" }],
    });
    const r = await rig.run(["-p", "go", "--approve", "all", "--json"], { I_LOG_LEVEL: "debug" });
    expect(r.code).toBe(0);
    const results = toolResults(rig);
    expect(results[0]).toContain("a.fk:1:1 error [F1]: fake error");
    expect(results[1]).toBe("Created README.md (4 B, 1 line)");
    expect(results[2]).toContain("b.Fk:1:1 error [F1]: fake error");
    // The host's debug log has a line per request it sends: the README's write was never sent.
    const log = readFileSync(join(rig.configDir, "logs", "i.log"), "utf8");
    expect(log.match(/files_changed lsp: /g)).toHaveLength(2);
  }, 60_000);

  test("a server that never answers initialize holds an edit at most 8 s; the edit stands", async () => {
    rig = await lspRig({ lsp: fakeConfig("silent"), script: [write("a.fk", "bad\n"), { text: "done" }] });
    const r = await run(rig);
    expect(r.code).toBe(0);
    expect(toolResults(rig)).toEqual(["Created a.fk (4 B, 1 line)"]);
    // The write's own time includes the wait: the cold cap, not the 15 s initialize timeout.
    const result = events(r.stdout).find((e) => e.type === "tool_result");
    expect(Number(result?.duration_ms)).toBeGreaterThanOrEqual(8_000);
    expect(Number(result?.duration_ms)).toBeLessThan(11_000);
  }, 60_000);

  test("a server that hangs on a request: the lsp tool says which server did not answer what", async () => {
    rig = await lspRig({
      lsp: fakeConfig("hang"),
      files: { "a.fk": "x\n" },
      script: [
        { tool_calls: [{ name: "read", arguments: { path: "a.fk" } }] },
        {
          tool_calls: [
            {
              name: "lsp",
              arguments: { operation: "goToDefinition", file_path: "a.fk", line: 1, character: 1 },
            },
          ],
        },
        { text: "done" },
      ],
    });
    const r = await run(rig);
    expect(r.code).toBe(0);
    expect(toolResults(rig)[1]).toBe("lsp: fake did not answer textDocument/definition within 10 s");
  }, 60_000);
});
