// The safety net as a person uses it: the real console in tmux against the mock model. /undo after an
// edit and a bash change, /redo, /rewind with its pickers (code only, conversation only, both), the
// confirmation before a file changed by hand is overwritten, and /fork with both sessions going on.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { History } from "../../src/contract/history.ts";
import { Session } from "../../src/session/session.ts";
import type { Rig } from "../agent/rig.ts";
import { liveConsole, send } from "../console/console-pty.ts";
import type { MockStep } from "../fixtures/mock-server/index.ts";
import type { Pty } from "../helpers/pty.ts";

const live = liveConsole();

const PTY_TEST_MS = 180_000;

async function open(script: MockStep[], files: Record<string, string>): Promise<{ r: Rig; p: Pty }> {
  const { rig, pty } = await live.open(script, { files, args: ["--approve", "all"], rows: 40, cols: 100 });
  return { r: rig, p: pty };
}

const read = (r: Rig, f: string) => readFileSync(join(r.workspace, f), "utf8");
const history = (r: Rig): History => {
  const [m] = Session.list(r.dataDir, r.workspace);
  return m ? Session.open(r.dataDir, m.id).history() : [];
};
const userTexts = (r: Rig) =>
  history(r)
    .filter((m) => m.role === "user")
    .map((m) => m.content);

/** How often `text` occurs on the screen and in its scrollback. */
async function count(p: Pty, text: string): Promise<number> {
  return (await p.screen({ history: true })).split(text).length - 1;
}

/** Wait until `text` occurs `n` times (a line repeated by a later command). */
async function waitCount(p: Pty, text: string, n: number): Promise<void> {
  await p.waitFor((s) => s.split(text).length - 1 >= n);
}

test(
  "an edit and a bash change, then /undo: both files, the conversation and the draft come back; /redo",
  async () => {
    const { r, p } = await open(
      [
        {
          tool_calls: [
            { name: "edit", arguments: { path: "a.txt", old_text: "alpha", new_text: "beta" } },
            { name: "bash", arguments: { command: "echo made-by-bash > b.txt && rm gone.txt" } },
          ],
        },
        { text: "all changed" },
      ],
      { "a.txt": "alpha\n", "gone.txt": "keep\n" },
    );
    await send(p, "please change the files");
    await p.waitFor("all changed");
    await p.waitFor(/ctx .*please change the files/);
    expect(read(r, "a.txt")).toBe("beta\n");
    expect(read(r, "b.txt")).toBe("made-by-bash\n");
    await send(p, "/undo");
    await p.waitFor("undone; /redo brings it back");
    expect(read(r, "a.txt")).toBe("alpha\n");
    expect(existsSync(join(r.workspace, "b.txt"))).toBe(false);
    expect(read(r, "gone.txt")).toBe("keep\n");
    expect(userTexts(r)).toEqual([]);
    // The message is back in the input box: the last line with the prompt holds it, not yet sent.
    const screen = await p.screen();
    const inputLine = screen.split("\n").findLast((l) => l.includes("please change the files"));
    expect(inputLine).toMatch(/^\s*›\s*please change the files\s*$/);
    // Clear the draft (Ctrl-U) and redo.
    await p.press("C-u");
    await send(p, "/redo");
    await p.waitFor("── redone ──");
    expect(read(r, "a.txt")).toBe("beta\n");
    expect(read(r, "b.txt")).toBe("made-by-bash\n");
    expect(existsSync(join(r.workspace, "gone.txt"))).toBe(false);
    expect(userTexts(r)).toEqual(["please change the files"]);
  },
  PTY_TEST_MS,
);

/** Five messages, each writing f.txt = "vN" (so before message 2, f.txt was "v1"). */
function fiveTurns(): MockStep[] {
  return [1, 2, 3, 4, 5].flatMap((n) => [
    { tool_calls: [{ name: "write", arguments: { path: "f.txt", content: `v${n}\n` } }] },
    { text: `reply number ${n}` },
  ]);
}

async function sendFive(p: Pty): Promise<void> {
  for (let n = 1; n <= 5; n++) {
    await send(p, `message number ${n}`);
    await p.waitFor(`reply number ${n}`);
    await p.waitFor(/ctx .*· message number 1/);
  }
}

/** /rewind, pick the 2nd message (the picker starts on the 5th), then the mode row `modeRow` (0 both). */
async function rewindToSecond(p: Pty, modeRow: number): Promise<void> {
  await send(p, "/rewind");
  await p.waitFor("rewind to before which of your messages?");
  await p.waitFor("5. message number 5");
  await p.press("Up", "Up", "Up");
  await p.press("Enter");
  await p.waitFor('restore to before "message number 2"');
  for (let i = 0; i < modeRow; i++) await p.press("Down");
  await p.press("Enter");
}

