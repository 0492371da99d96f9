// The input prompt: Enter submits and records history, Ctrl-C clears a draft before it interrupts, Up/Down
// and Ctrl-R recall, Tab completes, and the approval question takes only real answers.
import { describe, expect, test } from "bun:test";
import { pathCandidates } from "../../../src/agent/path-candidates.ts";
import { parseApproval } from "../../../src/console/approval-question.ts";
import { InputHistory } from "../../../src/console/input/history.ts";
import { KeyDecoder } from "../../../src/console/input/keys.ts";
import { PromptController } from "../../../src/console/input/prompt.ts";
import type { ApprovalAnswer } from "../../../src/tools/approvals.ts";

function rig(entries: string[] = []) {
  const calls: string[] = [];
  const history = new InputHistory(undefined);
  for (const e of entries) history.add(e);
  const p = new PromptController(
    {
      submit: (t) => calls.push(`submit:${t}`),
      interrupt: () => calls.push("interrupt"),
      escape: () => calls.push("escape"),
      eof: () => calls.push("eof"),
      notAnswer: (t) => calls.push(`steer:${t}`),
      cycleMode: () => calls.push("mode"),
      expand: () => calls.push("expand"),
      changed: () => {},
    },
    history,
    {
      charWidth: (cp) => ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x4e00 && cp <= 0x9fff) ? 2 : 1),
      clean: (s) =>
        Array.from(s)
          .map((c) => {
            const n = c.charCodeAt(0);
            return n < 32 || n === 127 ? `^${String.fromCharCode((n + 64) % 128)}` : c;
          })
          .join(""),
      dim: (s) => s,
      yellow: (s) => s,
      mark: (s) => `[${s.trim()}]`,
      width: (s) => Array.from(s).length,
      fit: (s, w) => Array.from(s).slice(0, w).join(""),
    },
    { commands: () => ["help", "model"], paths: (partial) => pathCandidates(process.cwd(), partial) },
  );
  const d = new KeyDecoder();
  const type = (raw: string) => {
    for (const ev of [...d.push(raw), ...d.flush()]) p.handle(ev);
  };
  return { p, calls, type, history };
}

describe("prompt", () => {
  test("Enter submits, records history; Ctrl-C clears a draft, then interrupts; Ctrl-D on empty is eof", () => {
    const { p, calls, type, history } = rig();
    type("hello\r");
    expect(calls).toEqual(["submit:hello"]);
    expect(history.entries).toEqual(["hello"]);
    type("draft\x03");
    expect(p.editor.text).toBe("");
    expect(calls).toEqual(["submit:hello"]);
    type("\x03\x04\x1b");
    expect(calls.slice(1)).toEqual(["interrupt", "eof", "escape"]);
  });

  test("a 3-line bracketed paste is one submission with all three lines", () => {
    const { calls, type } = rig();
    type("\x1b[200~one\ntwo\nthree\x1b[201~\r");
    expect(calls).toEqual(["submit:one\ntwo\nthree"]);
  });

  test("Up/Down recall history; Ctrl-R searches and Enter takes the match without sending it", () => {
    const { p, calls, type } = rig(["git status", "make test", "git log"]);
    type("\x1b[A\x1b[A");
    expect(p.editor.text).toBe("make test");
    type("\x1b[B\x1b[B");
    expect(p.editor.text).toBe("");
    type("\x12git");
    expect(p.render(80).at(-1)).toBe("(search) 'git': git log");
    type("\x12\r");
    expect(p.editor.text).toBe("git status");
    expect(calls).toEqual([]);
    type("\x12zzz\x1b");
    expect(p.editor.text).toBe("git status");
  });

  test("Tab completes a slash command", () => {
    const { p, type } = rig();
    type("/mo\t");
    expect(p.editor.text).toBe("/model ");
  });

  test("render: multi-line input, wide characters and control characters made visible; caret placed", () => {
    const { p, type } = rig();
    type("ab\x1b[13;2u中\x1b[200~x\x1b[31my\x1b[201~");
    expect(p.render(80)).toEqual(["› ab", "  中x^[[31my"]);
    expect(p.cursor()).toEqual({ row: 1, col: 12 });
    const narrow = p.render(6);
    expect(narrow[0]).toBe("› ab");
  });
});

