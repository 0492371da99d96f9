// The console in a real pseudo-terminal (tmux) against the mock model: what a person would see.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Rig } from "../agent/rig.ts";
import type { MockStep } from "../fixtures/mock-server/index.ts";
import { flat, type Pty } from "../helpers/pty.ts";
import { type ConsoleOptions, startConsole } from "./console-pty.ts";

let rig: Rig | undefined;
let pty: Pty | undefined;
afterEach(async () => {
  await pty?.close();
  await rig?.close();
  pty = undefined;
  rig = undefined;
});

const ESC = "\u001b";
/** Generous: tmux, the CLI and its workers share two busy cores with everything else. */
const PTY_TEST_MS = 120_000;

async function consoleWith(script: MockStep[], opts: ConsoleOptions = {}): Promise<Pty> {
  ({ rig, pty } = await startConsole(script, opts));
  return pty;
}

async function send(p: Pty, line: string): Promise<void> {
  await p.type(line);
  await p.press("Enter");
}

test(
  "hostile text never moves the cursor or clears the screen, and the approval shows the real command",
  async () => {
    const victim = "victim-dir";
    const hidden = `rm -rf ${victim}${ESC}[2K\r${ESC}[1Als -la`;
    const p = await consoleWith(
      [
        {
          text: `before ${ESC}[2J${ESC}[H cleared? ${ESC}]0;pwned\u0007 \u202eevil\u202c ${ESC}[1A${ESC}[2K after`,
          tool_calls: [{ name: "bash", arguments: { command: hidden } }],
        },
        { tool_calls: [{ name: "bash", arguments: { command: "printf 'x\\033[2J\\033[Hy\\n'" } }] },
        { text: "finished" },
      ],
      { files: { [`${victim}/keep.txt`]: "precious" }, args: ["--approve", "ask"] },
    );
    await send(p, "go");
    await p.waitFor("after");
    let screen = await p.screen();
    // The escapes are shown, not obeyed: the logo above is still on screen, the text is on one line.
    expect(screen).toContain("i — a coding agent for the terminal");
    expect(screen).toContain(
      "before \\e[2J\\e[H cleared? \\e]0;pwned\\a \\u202eevil\\u202c \\e[1A\\e[2K after",
    );

    // The approval prompt shows the whole command, escapes visible.
    screen = await p.waitFor("allow? ›");
    expect(screen).toContain(`rm -rf ${victim}\\e[2K^M\\e[1Als -la`);
    await send(p, "n");
    await p.waitFor("declined");
    expect(existsSync(join(rig?.workspace ?? "", victim, "keep.txt"))).toBe(true);

    // A command whose output clears the screen: approved, run, and its output is inert.
    await p.waitFor(
      (s) => /allow this command to run:\s*│ printf/.test(s) && s.trimEnd().endsWith("allow? ›"),
    );
    await send(p, "y");
    screen = await p.waitFor("finished");
    expect(screen).toContain("x\\e[2J\\e[Hy");
    const visible = await p.screen();
    expect(visible).toContain("printf"); // the call line is still there: nothing cleared the screen
    expect(visible).toContain("declined");
  },
  PTY_TEST_MS,
);

const MARKDOWN = [
  "# Release notes",
  "",
  "This is **important** and *subtle*, with `inline code` and a [link](https://example.com/docs).",
  "",
  "- first item",
  "- second item",
  "",
  "> quoted words",
  "",
  "| tool | purpose |",
  "|------|---------|",
  "| read | reads files |",
  "| bash | runs commands |",
  "",
  "```ts",
  "const answer: number = 42;",
  "```",
  "",
  "The end.",
].join("\n");

test(
  "a markdown reply is rendered: no raw markers, all its text there",
  async () => {
    const p = await consoleWith([{ text: MARKDOWN, chunk_delay_ms: 5 }]);
    await send(p, "notes please");
    const screen = flat(await p.waitFor("The end."));
    for (const marker of ["**", "```", "|---", "# Release", "[link]("]) expect(screen).not.toContain(marker);
    for (const text of [
      "Release notes",
      "important",
      "inline code",
      "link (https://example.com/docs)",
      "first item",
      "quoted words",
      "reads files",
      "runs commands",
      "const answer: number = 42;",
    ])
      expect(screen).toContain(text);
    expect(screen).toMatch(/│ read │ reads files │/);
    // every line of the reply is shown exactly once
    expect(screen.split("The end.").length).toBe(2);
    expect(screen.split("second item").length).toBe(2);
  },
  PTY_TEST_MS,
);

