// Completion menus as you type: `/` lists the commands with their help and filters as you type (Enter
// runs the marked one); `@` lists workspace paths, nested directories included, fuzzy-matched and
// without what .gitignore ignores (Tab completes the marked one).
import { expect, test } from "bun:test";
import { liveConsole } from "./console-pty.ts";
import { TWO_MODELS } from "./two-models.ts";

const live = liveConsole();

test("the / menu filters as you type and Enter runs the marked command; Esc closes it", async () => {
  const pty = await live.start([], { cols: 100, rows: 30 });
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
  const { rig, pty } = await live.open([{ text: "seen" }], {
    cols: 100,
    rows: 30,
    files: {
      "src/deep/inner/target-file.ts": "export const x = 1;\n",
      "src/other.ts": "x\n",
      "build/target-file.js": "ignored\n",
      ".gitignore": "build/\n",
    },
  });
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

test("/model opens a picker of config.json, provider and built-in models; the status line switches at once", async () => {
  const pty = await live.start([{ text: "hi" }], {
    cols: 120,
    rows: 30,
    config: TWO_MODELS,
    served: ["gpt-4o", "custom-served"],
  });
  const p = pty;
  await p.type("hello");
  await p.press("Enter");
  await p.waitFor("ask first · hello");
  await p.type("/model");
  await p.waitFor("show the model, or switch");
  await p.press("Enter"); // the marked row of the / menu: /model itself
  let screen = await p.waitFor("switch the model for the next request");
  expect(screen).toContain("other-model");
  expect(screen).toContain("config.json");
  await p.type("custom");
  screen = await p.waitFor("the provider lists it");
  await p.press("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace");
  await p.type("gpt-4o");
  await p.waitFor((s) => /▸?\s*gpt-4o\b/.test(s));
  await p.press("Enter");
  await p.waitFor("model switched to gpt-4o");
  // The status line shows the new model and its window before any request.
  await p.waitFor((s) => /gpt-4o · openai · ctx [\d.]+k?\/1\d\dk/.test(s));
}, 120_000);