test(
  "/rewind to the 2nd of 5 messages: code only, conversation only, both (each taken back by /undo)",
  async () => {
    const { r, p } = await open(fiveTurns(), { "f.txt": "v0\n" });
    await sendFive(p);
    expect(read(r, "f.txt")).toBe("v5\n");
    const all = [
      "message number 1",
      "message number 2",
      "message number 3",
      "message number 4",
      "message number 5",
    ];
    expect(userTexts(r)).toEqual(all);

    await rewindToSecond(p, 1);
    await p.waitFor("rewound (code only) to before message 2");
    expect(read(r, "f.txt")).toBe("v1\n");
    expect(userTexts(r)).toEqual(all);
    await send(p, "/undo");
    await waitCount(p, "the last /rewind is undone", 1);
    expect(read(r, "f.txt")).toBe("v5\n");

    await rewindToSecond(p, 2);
    await p.waitFor("rewound (conversation only) to before message 2");
    expect(read(r, "f.txt")).toBe("v5\n");
    expect(userTexts(r)).toEqual(["message number 1"]);
    await send(p, "/undo");
    await waitCount(p, "the last /rewind is undone", 2);
    expect(userTexts(r)).toEqual(all);

    await rewindToSecond(p, 0);
    await p.waitFor("rewound (code and conversation) to before message 2");
    expect(read(r, "f.txt")).toBe("v1\n");
    expect(userTexts(r)).toEqual(["message number 1"]);
    expect(await count(p, "files restored")).toBeGreaterThanOrEqual(3);
  },
  PTY_TEST_MS,
);

test(
  "a file changed by hand since the checkpoint is listed and needs confirmation before it is overwritten",
  async () => {
    const { r, p } = await open(
      [
        { tool_calls: [{ name: "write", arguments: { path: "a.txt", content: "by the agent\n" } }] },
        { text: "wrote it" },
      ],
      { "a.txt": "original\n" },
    );
    await send(p, "write a.txt");
    await p.waitFor("wrote it");
    writeFileSync(join(r.workspace, "a.txt"), "by my own hand\n");
    await send(p, "/undo");
    await p.waitFor("changed since the checkpoint (by hand or by another program): a.txt");
    await p.waitFor("overwrite this file with the checkpoint?");
    // The first row keeps the file: Enter declines, and nothing changes.
    await p.press("Enter");
    await p.waitFor("nothing was changed");
    expect(read(r, "a.txt")).toBe("by my own hand\n");
    expect(userTexts(r)).toEqual(["write a.txt"]);
    await send(p, "/undo");
    await waitCount(p, "changed since the checkpoint (by hand or by another program): a.txt", 2);
    await p.waitFor("overwrite this file with the checkpoint?");
    await p.press("Down", "Enter");
    await p.waitFor("undone; /redo brings it back");
    expect(read(r, "a.txt")).toBe("original\n");
  },
  PTY_TEST_MS,
);

test(
  "/fork, then different messages in the fork and in the original: each keeps its own",
  async () => {
    const { r, p } = await open(
      [{ text: "first answer" }, { text: "answer in the fork" }, { text: "answer in the original" }],
      {},
    );
    await send(p, "shared start");
    await p.waitFor("first answer");
    await send(p, "/fork");
    await p.waitFor("fork from where?");
    await p.press("Enter");
    await p.waitFor("forked: session");
    const screen = (await p.screen({ history: true })).replace(/\s+/g, " ");
    const forkId = /forked: session (\S+) with/.exec(screen)?.[1] as string;
    const originalId = /; (\S+) stays as it is/.exec(screen)?.[1] as string;
    await p.waitFor(`resumed session ${forkId}`);
    await send(p, "only in the fork");
    await p.waitFor("answer in the fork");
    await send(p, `/resume ${originalId}`);
    await p.waitFor(`resumed session ${originalId}`);
    await send(p, "only in the original");
    await p.waitFor("answer in the original");
    const texts = (id: string) =>
      Session.open(r.dataDir, id)
        .history()
        .filter((m) => m.role === "user")
        .map((m) => m.content);
    expect(texts(forkId)).toEqual(["shared start", "only in the fork"]);
    expect(texts(originalId)).toEqual(["shared start", "only in the original"]);
    expect(readFileSync(join(r.dataDir, forkId, "events.jsonl"), "utf8")).toContain(
      `"type":"fork","parent":"${originalId}"`,
    );
  },
  PTY_TEST_MS,
);

test(
  "/export FILE writes the conversation; the same name again is refused, the file untouched",
  async () => {
    const { r, p } = await open([{ text: "an answer worth keeping" }], {});
    await send(p, "a question");
    await p.waitFor("an answer worth keeping");
    await send(p, "/export notes.html");
    await p.waitFor("exported the conversation to");
    const file = join(r.workspace, "notes.html");
    const html = readFileSync(file, "utf8");
    expect(html).toContain("an answer worth keeping");
    await send(p, "/export notes.html");
    await p.waitFor("exists already");
    expect(readFileSync(file, "utf8")).toBe(html);
    await send(p, "/export notes.txt");
    await p.waitFor("end the name in .md, .html or .json");
  },
  PTY_TEST_MS,
);
