// Searching the transcript as a person does: Ctrl-F and a word, every match marked and the current one
// inverse, n to the older match and N to the newer, Esc closes; /find TEXT opens at the newest match, and
// says so in one line when there is none.
import { expect, test } from "bun:test";
import { liveConsole, PTY_TEST_MS, send } from "./console-pty.ts";

const live = liveConsole();

const footer = (s: string) => s.split("\n").findLast((l) => l.startsWith("find:")) ?? "";

test(
  "Ctrl-F finds a word in the transcript; n and N move between the matches; Esc closes",
  async () => {
    const p = await live.start(
      [
        { text: "the parser reads a header" },
        { text: "no match here" },
        { text: "the parser checks the schema" },
      ],
      { cols: 100, rows: 30 },
    );
    for (const [q, a] of [
      ["one", "reads a header"],
      ["two", "no match here"],
      ["three", "checks the schema"],
    ]) {
      await send(p, q as string);
      await p.waitFor(a as string);
    }
    await p.press("C-f");
    await p.waitFor((s) => footer(s).includes("lines kept"));
    await p.type("parser");
    await p.waitFor((s) => footer(s).includes("match 2/2"));
    // The current match is drawn inverse, the other one marked too (bold yellow).
    const styled = await p.screen({ escapes: true });
    const esc = String.fromCharCode(27);
    expect(styled).toMatch(new RegExp(`${esc}\\[[0-9;]*7m[^${esc}]*parser`));
    await p.press("Enter");
    await p.type("n");
    await p.waitFor((s) => footer(s).includes("match 1/2"));
    await p.waitFor((s) => s.includes("reads a header"));
    await p.type("N");
    await p.waitFor((s) => footer(s).includes("match 2/2"));
    await p.press("Escape");
    await p.waitFor((s) => footer(s) === "");
    // The prompt takes keys again.
    await p.type("after");
    await p.waitFor("› after");
  },
  PTY_TEST_MS,
);

test(
  "/find TEXT opens at the newest match; a word not in the transcript is one line",
  async () => {
    const p = await live.start([{ text: "alpha beta gamma" }, { text: "beta again" }], {
      cols: 100,
      rows: 30,
    });
    await send(p, "first");
    await p.waitFor("alpha beta gamma");
    await send(p, "second");
    await p.waitFor("beta again");
    await send(p, "/find beta");
    await p.waitFor((s) => footer(s).includes("match 2/2") && footer(s).includes("n older"));
    await p.press("Escape");
    await p.waitFor((s) => footer(s) === "");
    await send(p, "/find zebra");
    await p.waitFor('no match for "zebra" in the transcript');
  },
  PTY_TEST_MS,
);
