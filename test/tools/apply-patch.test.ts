// apply_patch: codex's patch format parsed by our own parser and applied with edit's matching; each case
// asserts the files' exact contents afterwards (unchanged when the patch must be refused).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type ApprovalRequest, Approvals } from "../../src/tools/approvals.ts";
import { parsePatch } from "../../src/tools/patch/parse.ts";
import type { ToolContext } from "../../src/tools/types.ts";
import { makeSandbox, run, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

const ctx = (approvals = new Approvals({ policy: "all" })): ToolContext => ({
  workspace: sb.workspace,
  approvals,
});
const put = (rel: string, text: string) => {
  mkdirSync(dirname(join(sb.workspace, rel)), { recursive: true });
  writeFileSync(join(sb.workspace, rel), text);
};
const get = (rel: string) =>
  existsSync(join(sb.workspace, rel)) ? readFileSync(join(sb.workspace, rel), "utf8") : null;
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const apply = (input: string, c = ctx()) => run("apply_patch", { input }, c);

const PY = "def greet():\n    print('hi')\n    return 1\n\n\ndef main():\n    greet()\n";

describe("file operations", () => {
  test("add a file (parent directories created)", async () => {
    const r = await apply(patch("*** Add File: src/new/hello.txt", "+Hello", "+", "+world"));
    expect(r.is_error).toBe(false);
    expect(r.text).toBe("Added src/new/hello.txt");
    expect(get("src/new/hello.txt")).toBe("Hello\n\nworld\n");
  });

  test("update with context and an @@ line", async () => {
    put("app.py", PY);
    const r = await apply(
      patch(
        "*** Update File: app.py",
        "@@ def main():",
        "-    greet()",
        "+    greet()",
        "+    print('done')",
      ),
    );
    expect(r.is_error).toBe(false);
    expect(get("app.py")).toBe(`${PY}    print('done')\n`);
    expect(r.text).toStartWith("Updated app.py\n5\t\n6\tdef main():\n7\t    greet()\n8\t    print('done')");
  });

  test("several hunks in file order", async () => {
    put("app.py", PY);
    await apply(
      patch(
        "*** Update File: app.py",
        "@@",
        " def greet():",
        "-    print('hi')",
        "+    print('hello')",
        "@@",
        " def main():",
        "-    greet()",
        "+    return greet()",
      ),
    );
    expect(get("app.py")).toBe(PY.replace("'hi'", "'hello'").replace("    greet()", "    return greet()"));
  });

  test("move and change in one section", async () => {
    put("old/name.py", PY);
    const r = await apply(
      patch(
        "*** Update File: old/name.py",
        "*** Move to: new/name.py",
        "@@",
        "-    return 1",
        "+    return 2",
      ),
    );
    expect(r.text).toStartWith("Updated old/name.py → new/name.py");
    expect(get("old/name.py")).toBeNull();
    expect(get("new/name.py")).toBe(PY.replace("return 1", "return 2"));
  });

  test("delete a file; a symbolic link is removed, not its target", async () => {
    put("gone.txt", "x\n");
    put("target.txt", "keep\n");
    symlinkSync(join(sb.workspace, "target.txt"), join(sb.workspace, "link.txt"));
    const r = await apply(patch("*** Delete File: gone.txt", "*** Delete File: link.txt"));
    expect(r.text).toBe("Deleted gone.txt\nDeleted link.txt");
    expect(get("gone.txt")).toBeNull();
    expect(existsSync(join(sb.workspace, "link.txt"))).toBe(false);
    expect(get("target.txt")).toBe("keep\n");
  });

  test("fuzzy context: 2-space context in a 4-space file, trailing spaces, smart quotes", async () => {
    put("f.ts", "function f() {\n    const s = “x”;   \n    return s;\n}\n");
    const r = await apply(
      patch(
        "*** Update File: f.ts",
        "@@",
        '  const s = "x";',
        "-  return s;",
        "+  if (!s) throw new Error();",
        "+  return s;",
      ),
    );
    expect(r.is_error).toBe(false);
    expect(r.text).toContain("[some context matched only when whitespace or punctuation is ignored]");
    expect(get("f.ts")).toBe(
      "function f() {\n    const s = “x”;   \n    if (!s) throw new Error();\n    return s;\n}\n",
    );
  });

  test("*** End of File anchors a hunk at the end; CRLF files stay CRLF", async () => {
    put("w.txt", "a\r\nend\r\nmid\r\nend\r\n");
    await apply(patch("*** Update File: w.txt", "@@", " mid", "-end", "+END", "*** End of File"));
    expect(get("w.txt")).toBe("a\r\nend\r\nmid\r\nEND\r\n");
  });

  test("wrapped in a heredoc, CRLF, a blank context line without its space", async () => {
    put("b.txt", "one\n\nthree\n");
    const input = `apply_patch <<'EOF'\r\n${patch("*** Update File: b.txt", "@@", " one", "", "-three", "+3").replace(/\n/g, "\r\n")}\r\nEOF\r\n`;
    expect((await apply(input)).is_error).toBe(false);
    expect(get("b.txt")).toBe("one\n\n3\n");
  });
});

describe("refused, and nothing written", () => {
  test("context that is not in the file: the closest part is shown", async () => {
    put("app.py", PY);
    put("other.txt", "x\n");
    const r = await apply(
      patch(
        "*** Update File: other.txt",
        "-x",
        "+y",
        "*** Update File: app.py",
        "@@",
        "-    print('bye')",
        "+    pass",
      ),
    );
    expect(r.is_error).toBe(true);
    expect(r.text).toContain("hunk 1 of app.py: its context and removed lines were not found");
    expect(r.text).toContain("the closest part of the file is line 2");
    expect(get("other.txt")).toBe("x\n");
    expect(get("app.py")).toBe(PY);
  });

  test("only first and last context lines matching is no match (no anchor-only replacement)", async () => {
    put("f.js", "function f() {\n  const a = 1;\n  const b = 2;\n  return a + b;\n}\n");
    const r = await apply(
      patch("*** Update File: f.js", " function f() {", "-  return a;", "+  return 0;", " }"),
    );
    expect(r.is_error).toBe(true);
    expect(get("f.js")).toBe("function f() {\n  const a = 1;\n  const b = 2;\n  return a + b;\n}\n");
  });

  test("adding a file that exists, moving onto one, touching a file twice", async () => {
    put("a.txt", "a\n");
    put("b.txt", "b\n");
    expect((await apply(patch("*** Add File: a.txt", "+new"))).text).toBe(
      "cannot add a.txt: it already exists; change it with *** Update File instead",
    );
    expect((await apply(patch("*** Update File: a.txt", "*** Move to: b.txt"))).text).toContain(
      "cannot move to b.txt: it already exists",
    );
    expect((await apply(patch("*** Delete File: a.txt", "*** Update File: a.txt", "-a", "+A"))).text).toBe(
      "the patch changes a.txt twice; put all its changes in one section",
    );
    expect([get("a.txt"), get("b.txt")]).toEqual(["a\n", "b\n"]);
  });

  test("a path outside the workspace", async () => {
    const r = await apply(patch("*** Add File: ../outside/x.txt", "+x"));
    expect(r.is_error).toBe(true);
    expect(r.text).toContain("outside the workspace");
    expect(existsSync(join(sb.outside, "x.txt"))).toBe(false);
  });

  test("one approval for the whole patch, naming every file; a refusal writes nothing", async () => {
    put("a.txt", "a\n");
    const asked: ApprovalRequest[] = [];
    const approvals = new Approvals({
      policy: "ask",
      ask: async (req) => {
        asked.push(req);
        return { kind: "no", reason: "not now" };
      },
    });
    const r = await apply(
      patch("*** Update File: a.txt", "-a", "+A", "*** Add File: c.txt", "+c"),
      ctx(approvals),
    );
    expect(r.is_error).toBe(true);
    expect(asked.map((q) => [q.tool, q.summary])).toEqual([
      ["edit", "apply_patch: update a.txt (1 hunk); add c.txt (1 lines) — the diff shown is a.txt's"],
    ]);
    expect(asked[0]?.diff?.()?.diff.added).toBe(1);
    expect([get("a.txt"), get("c.txt")]).toEqual(["a\n", null]);
  });
});

describe("parse errors name the line", () => {
  test.each([
    ["no begin", "*** Update File: a\n*** End Patch", 'the patch must start with "*** Begin Patch"'],
    [
      "cut off",
      "*** Begin Patch\n*** Add File: a\n+x",
      'the patch must end with "*** End Patch"; if it was cut off',
    ],
    ["bad header", patch("*** Modify File: a"), 'patch line 2: expected "*** Add File: "'],
    [
      "bad hunk line",
      patch("*** Update File: a", "@@", "?x"),
      'patch line 4: a hunk line starts with " " (context)',
    ],
    [
      "add without +",
      patch("*** Add File: a", "x"),
      'patch line 3: every line of an added file starts with "+"',
    ],
  ])("%s", (_name, input, message) => {
    expect(() => parsePatch(input)).toThrow(message);
  });
});
