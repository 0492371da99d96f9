// Ctrl-G as a person uses it: the draft opens in $VISUAL (here a script that edits the file as a person
// would, on a terminal of its own for a moment), comes back as the draft, and the console takes the
// terminal back: raw keys, the prompt drawn again, Enter sends the edited text.
import { expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/cli.ts";
import { alive, pollUntil } from "../helpers/procs.ts";
import { liveConsole, PTY_TEST_MS } from "./console-pty.ts";

const live = liveConsole();

function fakeEditor(): { script: string; seen: string } {
  const dir = tempDir("i-editor-");
  const script = join(dir, "edit.sh");
  const seen = join(dir, "seen.txt");
  // What it got, then the edit; it reads one key from the terminal first, as an editor waits for the user,
  // so the test can see the terminal is the editor's (cooked, the console not reading it) meanwhile.
  writeFileSync(
    script,
    [
      "#!/bin/sh",
      `cp "$1" ${seen}`,
      'printf "EDITOR OPEN\\n"',
      "read answer",
      `sed -i 's/first draft/edited in the editor/' "$1"`,
      'printf "\\nsecond line\\n" >> "$1"',
    ].join("\n"),
  );
  chmodSync(script, 0o755);
  return { script, seen };
}

test(
  "Ctrl-G opens the draft in $VISUAL; the edited text comes back as the draft and is sent",
  async () => {
    const editor = fakeEditor();
    const { rig, pty } = await live.open([{ text: "got the edited message" }], {
      env: { VISUAL: editor.script, EDITOR: "false" },
    });
    await pty.type("first draft");
    await pty.press("C-g");
    await pty.waitFor("EDITOR OPEN");
    expect(readFileSync(editor.seen, "utf8")).toBe("first draft");
    // The console reads nothing meanwhile: this line is the editor's.
    await pty.type("ok");
    await pty.press("Enter");
    await pty.waitFor((s) => s.includes("› edited in the editor"));
    await pty.waitFor("second line");
    expect(rig.mock.requests).toHaveLength(0);
    // Raw keys again: a typed word lands in the draft, Enter sends it all.
    await pty.type(" too");
    await pty.press("Enter");
    await pty.waitFor("got the edited message");
    const body = rig.mock.requests[0]?.body as { messages: { role: string; content: unknown }[] };
    const messages = body.messages;
    expect(messages.at(-1)).toEqual({ role: "user", content: "edited in the editor\nsecond line too" });
  },
  PTY_TEST_MS,
);

test(
  "Ctrl-G without $VISUAL or $EDITOR says how to set one; a failing editor leaves the draft as it was",
  async () => {
    const none = await live.start([], { env: { VISUAL: "", EDITOR: "" } });
    await none.type("kept");
    await none.press("C-g");
    await none.waitFor("set $VISUAL or $EDITOR to edit the message in an editor");
    const failing = await live.start([], { env: { VISUAL: "exit 3;" } });
    await failing.type("still here");
    await failing.press("C-g");
    await failing.waitFor("exited with status 3; the draft is as it was");
    await failing.waitFor("› still here");
  },
  PTY_TEST_MS,
);

test(
  "SIGTERM while the editor is open: the console ends (143), the editor does not outlive it",
  async () => {
    const dir = tempDir("i-editor-");
    const script = join(dir, "wait.sh");
    const pidFile = join(dir, "pid");
    writeFileSync(script, `#!/bin/sh\necho $$ > ${pidFile}\nprintf "EDITOR OPEN\\n"\nsleep 60\n`);
    chmodSync(script, 0o755);
    const pty = await live.start([], { env: { VISUAL: `exec ${script}` } });
    await pty.type("draft");
    await pty.press("C-g");
    await pty.waitFor("EDITOR OPEN");
    const editor = Number(readFileSync(pidFile, "utf8").trim());
    expect(alive(editor)).toBe(true);
    process.kill(await pty.pid(), "SIGTERM");
    await pty.waitExit();
    expect(await pty.exitStatus()).toBe(143);
    expect(await pollUntil(() => !alive(editor), 5000)).toBe(true);
    expect(await pty.sttyAfterExit()).toMatch(/(^|\s)icanon(\s|$)/);
  },
  PTY_TEST_MS,
);