test(
  "an edit shows a -/+ diff of the changed line with line numbers",
  async () => {
    const p = await consoleWith(
      [
        {
          tool_calls: [
            {
              name: "edit",
              arguments: { path: "app.js", old_text: "return a - b;", new_text: "return a + b;" },
            },
          ],
        },
        { text: "fixed" },
      ],
      {
        files: { "app.js": "// app\nfunction add(a, b) {\n  return a - b;\n}\n" },
        args: ["--approve", "all"],
      },
    );
    await send(p, "fix it");
    const screen = await p.waitFor("fixed");
    expect(screen).toMatch(/⏺ edit app\.js/);
    expect(screen).toMatch(/3 - {3}return a - b;/);
    expect(screen).toMatch(/3 \+ {3}return a \+ b;/);
    expect(screen).toContain("+1 -1");
    expect(readFileSync(join(rig?.workspace ?? "", "app.js"), "utf8")).toContain("a + b");
  },
  PTY_TEST_MS,
);

test(
  "a slow reply shows something animating while it waits",
  async () => {
    const p = await consoleWith([{ text: "at last", delay_ms: 6000 }]);
    await send(p, "take your time");
    const first = await p.waitFor("thinking", { history: false });
    // Poll until the screen changes by itself (spinner frame, elapsed time): nothing was typed meanwhile.
    const changed = await p.waitFor((s) => s !== first && s.includes("thinking"), { history: false });
    expect(changed).toMatch(/thinking \d+\.\ds/);
    await p.waitFor("at last");
  },
  PTY_TEST_MS,
);

test(
  "compaction shows its stage while it runs, then before → after tokens and the route",
  async () => {
    const p = await consoleWith([
      { text: `first answer ${"with many words to summarise ".repeat(80)}` },
      { text: `second answer ${"also long enough to matter ".repeat(80)}` },
      { text: "third answer, so that an older part is left to summarise" },
      { text: "## Goal\nAnswer questions.\n## Progress\nTwo answers given.", delay_ms: 2500 },
    ]);
    await send(p, "one");
    await p.waitFor("first answer");
    await send(p, "two");
    await p.waitFor("second answer");
    await send(p, "three");
    await p.waitFor("third answer");
    await send(p, "/compact");
    await p.waitFor(/compacting \(manual\) · (planning|summarising|validating|committing) \d+\.\ds/);
    await p.waitFor(/⟳ compacted \d+ messages?: [\d.]+k? → [\d.]+k? tokens \(model summary\)/);
    // The result and the status line agree: what is left is what the next request is checked against.
    const done = await p.screen();
    const left = /→ ([\d.]+k?) tokens/.exec(done)?.[1];
    const ctx = [...done.matchAll(/ctx ([\d.]+k?)\/[\d.]+k \d+%/g)].at(-1)?.[1];
    expect(left).toBeDefined();
    expect(ctx).toBe(left);
  },
  PTY_TEST_MS,
);

test(
  "a resize while a reply streams loses no text and duplicates none",
  async () => {
    const words = Array.from({ length: 120 }, (_, i) => `w${i}`);
    const paragraphs = [words.slice(0, 40), words.slice(40, 80), words.slice(80)].map((w) => w.join(" "));
    const p = await consoleWith([{ text: paragraphs.join("\n\n"), chunk_delay_ms: 15 }], {
      cols: 80,
      rows: 30,
    });
    await send(p, "stream");
    await p.waitFor("w20");
    await pty?.resize(50, 30);
    await p.waitFor("w60");
    await pty?.resize(100, 30);
    await p.waitFor("w119");
    await p.waitFor((s) => !s.includes("writing"), { history: false });
    const all = await p.screen({ history: true, joined: true });
    const seen = [...(all.match(/\bw\d+\b/g) ?? [])];
    expect(seen).toEqual(words);
    // What was on screen before the reply is printed again in the new width, once.
    expect(all.match(/› stream/g)?.length).toBe(1);
    expect(all).toContain("new session");
  },
  PTY_TEST_MS,
);

