// `i doctor` in a narrow terminal: every line is fitted to the width at spaces (the terminal itself
// never has to wrap, so no word is cut), continuation lines are indented under their own line; into a
// pipe nothing is wrapped, so each problem stays one line for grep and logs.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MAIN, removeDir, runCli, tempDir } from "../helpers/cli.ts";
import { Pty } from "../helpers/pty.ts";

const root = tempDir("i-doctor-pty-");
const cfg = join(root, "cfg");
mkdirSync(cfg);
/** No model anywhere: doctor reports the run's "no model chosen" line, which names config.json. */
const env = {
  HOME: root,
  I_CONFIG_DIR: cfg,
  I_DATA_DIR: join(root, "data"),
  PATH: process.env.PATH ?? "/usr/bin:/bin",
};
const PROBLEM = `no model chosen: pass -m NAME, set I_MODEL, or set "model" in ${join(cfg, "config.json")}`;
const ENDPOINT = "not contacted (`i doctor --online` sends one small request)";
const COLS = 50;

let pty: Pty | undefined;
afterAll(async () => {
  await pty?.close();
  removeDir(root);
});

/** The text that starts at `start` on some line and continues on the lines after it, `indent` columns in. */
function paragraph(lines: string[], start: string, indent: number): { col: number; text: string } {
  const at = lines.findIndex((l) => l.includes(start));
  expect(at).toBeGreaterThanOrEqual(0);
  const first = lines[at] ?? "";
  const col = first.indexOf(start);
  const words = [first.slice(col)];
  for (const l of lines.slice(at + 1)) {
    if (!l.startsWith(" ".repeat(indent)) || l[indent] === " ") break;
    words.push(l.slice(indent));
  }
  return { col, text: words.join(" ") };
}

test("i doctor in a 50-column terminal wraps at spaces with hanging indents; into a pipe it does not wrap", async () => {
  pty = await Pty.start({ argv: [process.execPath, MAIN, "doctor"], env, cwd: root, cols: COLS, rows: 80 });
  await pty.waitExit();
  const screen = (await pty.screen()).replace(/\n*Pane is dead.*\n*$/s, "");
  const lines = screen.split("\n");
  expect(screen).toContain("a run would stop at (exit 2)");
  // tmux joins the lines the terminal wrapped itself (-J): nothing to join means nothing ran over.
  expect((await pty.screen({ joined: true })).replace(/\n*Pane is dead.*\n*$/s, "")).toBe(screen);
  for (const l of lines) expect(l.length).toBeLessThanOrEqual(COLS);
  expect(lines.filter((l) => l.length > COLS - 10).length).toBeGreaterThan(0);

  // The problem line, indented 2, continues 4 in; joined at single spaces it is the message whole,
  // so every break fell on a space.
  const problem = paragraph(lines, "no model chosen:", 4);
  expect(problem.col).toBe(2);
  expect(problem.text).toBe(PROBLEM);
  // A table row's long detail continues under the detail column, not at the left edge.
  const endpoint = lines.find((l) => l.startsWith("  endpoint  "));
  const detailCol = endpoint?.indexOf("not contacted") ?? -1;
  expect(detailCol).toBeGreaterThan(10);
  const detail = paragraph(lines, "not contacted", detailCol);
  expect(detail.text).toBe(ENDPOINT);
  expect(detail.text.length).toBeGreaterThan(COLS - detailCol);

  // Into a pipe: the same report, each line whole.
  const piped = runCli(["doctor"], env, root);
  expect(piped.code).toBe(2);
  expect(piped.stdout.split("\n")).toContain(`  ${PROBLEM}`);
  expect(piped.stdout).toMatch(new RegExp(`^  endpoint +- +${ENDPOINT.replace(/[()`]/g, "\\$&")}$`, "m"));
}, 120_000);
