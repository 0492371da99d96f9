// The terminal title and notifications, as a person's terminal receives them: the real console in tmux,
// its raw output recorded. The title says the session and whether it works, and the terminal's own title
// comes back at exit; a turn that took at least after_seconds ends with the configured notification; the
// session title (the user's own text) never carries a control character into an escape sequence.
import { expect, test } from "bun:test";
import { liveConsole } from "./console-pty.ts";

const live = liveConsole();

/** Poll `ok` until it holds (the machine may be busy: generous, like the harness's own waits). */
async function until(ok: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ESC = "\u001b";
const BEL = "\u0007";

test("title while working and after, an OSC 777 notification when the turn ends, the old title back at exit", async () => {
  const pty = await live.start([{ text: "the answer" }], {
    config: { notifications: { method: "osc777", after_seconds: 0, in_tmux: true } },
  });
  expect(await pty.format("#{pane_title}")).toBe("i");
  await pty.type("fix the parser");
  await pty.press("Enter");
  await pty.waitFor("the answer");
  const p = pty;
  await until(async () => (await p.format("#{pane_title}")) === "i — fix the parser", "the title");
  const out = await p.raw("utf8");
  expect(out).toContain(`${ESC}]0;i (working)${BEL}`);
  expect(out).toContain(`${ESC}]777;notify;i;i: done — fix the parser${BEL}`);
  await pty.type("/exit");
  await pty.press("Enter");
  await until(async () => (await p.raw("utf8")).includes(`${ESC}[23;0t`), "the title given back");
}, 60_000);

test("a bell only for turns that took after_seconds; none inside tmux unless asked; titles are inert", async () => {
  const pty = await live.start([{ text: "quick" }], {
    config: { notifications: { after_seconds: 30 } },
  });
  await pty.paste(`evil ${ESC}]0;pwned${BEL} title`);
  await pty.press("Enter");
  await pty.waitFor("quick");
  const out = await pty.raw("utf8");
  // No notification: inside tmux without in_tmux, and the turn was short anyway.
  expect(out).not.toContain(`${ESC}]777`);
  expect(out).not.toContain(`${ESC}]9;`);
  // Every title set: the text between ESC ] 0 ; and the BEL that ends it.
  const titles = out
    .split(`${ESC}]0;`)
    .slice(1)
    .map((rest) => rest.slice(0, rest.indexOf(BEL)));
  expect(titles.length).toBeGreaterThan(0);
  for (const t of titles) {
    expect(t).not.toContain(ESC);
    expect(t).not.toContain("pwned\u0007");
  }
}, 60_000);
