// The edit tool on the near misses real models make: each case asserts the file's exact content after
// the call (changed when the match is safe and unique, untouched otherwise).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Approvals } from "../../src/tools/approvals.ts";
import { FileTimes } from "../../src/tools/file-times.ts";
import type { ToolContext } from "../../src/tools/types.ts";
import { makeSandbox, run, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
const ctx = (files?: FileTimes): ToolContext => ({
  workspace: sb.workspace,
  approvals: new Approvals({ policy: "all" }),
  ...(files ? { files } : {}),
});
const file = (name: string) => join(sb.workspace, name);
const read = (name: string) => readFileSync(file(name), "utf8");

beforeAll(() => {
  sb = makeSandbox();
});
afterAll(() => sb.cleanup());

interface Case {
  name: string;
  file: string;
  args: Record<string, unknown>;
  /** the file afterwards; equal to `file` when the edit must be refused */
  after: string;
  /** text the result must contain */
  says?: string;
}

const FOUR = "class A {\n    run() {\n        if (x) {\n            go();\n        }\n    }\n}\n";

const cases: Case[] = [
  {
    name: "old_text indented by 2 in a 4-space file: new lines land at the file's depth",
    file: FOUR,
    args: {
      old_text: "  if (x) {\n    go();\n  }",
      new_text: "  if (x) {\n    go();\n    stop();\n  } else {\n    wait();\n  }",
    },
    after:
      "class A {\n    run() {\n        if (x) {\n            go();\n            stop();\n        } else {\n            wait();\n        }\n    }\n}\n",
    says: "matched ignoring indentation",
  },
  {
    name: "old_text without the base indentation",
    file: FOUR,
    args: { old_text: "if (x) {\n    go();\n}", new_text: "if (y) {\n    go();\n}" },
    after: "class A {\n    run() {\n        if (y) {\n            go();\n        }\n    }\n}\n",
  },
  {
    name: "trailing spaces in the file",
    file: "const a = 1;   \nconst b = 2;\t\nconst c = 3;\n",
    args: { old_text: "const a = 1;\nconst b = 2;", new_text: "const a = 1;\nconst b = 22;" },
    after: "const a = 1;   \nconst b = 22;\nconst c = 3;\n",
    says: "ignoring trailing whitespace",
  },
  {
    name: "tabs in the file, spaces in old_text",
    file: "func f() {\n\tif ok {\n\t\treturn 1\n\t}\n}\n",
    args: {
      old_text: "    if ok {\n        return 1\n    }",
      new_text: "    if ok {\n        log()\n        return 1\n    }",
    },
    after: "func f() {\n\tif ok {\n\t\tlog()\n\t\treturn 1\n\t}\n}\n",
  },
  {
    name: "smart quotes in the file (unchanged lines keep them)",
    file: "title = “Hello”\nnote = ‘it’s here’\nend\n",
    args: {
      old_text: "title = \"Hello\"\nnote = 'it's here'",
      new_text: "title = \"Bye\"\nnote = 'it's here'",
    },
    after: 'title = "Bye"\nnote = ‘it’s here’\nend\n',
    says: "typographic punctuation",
  },
  {
    name: "smart quote and dash inside a line",
    file: "say(“a—b”) // keep\n",
    args: { old_text: 'say("a-b")', new_text: 'say("a-c")' },
    after: 'say("a-c") // keep\n',
  },
  {
    name: "non-breaking space in the file",
    file: "let\u00a0x = 1;\nlet y = 2;\n",
    args: { old_text: "let x = 1;\nlet y = 2;", new_text: "let x = 10;\nlet y = 2;" },
    after: "let x = 10;\nlet y = 2;\n",
  },
  {
    name: "extra blank lines around old_text",
    file: "a();\nb();\nc();\n",
    args: { old_text: "\n\nb();\n\n\n", new_text: "\n\nbb();\n\n\n" },
    after: "a();\nbb();\nc();\n",
  },
  {
    name: "CRLF in old_text for an LF file",
    file: "one\ntwo\nthree\n",
    args: { old_text: "one\r\ntwo\r\n", new_text: "1\r\n2\r\n" },
    after: "1\n2\nthree\n",
  },
  {
    name: "a CRLF file stays CRLF when the match needs a tier",
    file: "if a {\r\n    b()\r\n}\r\n",
    args: { old_text: "if a {\n  b()\n}", new_text: "if a {\n  b()\n  c()\n}" },
    after: "if a {\r\n    b()\r\n    c()\r\n}\r\n",
  },
  {
    name: "deleting lines leaves no empty line behind",
    file: "keep1\n  drop me  \nkeep2\n",
    args: { old_text: "drop me\n", new_text: "" },
    after: "keep1\nkeep2\n",
  },
  {
    name: "unsafe: only the first and last lines match (a 5-line function, 3 lines quoted)",
    file: "function f() {\n  const a = 1;\n  const b = 2;\n  return a + b;\n}\n",
    args: { old_text: "function f() {\n  return a;\n}", new_text: "function f() {\n  return 0;\n}" },
    after: "function f() {\n  const a = 1;\n  const b = 2;\n  return a + b;\n}\n",
    says: "the first line that differs is line 2",
  },
  {
    name: "unsafe: a near miss that matches two places is refused",
    file: "  x = 1\nmid\n    x = 1\n",
    args: { old_text: "x = 1 ", new_text: "x = 2" },
    after: "  x = 1\nmid\n    x = 1\n",
    says: "old_text matches when indentation is ignored at 2 places in f.txt (lines 1, 3)",
  },
  {
    name: "a near miss with replace_all changes every place",
    file: "  x = 1\nmid\n    x = 1\n",
    args: { old_text: "x = 1 ", new_text: "x = 2", replace_all: true },
    after: "  x = 2\nmid\n    x = 2\n",
  },
  {
    name: "pasted line numbers are named, nothing changes",
    file: "a\nb\n",
    args: { old_text: "1\ta\n2\tb", new_text: "c" },
    after: "a\nb\n",
    says: "include the line numbers shown by read",
  },
  {
    name: "several edits in one call",
    file: "a = 1\nb = 2\nc = 3\n",
    args: {
      edits: [
        { old_text: "a = 1", new_text: "a = 10" },
        { old_text: "c = 3", new_text: "c = 30" },
      ],
    },
    after: "a = 10\nb = 2\nc = 30\n",
    says: "applied 2 edits (lines 1, 3)",
  },
  {
    name: "several edits: one missing, none applied",
    file: "a = 1\nb = 2\n",
    args: {
      edits: [
        { old_text: "a = 1", new_text: "a = 10" },
        { old_text: "zzz", new_text: "y" },
      ],
    },
    after: "a = 1\nb = 2\n",
    says: "edit 2 of 2: old_text was not found",
  },
  {
    name: "several edits that overlap are refused",
    file: "a = 1\nb = 2\n",
    args: {
      edits: [
        { old_text: "a = 1\nb", new_text: "x" },
        { old_text: "b = 2", new_text: "y" },
      ],
    },
    after: "a = 1\nb = 2\n",
    says: "edits 1 and 2 change overlapping text of f.txt (line 2)",
  },
  {
    name: "edits and old_text together are refused",
    file: "a\n",
    args: { old_text: "a", new_text: "b", edits: [{ old_text: "a", new_text: "c" }] },
    after: "a\n",
    says: "give either old_text and new_text, or edits, not both",
  },
];

describe("edit near misses", () => {
  for (const c of cases) {
    test(c.name, async () => {
      writeFileSync(file("f.txt"), c.file);
      const r = await run("edit", { path: "f.txt", ...c.args }, ctx());
      expect(read("f.txt")).toBe(c.after);
      expect(r.is_error).toBe(c.after === c.file);
      if (c.says) expect(r.text).toContain(c.says);
    });
  }
});

describe("edit result", () => {
  test("shows the edited region with line numbers", async () => {
    writeFileSync(file("s.txt"), `${Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n")}\n`);
    const r = await run("edit", { path: "s.txt", old_text: "line 10\n", new_text: "ten\nTEN\n" }, ctx());
    expect(r.text).toBe(
      "Edited s.txt: replaced 1 occurrence (line 10)\n8\tline 8\n9\tline 9\n10\tten\n11\tTEN\n12\tline 11\n13\tline 12",
    );
  });
});

describe("files changed since the model read them", () => {
  test("an edit after an outside change is refused; reading again allows it", async () => {
    const files = new FileTimes();
    writeFileSync(file("t.txt"), "alpha\nbeta\n");
    await run("read", { path: "t.txt" }, ctx(files));
    writeFileSync(file("t.txt"), "alpha\nbeta\ngamma\n");
    utimesSync(file("t.txt"), new Date(), new Date(Date.now() + 5000));
    const r = await run("edit", { path: "t.txt", old_text: "beta", new_text: "BETA" }, ctx(files));
    expect(r.is_error).toBe(true);
    expect(r.text).toStartWith("t.txt changed on disk since you last read it (at ");
    expect(read("t.txt")).toBe("alpha\nbeta\ngamma\n");
    await run("read", { path: "t.txt" }, ctx(files));
    expect(
      (await run("edit", { path: "t.txt", old_text: "beta", new_text: "BETA" }, ctx(files))).is_error,
    ).toBe(false);
    // Its own edits do not make the file stale.
    const again = await run("edit", { path: "t.txt", old_text: "gamma", new_text: "GAMMA" }, ctx(files));
    expect(again.is_error).toBe(false);
    expect(read("t.txt")).toBe("alpha\nBETA\nGAMMA\n");
  });

  test("a file never read can be edited when old_text matches", async () => {
    writeFileSync(file("u.txt"), "one\n");
    const r = await run("edit", { path: "u.txt", old_text: "one", new_text: "two" }, ctx(new FileTimes()));
    expect(r.is_error).toBe(false);
    expect(read("u.txt")).toBe("two\n");
  });

  test("after write, edit goes on without a read", async () => {
    const files = new FileTimes();
    await run("write", { path: "w.txt", content: "x\n" }, ctx(files));
    expect((await run("edit", { path: "w.txt", old_text: "x", new_text: "y" }, ctx(files))).is_error).toBe(
      false,
    );
  });
});
