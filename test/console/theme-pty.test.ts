// Themes as a person meets them: /theme NAME switches the colours on screen (checked in the cells' SGR as
// tmux keeps them) and saves config.json `theme`; the /theme picker previews the marked theme as it moves
// and Esc puts the old one back; NO_COLOR still wins over any theme; an unknown name is one line.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Pty } from "../helpers/pty.ts";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();

/** ESC shown as ^[ so a regular expression can look for sequences without a control character in it. */
const visible = (screen: string) => screen.replaceAll("\u001b", "^[");

async function command(p: Pty, text: string): Promise<void> {
  await p.type(text);
  await p.press("Enter");
}

test("/theme light changes the colours on screen and is saved; /theme high-contrast draws diffs in blue and orange", async () => {
  const { rig, pty } = await live.open([]);
  await command(pty, "/theme dark");
  await pty.waitFor("theme dark · saved in");
  const dark = await pty.screen({ escapes: true });
  expect(dark).toContain("\u001b[32m+ added line");
  await command(pty, "/theme light");
  await pty.waitFor("theme light · saved in");
  const light = await pty.screen({ escapes: true });
  expect(light).toContain("\u001b[38;5;28m+ added line");
  expect(light).toContain("\u001b[38;5;124m- removed line");
  expect(JSON.parse(readFileSync(join(rig.configDir, "config.json"), "utf8")).theme).toBe("light");
  await command(pty, "/theme high-contrast");
  await pty.waitFor("theme high-contrast · saved in");
  const hc = await pty.screen({ escapes: true });
  expect(visible(hc)).toMatch(/\^\[\[1;38;5;33m\+ added line|\^\[\[1m\^\[\[38;5;33m\+ added line/);
  expect(hc).toContain("38;5;208m- removed line");
  await command(pty, "/theme sepia");
  await pty.waitFor('✗ /theme: unknown theme "sepia"; choose dark, light, auto, high-contrast');
}, 60_000);

test("the /theme picker previews the marked theme; Esc keeps the old one", async () => {
  const { rig, pty } = await live.open([]);
  await command(pty, "/theme");
  await pty.waitFor("Theme (the marked one is shown as you move)");
  // The picker's title and marked row are yellow: the terminal's own yellow in dark…
  expect(await pty.screen({ escapes: true })).toContain("\u001b[33m");
  await pty.press("Down");
  // …light's darker one as soon as "light" is marked.
  const deadline = Date.now() + 20_000;
  while (!(await pty.screen({ escapes: true })).includes("38;5;130m") && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  expect(await pty.screen({ escapes: true })).toContain("38;5;130m");
  await pty.press("Escape");
  await pty.waitFor((screen) => !screen.includes("Theme (the marked one"));
  await command(pty, "/theme");
  await pty.waitFor("Theme (the marked one");
  const again = await pty.screen({ escapes: true });
  const picker = again.slice(again.lastIndexOf("Theme (") - 20);
  expect(visible(picker)).toMatch(/\^\[\[33m(\^\[\[49m)?Theme \(the marked one[^\n]*\n› dark/);
  expect(picker).not.toContain("38;5;130m");
  expect(JSON.parse(readFileSync(join(rig.configDir, "config.json"), "utf8")).theme).toBeUndefined();
}, 60_000);

test("NO_COLOR wins over any theme", async () => {
  const pty = await live.start([], { env: { NO_COLOR: "1" }, config: { theme: "high-contrast" } });
  await command(pty, "/theme light");
  await pty.waitFor("theme light · saved in");
  expect(visible(await pty.screen({ escapes: true }))).not.toMatch(/\^\[\[[0-9;]*m[+-] (added|removed) line/);
}, 60_000);

test("theme auto: a terminal that does not say its background falls back to COLORFGBG", async () => {
  const pty = await live.start([], { env: { COLORFGBG: "0;15" }, config: { theme: "auto" } });
  await command(pty, "/theme");
  await pty.waitFor("Theme (the marked one");
  const screen = await pty.screen({ escapes: true });
  // Either tmux answered OSC 11 itself or COLORFGBG decided: the marked row is the theme in force.
  expect(screen).toMatch(/› (light|dark)/);
}, 60_000);