test(
  "60×20 with NO_COLOR: no colour codes; a wide table is fitted to the width with every word kept",
  async () => {
    const cell = "a long description that cannot fit in one narrow column";
    const table = `| name | description | notes |\n|---|---|---|\n| alpha | ${cell} | first |\n| beta | ${cell} | second |`;
    const p = await consoleWith([{ text: `${MARKDOWN}\n\n${table}\n\nTable done.` }], {
      cols: 60,
      rows: 20,
      env: { NO_COLOR: "1" },
    });
    await send(p, "hi");
    await p.waitFor("Table done.");
    const styled = await p.screen({ history: true, escapes: true });
    expect(styled).not.toMatch(new RegExp(`${ESC}\\[[0-9;]*[34][0-9]m`));
    const plain = await p.screen({ history: true });
    expect(flat(plain)).toContain("Release notes");
    expect(plain).not.toContain("**");
    // Table rows are whole (closed by their right border), not cut at the edge; the cell text wraps.
    const rows = plain.split("\n").filter((l) => l.startsWith("│") && l.includes("│", 2));
    expect(rows.length).toBeGreaterThan(4);
    for (const r of rows) expect(r.trimEnd().endsWith("│")).toBe(true);
    const alphaCells = rows
      .slice(rows.findIndex((r) => r.includes("alpha")))
      .slice(0, 4)
      .map((r) => r.split("│")[2]?.trim() ?? "")
      .join(" ");
    expect(flat(alphaCells)).toContain(cell);
  },
  PTY_TEST_MS,
);

test(
  "TERM=dumb: plain lines, no colour and no redrawing",
  async () => {
    const p = await consoleWith([{ text: "**plain** answer", delay_ms: 500 }], { env: { TERM: "dumb" } });
    await send(p, "hi");
    await p.waitFor("plain answer");
    const styled = await p.screen({ history: true, escapes: true });
    expect(styled).not.toMatch(new RegExp(`${ESC}\\[[0-9;]*[1-9][0-9]*m`));
    expect(styled).not.toContain("thinking"); // no spinner without cursor movement
  },
  PTY_TEST_MS,
);

test(
  "/help in a 60-column pane: descriptions wrap under their own column, never back to the left edge",
  async () => {
    const p = await consoleWith([], { cols: 60, rows: 40 });
    await send(p, "/help");
    const screen = await p.waitFor("!cmd runs a shell command");
    const lines = screen.split("\n");
    const from = lines.findIndex((l) => l.startsWith("› /help")) + 1;
    const to = lines.findIndex((l) => l.startsWith("keys:"));
    expect(from).toBeGreaterThan(0);
    expect(to).toBeGreaterThan(from);
    // Every line of the list is a command or the continuation of one, indented to the description column.
    for (const l of lines.slice(from, to)) expect(l).toMatch(/^\/[a-z]|^ {10,}\S/);
    expect(lines.slice(from, to).some((l) => /^ {10,}\S/.test(l))).toBe(true);
    // The keys continue after "keys: ".
    expect(lines[to + 1]).toMatch(/^ {6}\S/);
  },
  PTY_TEST_MS,
);

test(
  "/new says so once and drops the old context figure; /resume's replay leaves no spinner running",
  async () => {
    const p = await consoleWith(
      [{ tool_calls: [{ name: "bash", arguments: { command: "echo hi" } }] }, { text: "first done" }],
      { args: ["--approve", "all"], rows: 40 },
    );
    await send(p, "run it");
    await p.waitFor("first done");
    await p.waitFor(/ctx \S+ \d+%/);
    await send(p, "/new");
    const afterNew =
      (await p.waitFor(/› \/new\nnew session \S+ · .*\n(?:.*\n)*.*↑0 ↓0/)).split("› /new")[1] ?? "";
    expect(afterNew.match(/new session/g)).toHaveLength(1);
    expect(afterNew).not.toContain("ctx ");
    // The fresh session holds no message yet, so the picker lists only the first one.
    await send(p, "/resume 1");
    await p.waitFor("the conversation continues here");
    // A spinner left running by the replayed tool call would still be drawn (and counting) a moment later.
    await new Promise((r) => setTimeout(r, 1200));
    const screen = await p.screen();
    expect(screen).not.toMatch(/thinking|writing \d|bash \d+\.\d+s/);
    const tail = screen.slice(screen.indexOf("continues here"));
    expect(tail.match(/resumed session/g) ?? []).toHaveLength(0);
  },
  PTY_TEST_MS,
);

test(
  "the approval's answers at 60 columns: each answer whole on one indented line, none run to the left edge",
  async () => {
    const p = await consoleWith(
      [
        { tool_calls: [{ name: "edit", arguments: { path: "a.txt", old_text: "one", new_text: "uno" } }] },
        { text: "ok" },
      ],
      { cols: 60, rows: 30, files: { "a.txt": "one\n" } },
    );
    await send(p, "edit it");
    const screen = await p.waitFor("allow? ›");
    const lines = screen.split("\n");
    const from = lines.findIndex((l) => l.startsWith("? allow edit:"));
    const answers = lines.slice(
      from + 2,
      lines.findIndex((l) => l.startsWith("allow? ›")),
    );
    expect(answers.length).toBeGreaterThan(1);
    for (const l of answers) expect(l).toMatch(/^ {2,3}\S/);
    const text = answers.join("\n");
    for (const a of ["y yes", "a always edit", "n no (then a reason)", "Esc no, cancel the turn"])
      expect(text).toContain(a);
    await p.type("n");
    await p.press("Enter");
    // Declined: nothing ran, so nothing "failed".
    const after = await p.waitFor("⊘ not run");
    expect(after).not.toContain("✗ failed");
  },
  PTY_TEST_MS,
);

