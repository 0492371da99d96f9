// `--help` as a person reads it: in a pipe (80 columns) and in a narrow terminal, every line fits, every
// flag is listed, and a description that wraps continues in its own column, never at the left edge.
import { afterAll, expect, test } from "bun:test";
import { runCli } from "../helpers/cli.ts";
import { flat, Pty } from "../helpers/pty.ts";

const COMMANDS = [[], ["init"], ["worker"], ["doctor"], ["compact"], ["sessions"], ["start"], ["--runtime"]];

function checkLayout(text: string, width: number): void {
  const lines = text.split("\n");
  for (const l of lines) expect(l.length).toBeLessThanOrEqual(width);
  // No trailing padding (citty padded each row to the longest description).
  for (const l of lines) expect(l).toBe(l.trimEnd());
  // Inside a section, a line starting at column 0 is a heading, never a wrapped description.
  const body = lines.slice(lines.indexOf("USAGE"));
  expect(body.length).toBeGreaterThan(1);
  for (const l of body) if (l !== "" && !l.startsWith(" ")) expect(l).toMatch(/^[A-Z]+$|^`i /);
}

test("every --help into a pipe fits 80 columns, flags at the left, descriptions in their own column", () => {
  for (const cmd of COMMANDS) {
    const r = runCli([...cmd, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    checkLayout(r.stdout, 80);
  }
  const root = runCli(["--help"]).stdout;
  for (const flag of [
    "-p, --print",
    "--json",
    "-m, --model <name>",
    "-r, --resume <id>",
    "--approve <all|edits|ask|none>",
  ])
    expect(root).toContain(flag);
  // The long --approve description wraps under itself.
  expect(root).toMatch(
    /--approve <all\|edits\|ask\|none>\n +who allows bash, write and edit: all runs everything;\n {20,}\S/,
  );
  expect(flat(root)).toContain("none is read-only (print mode default)");
  expect(runCli(["sessions", "--help"]).stdout).toContain("USAGE\n  i sessions [OPTIONS]\n");
  // The launcher's own help, not the root's it would pass the flag on to; `i help X` is `i X --help`.
  expect(runCli(["start", "--help"]).stdout).toContain("USAGE\n  i start [OPTIONS] [ARGS]\n");
  expect(runCli(["help", "doctor"]).stdout).toBe(runCli(["doctor", "--help"]).stdout);
}, 60_000);

let pty: Pty | undefined;
afterAll(() => pty?.close());

test("i --help in a 60-column terminal wraps to 60 columns", async () => {
  pty = await Pty.start({
    argv: [process.execPath, (await import("../helpers/cli.ts")).MAIN, "--help"],
    cols: 60,
    rows: 80,
  });
  const screen = await pty.waitFor("tells more about a command");
  checkLayout(screen.replace(/Pane is dead.*/, "").trimEnd(), 60);
  expect(screen).toContain("--approve <all|edits|ask|none>");
}, 60_000);
