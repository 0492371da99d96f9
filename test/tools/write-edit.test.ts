// write and edit: atomic whole-file writes, exact-match replacement and its error messages.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Approvals } from "../../src/tools/approvals.ts";
import { makeSandbox, run, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
const ctx = () => ({ workspace: sb.workspace, approvals: new Approvals({ policy: "all" }) });
const file = (name: string) => join(sb.workspace, name);
const read = (name: string) => readFileSync(file(name), "utf8");

beforeAll(() => {
  sb = makeSandbox();
});
afterAll(() => sb.cleanup());

describe("write", () => {
  test("creates a file and its parent directories", async () => {
    const r = await run("write", { path: "a/b/c.txt", content: "one\ntwo\n" }, ctx());
    expect(r).toMatchObject({ is_error: false, text: "Created a/b/c.txt (8 B, 2 lines)" });
    expect(read("a/b/c.txt")).toBe("one\ntwo\n");
  });

  test("overwrites, keeps the file mode and leaves no temp files", async () => {
    writeFileSync(file("script.sh"), "old");
    chmodSync(file("script.sh"), 0o755);
    const r = await run("write", { path: "script.sh", content: "#!/bin/sh\necho hi\n" }, ctx());
    expect(r.text).toBe("Overwrote script.sh (18 B, 2 lines)");
    expect(read("script.sh")).toBe("#!/bin/sh\necho hi\n");
    expect(statSync(file("script.sh")).mode & 0o777).toBe(0o755);
    expect(readdirSync(sb.workspace).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  test("refuses to replace a directory or to nest under a file", async () => {
    mkdirSync(file("dir"));
    expect(await run("write", { path: "dir", content: "x" }, ctx())).toMatchObject({
      is_error: true,
      text: "dir is a directory, not a file",
    });
    writeFileSync(file("plain"), "x");
    const r = await run("write", { path: "plain/child.txt", content: "x" }, ctx());
    expect(r.is_error).toBe(true);
    expect(r.text).toContain("is a file, not a directory");
  });
});

describe("edit", () => {
  test("replaces the one occurrence and reports its line", async () => {
    writeFileSync(file("e1.ts"), "const a = 1;\nconst b = 2;\nconst c = 3;\n");
    const r = await run(
      "edit",
      { path: "e1.ts", old_text: "const b = 2;", new_text: "const b = 20;" },
      ctx(),
    );
    expect(r).toMatchObject({
      is_error: false,
      text: "Edited e1.ts: replaced 1 occurrence (line 2)\n1\tconst a = 1;\n2\tconst b = 20;\n3\tconst c = 3;",
    });
    expect(read("e1.ts")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
  });

  test("replacement text is literal ($& and $1 are not patterns)", async () => {
    writeFileSync(file("e2.txt"), "price: X\n");
    await run("edit", { path: "e2.txt", old_text: "X", new_text: "$& $1 $$" }, ctx());
    expect(read("e2.txt")).toBe("price: $& $1 $$\n");
  });

  test("ambiguous old_text is refused with the count and lines", async () => {
    writeFileSync(file("e3.txt"), "x = 1\ny = 2\nx = 1\nx = 1\n");
    const r = await run("edit", { path: "e3.txt", old_text: "x = 1", new_text: "x = 9" }, ctx());
    expect(r.is_error).toBe(true);
    expect(r.text).toBe(
      "old_text occurs 3 times in e3.txt (lines 1, 3, 4); include more surrounding lines to make it unique, or set replace_all to replace every occurrence",
    );
    expect(read("e3.txt")).toBe("x = 1\ny = 2\nx = 1\nx = 1\n");
  });

  test("replace_all replaces every occurrence", async () => {
    const r = await run(
      "edit",
      { path: "e3.txt", old_text: "x = 1", new_text: "x = 9", replace_all: true },
      ctx(),
    );
    expect(r.text).toBe(
      "Edited e3.txt: replaced 3 occurrences (lines 1, 3, 4)\n1\tx = 9\n2\ty = 2\n3\tx = 9\n4\tx = 9",
    );
    expect(read("e3.txt")).toBe("x = 9\ny = 2\nx = 9\nx = 9\n");
  });

  test("missing old_text: the nearest line is shown and the difference named", async () => {
    writeFileSync(file("e4.py"), "def main():\n    print('hello world')\n    return 0\n");
    const r = await run("edit", { path: "e4.py", old_text: "print('helo world')", new_text: "pass" }, ctx());
    expect(r.is_error).toBe(true);
    expect(r.text).toBe(
      `old_text was not found in e4.py: the closest part of the file is line 2:\n2\t    print('hello world')\nthe first line that differs is line 2: the file has "print('hello world')", old_text line 1 has "print('helo world')"; copy old_text from the file exactly (read it again if it may have changed)`,
    );
  });

  test("missing old_text because of spacing inside a line: says so", async () => {
    const r = await run(
      "edit",
      { path: "e4.py", old_text: "def main():\n    print('hello world')\n    return  0 ;", new_text: "x" },
      ctx(),
    );
    expect(r.text).toContain("the closest part of the file is lines 1-3:\n1\tdef main():\n");
    expect(r.text).toContain(
      `the first line that differs is line 3: the file has "return 0", old_text line 3 has "return  0 ;"`,
    );
    expect(read("e4.py")).toBe("def main():\n    print('hello world')\n    return 0\n");
  });

  test("old_text copied with read's line numbers: says so", async () => {
    const r = await run("edit", { path: "e4.py", old_text: "3\t    return 0", new_text: "x" }, ctx());
    expect(r.text).toContain("include the line numbers shown by read");
  });

  test("CRLF files match \\n old_text and keep their line endings", async () => {
    writeFileSync(file("crlf.txt"), "one\r\ntwo\r\nthree\r\n");
    const r = await run("edit", { path: "crlf.txt", old_text: "one\ntwo", new_text: "1\n2" }, ctx());
    expect(r.is_error).toBe(false);
    expect(read("crlf.txt")).toBe("1\r\n2\r\nthree\r\n");
  });

  test("empty or unchanged old_text, missing and binary files", async () => {
    expect((await run("edit", { path: "e1.ts", old_text: "", new_text: "x" }, ctx())).text).toContain(
      "old_text is empty",
    );
    expect((await run("edit", { path: "e1.ts", old_text: "a", new_text: "a" }, ctx())).text).toContain(
      "nothing to change",
    );
    expect((await run("edit", { path: "none.ts", old_text: "a", new_text: "b" }, ctx())).text).toBe(
      "file not found: none.ts",
    );
    writeFileSync(file("b.bin"), Buffer.from([0, 1, 2, 3]));
    expect((await run("edit", { path: "b.bin", old_text: "a", new_text: "b" }, ctx())).text).toContain(
      "not a text file",
    );
    writeFileSync(file("latin1.txt"), Buffer.from("caf\xe9 au lait\n", "latin1"));
    const l = await run("edit", { path: "latin1.txt", old_text: "au", new_text: "with" }, ctx());
    expect(l.text).toContain("not valid UTF-8");
    expect(readFileSync(file("latin1.txt"))).toEqual(Buffer.from("caf\xe9 au lait\n", "latin1"));
  });

  test("keeps the file mode", async () => {
    writeFileSync(file("run.sh"), "echo a\n");
    chmodSync(file("run.sh"), 0o750);
    await run("edit", { path: "run.sh", old_text: "echo a", new_text: "echo b" }, ctx());
    expect(statSync(file("run.sh")).mode & 0o777).toBe(0o750);
  });
});