test(
  "a failed /compact says 'compaction failed at STEP' once, with the cause",
  async () => {
    const p = await consoleWith(
      [
        { text: "a1" },
        { text: "a2" },
        { text: "a3" },
        { text: `## Goal\n${"a summary longer than the talk ".repeat(80)}` },
      ],
      { cols: 100, rows: 30 },
    );
    for (const [q, a] of [
      ["q1", "a1"],
      ["q2", "a2"],
      ["q3", "a3"],
    ] as const) {
      await send(p, q);
      await p.waitFor(a);
    }
    await send(p, "/compact");
    const screen = flat(await p.waitFor("⟳ compaction failed"));
    expect(screen).toMatch(/⟳ compaction failed at \S+ after \d+\.\ds: \S/);
    expect(screen.match(/compaction failed/g)).toHaveLength(1);
  },
  PTY_TEST_MS,
);

test(
  "/sessions at 60 columns: the id goes whole on an indented second line, a long title is cut to fit",
  async () => {
    const p = await consoleWith([{ text: "first answer" }, { text: "second answer" }], {
      cols: 60,
      rows: 30,
    });
    await send(p, "a very long first question that becomes the title of this session and goes on");
    await p.waitFor("first answer");
    await send(p, "/new");
    await send(p, "short one");
    await p.waitFor("second answer");
    await send(p, "/sessions");
    const screen = await p.waitFor(/ {2}2\. .*\n.*\n/);
    const lines = screen.split("\n");
    const at = lines.findIndex((l) => l.startsWith("› /sessions"));
    const [one, oneDetail, two, twoDetail] = lines.slice(at + 1, at + 5);
    expect(one).toBe("  1. short one (this one)");
    expect(two).toMatch(/^ {2}2\. a very long first question.*…$/);
    expect(two?.length).toBeLessThanOrEqual(59);
    // The age, size and id on their own indented line: the id whole, as /resume ID takes it.
    for (const d of [oneDetail, twoDetail])
      expect(d).toMatch(/^ {5}\d+s ago · \d+ messages · \d{8}T\d{9}-[0-9a-f]{8}$/);
  },
  PTY_TEST_MS,
);

test(
  "an approved edit's diff is shown once in the transcript: as the result (the question showed the proposal)",
  async () => {
    const p = await consoleWith(
      [
        { tool_calls: [{ name: "edit", arguments: { path: "a.txt", old_text: "one", new_text: "uno" } }] },
        { text: "edited it" },
      ],
      { cols: 80, rows: 40, files: { "a.txt": "one\ntwo\n" } },
    );
    await send(p, "edit it");
    const asked = await p.waitFor("allow? ›");
    expect(asked).toMatch(/proposed: a\.txt \+1 -1 \(not applied yet\)/);
    await p.type("y");
    const screen = await p.waitFor("edited it");
    expect(screen.match(/1 - one/g)).toHaveLength(1);
    expect(screen.match(/1 \+ uno/g)).toHaveLength(1);
    expect(screen).toMatch(/⎿ a\.txt \+1 -1/);
    expect(screen).not.toContain("proposed:");
  },
  PTY_TEST_MS,
);

test(
  "startup in a 50-column pane: no line of the logo or the tips wraps",
  async () => {
    const p = await consoleWith([], { cols: 50, rows: 20 });
    const screen = await p.waitFor("Ctrl-C cancels");
    const lines = screen.split("\n");
    const top = lines.slice(0, lines.findIndex((l) => l.startsWith("Esc or Ctrl-C cancels")) + 1);
    expect(top).toContain("  ╚═╝   i — a coding agent for the terminal");
    // The tagline is too wide: left out, not wrapped into a stray "your work" line.
    expect(screen).not.toContain("your work");
    expect(top).toContain("/help lists the commands and keys");
    for (const l of top.filter((x) => !x.startsWith("new session") && !x.startsWith("· ")))
      expect(l.length).toBeLessThanOrEqual(49);
  },
  PTY_TEST_MS,
);
