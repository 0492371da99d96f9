// i doctor's table: statuses coloured through consola's colours only on a colour terminal, and untrusted
// cells made inert before any colour is added.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { Painted, render, section } from "../../src/doctor/report.ts";
import { detectCaps, makeStyle } from "../../src/terminal/style.ts";

const ESC = "\x1b";
const SGR = new RegExp(`${ESC}\\[\\d+m`, "g");
const ROOT = join(import.meta.dirname, "..", "..");
const rows = [
  { name: "config.json", status: "ok" as const, detail: "valid" },
  { name: `evil${ESC}]0;pwned\x07.json`, status: "FAILED" as const, detail: "", problem: "bad" },
];

describe("doctor report colours", () => {
  test("a colour terminal gets coloured statuses and inert names, columns still aligned", () => {
    // consola decides at import whether its colours are live; a pipe (this test) needs FORCE_COLOR.
    const script = `import { render, section } from "./src/doctor/report.ts";
import { makeStyle } from "./src/terminal/style.ts";
const rows = JSON.parse(process.argv[1]);
process.stdout.write(render(section("config_dir /x", rows, makeStyle({ color: true, cursor: true }))));`;
    const r = spawnSync(process.execPath, ["-e", script, JSON.stringify(rows)], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, FORCE_COLOR: "1" },
    });
    expect(r.stderr).toBe("");
    const out = r.stdout;
    expect(out).toContain(`${ESC}[32mok${ESC}[39m`);
    expect(out).toContain(`${ESC}[31mFAILED${ESC}[39m`);
    expect(out).not.toContain(`${ESC}]0;`);
    const plain = out.replace(SGR, "").split("\n");
    expect(plain[1]?.indexOf("ok")).toBe(plain[2]?.indexOf("FAILED"));
  });

  test("NO_COLOR, TERM=dumb and a pipe get no escape codes at all", () => {
    for (const [tty, env] of [
      [true, { NO_COLOR: "1" }],
      [true, { TERM: "dumb" }],
      [false, {}],
    ] as const) {
      const style = makeStyle(detectCaps({ isTTY: tty }, env));
      expect(render(section("t", rows, style))).not.toContain(ESC);
    }
  });

  test("plain lines are sanitised when printed, Painted ones kept", () => {
    expect(render([`a${ESC}[2Jb`, new Painted(`${ESC}[1mx${ESC}[22m`)])).not.toContain(`${ESC}[2J`);
    expect(render([new Painted(`${ESC}[1mx`)])).toBe(`${ESC}[1mx`);
  });
});
