// Keybindings as a person uses them: submit moved to Ctrl-S sends the message (Enter no longer does);
// /keys shows the map in force; a bad keybindings.json stops the console with one line, exit 2.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRig } from "../agent/rig.ts";
import { consoleIn, Pty } from "../helpers/pty.ts";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();

test("a rebound submit key sends; Enter no longer does; /keys shows the map in force", async () => {
  const { rig, pty } = await live.open([{ text: "sent with ctrl-s" }], {
    configFiles: { "keybindings.json": JSON.stringify({ submit: "ctrl+s" }) },
    cols: 100,
    rows: 30,
  });
  await pty.type("/keys");
  await pty.press("C-s");
  await pty.waitFor("ctrl+s — send the message (also chooses in a list) (keybindings.json)");
  await pty.waitFor("history-prev up, ctrl+p");
  await pty.type("hello");
  await pty.press("Enter");
  await new Promise((r) => setTimeout(r, 500));
  expect(rig.mock.requests).toHaveLength(0);
  await pty.press("C-s");
  await pty.waitFor("sent with ctrl-s");
  expect(rig.mock.requests).toHaveLength(1);
}, 60_000);

test("a bad keybindings.json: one line, exit 2, before anything is drawn", async () => {
  live.rig = await makeRig({ script: [] });
  const file = join(live.rig.configDir, "keybindings.json");
  writeFileSync(file, JSON.stringify({ submit: "ctrl + s" }));
  // The console exits at once: it starts a moment late, so the pane is kept (remain-on-exit) to be read.
  const opts = consoleIn(live.rig, [], { cols: 200, rows: 20 });
  const argv = ["/bin/sh", "-c", 'sleep 0.5; exec "$0" "$@"', ...(opts.argv ?? [])];
  live.pty = await Pty.start({ ...opts, argv });
  await live.pty.waitExit();
  // tmux's own "Pane is dead" note may or may not be drawn yet: everything else is the one line.
  const lines = (await live.pty.screen({ joined: true, history: true }))
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("Pane is dead"));
  expect(lines).toEqual([
    `i: ${file}: field submit: "ctrl + s" has spaces in it; write keys like "ctrl+s" (no spaces)`,
  ]);
  // The exit status, read where no terminal is in between (the plain-line console reads the file too).
  const r = await live.rig.run([]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(
    `i: ${file}: field submit: "ctrl + s" has spaces in it; write keys like "ctrl+s" (no spaces)\n`,
  );
}, 60_000);