describe("approval prompt", () => {
  test("answers: y, a, n, n with a reason; the draft comes back after", async () => {
    expect(parseApproval("y", true)).toEqual({ kind: "yes" });
    expect(parseApproval("A", true)).toEqual({ kind: "always" });
    expect(parseApproval("a", false)).toBeUndefined();
    expect(parseApproval("no", true)).toEqual({ kind: "no" });
    expect(parseApproval("n use make instead", true)).toEqual({ kind: "no", reason: "use make instead" });
    expect(parseApproval("no, it is dangerous", true)).toEqual({ kind: "no", reason: "it is dangerous" });
    expect(parseApproval("nothing like an answer", true)).toBeUndefined();

    const { p, type } = rig();
    type("my draft");
    const asked = p.ask({ tool: "bash", summary: "rm -rf build", prefix: "rm" });
    expect(p.editor.text).toBe("");
    const lines = p.render(100);
    expect(lines[0]).toBe("? allow this command to run:");
    expect(lines[1]).toBe("  │ rm -rf build");
    expect(lines[2]).toContain("a always `rm …`");
    // One key, no Enter.
    type("a");
    expect(await asked).toEqual({ kind: "always" } satisfies ApprovalAnswer);
    expect(p.editor.text).toBe("my draft");
  });

  test("one key: y at once; Enter takes the highlighted answer; n then a reason; Esc in a reason goes back", async () => {
    const { p, type } = rig();
    expect(
      await (async () => {
        const a = p.ask({ tool: "bash", summary: "npm test", prefix: "npm test" });
        type("y");
        return a;
      })(),
    ).toEqual({ kind: "yes" });
    let asked = p.ask({ tool: "bash", summary: "npm test", prefix: "npm test" });
    expect(p.render(100).join("\n")).toContain("[y yes]");
    type("\x1b[C"); // → moves the highlight to "always"
    expect(p.render(100).join("\n")).toContain("[a always `npm test …`]");
    type("\r");
    expect(await asked).toEqual({ kind: "always" });
    asked = p.ask({ tool: "edit", summary: "a.ts: replace 1 occurrence" });
    type("n");
    expect(p.render(100).at(-1)).toContain("why not?");
    type("x\x1b"); // Esc while typing a reason: back to the answers, nothing decided
    expect(p.asking).toBe(true);
    expect(p.render(100).at(-1)).toContain("allow? ›");
    type("nuse the helper instead\r");
    expect(await asked).toEqual({ kind: "no", reason: "use the helper instead" });
    asked = p.ask({ tool: "edit", summary: "a.ts: replace 1 occurrence" });
    type("n\r");
    expect(await asked).toEqual({ kind: "no" });
  });

  test("text that is not an answer is handed on (queued), never taken as no; Esc cancels", async () => {
    const { p, calls, type } = rig();
    const asked = p.ask({ tool: "edit", summary: "a.ts: replace 1 occurrence" });
    type("please fix the docs too\r");
    expect(calls).toEqual(["steer:please fix the docs too"]);
    expect(p.asking).toBe(true);
    expect(p.render(120).at(-1)).toContain("that is not an answer: it was queued for the model");
    type("\x1b");
    expect(await asked).toEqual({ kind: "cancel" });
    expect(p.asking).toBe(false);
  });

  test("a where yes-for-the-session is not offered is refused with a hint, never queued", async () => {
    const { p, calls, type } = rig();
    const asked = p.ask({ tool: "bash", summary: "ls && rm x" });
    expect(p.render(120).join("\n")).not.toContain("always");
    type("a");
    expect(calls).toEqual([]);
    expect(p.render(200).at(-1)).toContain("a (yes for the session) is not offered for this command");
    type("n\r");
    expect(await asked).toEqual({ kind: "no" });
  });

  test("Ctrl-C at the approval prompt is deny-and-cancel", async () => {
    const { p, type } = rig();
    const asked = p.ask({ tool: "write", summary: "create x.txt (1 line)" });
    type("\x03");
    expect(await asked).toEqual({ kind: "cancel" });
  });
});
