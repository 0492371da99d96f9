// A resumed session's replay shows what was seen live: a `!command` with its output, exit and time (not
// as the user's prompt of the model), a file attached with @ as one line, a command's exit code and time,
// an interruption as the notice it was.
import { expect, test } from "bun:test";
import { liveConsole, send } from "./console-pty.ts";

const live = liveConsole();

test("the replay after -c matches the live screen for !cmd, @file, a failed command and an interruption", async () => {
  let pty = await live.start(
    [
      { text: "read it" },
      { tool_calls: [{ name: "bash", arguments: { command: "echo oops; exit 3" } }] },
      { text: "it failed" },
      { text: "a reply that never ends", hang: true },
    ],
    { args: ["--approve", "all"], cols: 100, rows: 50, files: { "docs/notes.md": "secret pineapple\n" } },
  );
  const p = pty;
  await send(p, "!echo from the shell");
  await p.waitFor("⎿ exit 0");
  await send(p, "look at @docs/notes.md please");
  await p.waitFor("read it");
  await send(p, "run the thing");
  await p.waitFor("it failed");
  await send(p, "go on");
  await p.waitFor("a reply that never ends");
  await p.press("Escape");
  await p.waitFor("cancelled; the model will see");
  const seen = await p.screen({ history: true });
  await send(p, "/exit");
  await p.waitExit();
  await p.close();
  pty = await live.reopen(["-c"], { cols: 100, rows: 50 });
  const replayed = await pty.waitFor("resumed: the conversation continues here");
  const shown = replayed.slice(replayed.indexOf("resumed session"));
  // !command: the user's line, the output behind the gutter, the exit and time; never the wrapper text.
  expect(shown).toContain("› !echo from the shell");
  expect(shown).toContain("│ from the shell");
  expect(shown).toMatch(/⎿ exit 0 · [\d.]+s/);
  expect(shown).not.toContain("I ran this shell command myself");
  // @file: the user's words and one line for the attachment, not the file's text.
  expect(shown).toContain("› look at @docs/notes.md please");
  expect(shown).toContain("attached @docs/notes.md");
  expect(shown).not.toContain("secret pineapple");
  // The failed command: its exit code, as live.
  const exitLive = /⎿ exit 3 · [\d.]+s/.exec(seen)?.[0];
  expect(exitLive).toBeDefined();
  expect(shown).toContain(exitLive ?? "");
  // The interruption: the notice, not a prompt of the user's.
  expect(shown).toContain("cancelled; the model will see that it was interrupted");
  expect(shown).not.toContain("› [interrupted by the user");
}, 120_000);

test("after a compaction, the requests it restored replay as notices, not as the user's prompts", async () => {
  let pty = await live.start(
    [
      { text: `apples noted ${"long words ".repeat(600)}` },
      { text: `pears noted ${"long words ".repeat(600)}` },
      { text: "The user talked about apples and pears." },
    ],
    { cols: 100, rows: 40, configFiles: { "compact.json": JSON.stringify({ keep_recent: 1 }) } },
  );
  const p = pty;
  await send(p, "remember the apples for the pie");
  await p.waitFor("apples noted");
  await send(p, "and the pears");
  await p.waitFor("pears noted");
  await send(p, "/compact");
  await p.waitFor("⟳ compacted");
  await send(p, "/exit");
  await p.waitExit();
  await p.close();
  pty = await live.reopen(["-c"], { cols: 100, rows: 40 });
  const replayed = await pty.waitFor("resumed: the conversation continues here");
  const shown = replayed.slice(replayed.indexOf("resumed session"));
  expect(shown).toContain("[summary of the earlier conversation]");
  expect(shown).toContain("↺ restored after compaction: remember the apples for the pie");
  expect(shown).not.toContain("› [Restored after compaction");
  expect(shown).not.toContain("› remember the apples");
}, 120_000);
