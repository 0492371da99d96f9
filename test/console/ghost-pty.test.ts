// Ghost text as a person sees it: typing in the `/` or `@` menu shows the rest of the best match dim
// after the caret; → (or Tab) takes it.
import { expect, test } from "bun:test";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();

const ESC = String.fromCharCode(27);
/** `typed` followed, on the same line, by `ghost` drawn dim (SGR 2). */
const dimAfter = (typed: string, ghost: string) =>
  new RegExp(
    `${typed.replace(/[/]/g, "\\/")}(?:${ESC}\\[[0-9;]*m)*${ESC}\\[(?:[0-9;]*;)?2(?:;[0-9;]*)?m${ghost}`,
  );

test("ghost text for the best match in the / and @ menus; → and Tab take it", async () => {
  const pty = await live.start([], {
    cols: 100,
    rows: 30,
    files: { "src/deep/inner/target-file.ts": "x\n", "src/other.ts": "y\n" },
  });
  const p = pty;
  await p.type("/sta");
  await p.waitFor((s) => s.includes("› /status") && s.includes("model, provider, profile"));
  expect(await p.screen({ escapes: true })).toMatch(dimAfter("› /sta", "tus"));
  await p.press("Right");
  await p.waitFor((s) => s.split("\n").some((l) => l.trimEnd() === "› /status"));
  await p.press("Enter");
  await p.waitFor("approvals asks for bash, write and edit");
  await p.type("see @src/de");
  await p.waitFor("src/deep/");
  expect(await p.screen({ escapes: true })).toMatch(dimAfter("› see @src/de", "ep/"));
  await p.press("Tab");
  await p.waitFor("› see @src/deep/inner/");
  expect(await p.screen({ escapes: true })).toMatch(dimAfter("› see @src/deep/", "inner/"));
  await p.press("Right");
  await p.waitFor("› see @src/deep/inner/target-file.ts");
}, 120_000);
