// Completion menus as you type: `/` lists the commands with their help and filters as you type (Enter
// runs the marked one); `@` lists workspace paths, nested directories included, fuzzy-matched and
// without what .gitignore ignores (Tab completes the marked one).
import { afterEach, expect, test } from "bun:test";
import type { Rig } from "../agent/rig.ts";
import type { Pty } from "../helpers/pty.ts";
import { startConsole } from "./console-pty.ts";

let rig: Rig | undefined;
let pty: Pty | undefined;
afterEach(async () => {
  await pty?.close();
  await rig?.close();
  pty = undefined;
  rig = undefined;
});

test("the / menu filters as you type and Enter runs the marked command; Esc closes it", async () => {
  ({ rig, pty } = await startConsole([], { cols: 100, rows: 30 }));
  const p = pty;
  await p.type("/");
  let screen = await p.waitFor("list the commands and keys");
  expect(screen).toContain("/model");
  await p.type("sta");
  screen = await p.waitFor((s) => s.includes("/status") && !s.includes("/model "));
  expect(screen).toContain("model, provider, profile");
  await p.press("Enter");
  await p.waitFor("approvals asks for bash, write and edit");
  await p.type("/co");
  await p.waitFor("/compactions");
  await p.press("Down");
  await p.press("Escape");
  await p.waitFor((s) => !s.includes("/compactions"));
  // Closed, the text is still there, as typed.
  expect((await p.screen()).trimEnd().split("\n").at(-1)).toBe("› /co");
}, 120_000);

test("the @ menu completes a nested path, fuzzy-matches, and leaves out what .gitignore ignores", async () => {
  ({ rig, pty } = await startConsole([{ text: "seen" }], {
    cols: 100,
    rows: 30,
    files: {
      "src/deep/inner/target-file.ts": "export const x = 1;\n",
      "src/other.ts": "x\n",
      "build/target-file.js": "ignored\n",
      ".gitignore": "build/\n",
    },
  }));
  const p = pty;
  await p.type("look at @src/de");
  await p.waitFor("src/deep/");
  await p.press("Tab");
  await p.waitFor("src/deep/inner/");
  await p.press("Tab");
  await p.waitFor("src/deep/inner/target-file.ts");
  await p.press("Tab");
  await p.waitFor("› look at @src/deep/inner/target-file.ts");
  await p.press("C-u");
  // Fuzzy from anywhere: the letters in order; the ignored build/ copy is not offered.
  await p.type("@tgfile");
  const screen = await p.waitFor("src/deep/inner/target-file.ts");
  expect(screen).not.toContain("build/target-file.js");
  await p.press("Tab");
  await p.press("Enter");
  await p.waitFor("seen");
  expect(JSON.stringify(rig?.mock.requests[0]?.body)).toContain("export const x = 1;");
}, 120_000);
