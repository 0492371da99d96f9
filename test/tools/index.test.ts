// runCoreTool: the single entry point never throws; model mistakes become helpful error results.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolDecl } from "../../src/contract/protocol.ts";
import { Approvals } from "../../src/tools/approvals.ts";
import { CORE_TOOLS, coreToolDecls, runCoreTool } from "../../src/tools/index.ts";
import { makeSandbox, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
const ctx = () => ({ workspace: sb.workspace, approvals: new Approvals({ policy: "all" }) });
beforeAll(() => {
  sb = makeSandbox();
  writeFileSync(join(sb.workspace, "f.txt"), "x\n");
});
afterAll(() => sb.cleanup());

describe("coreToolDecls", () => {
  test("read, write, edit, bash with JSON Schemas generated from zod", () => {
    const decls = coreToolDecls();
    expect(decls.map((d) => d.name)).toEqual(["read", "write", "edit", "bash"]);
    for (const d of decls) {
      expect(ToolDecl.safeParse(d).success).toBe(true);
      expect(d.input_schema.type).toBe("object");
      expect(d.input_schema.additionalProperties).toBe(false);
      expect(d.input_schema.$schema).toBeUndefined();
    }
    const edit = decls.find((d) => d.name === "edit");
    // old_text/new_text or edits: which one is checked by the tool, with a message saying what to give.
    expect(edit?.input_schema.required).toEqual(["path"]);
    expect(Object.keys(edit?.input_schema.properties as object)).toEqual([
      "path",
      "old_text",
      "new_text",
      "replace_all",
      "edits",
    ]);
    expect(CORE_TOOLS.map((t) => t.name)).toEqual(["read", "write", "edit", "bash", "apply_patch"]);
    // apply_patch replaces edit and write for the models trained on it, and only for them.
    expect(coreToolDecls("apply_patch").map((d) => d.name)).toEqual(["read", "bash", "apply_patch"]);
  });
});

describe("runCoreTool: model mistakes are results, not throws", () => {
  test("unknown tool", async () => {
    expect(await runCoreTool("grep", "{}", ctx())).toEqual({
      content: 'unknown tool "grep"; the core tools are read, write, edit, bash, apply_patch',
      is_error: true,
    });
  });

  test("malformed JSON", async () => {
    const r = await runCoreTool("read", '{"path": "f.txt"', ctx());
    expect(r.is_error).toBe(true);
    expect(r.content).toStartWith("the arguments for read are not valid JSON (");
  });

  test("JSON that is not an object", async () => {
    const r = await runCoreTool("read", '["f.txt"]', ctx());
    expect(r.is_error).toBe(true);
    expect(r.content).toStartWith("invalid arguments for read: arguments: ");
  });

  test("missing, mistyped and unknown arguments are all named", async () => {
    const missing = await runCoreTool("read", "{}", ctx());
    expect(missing.content).toStartWith("invalid arguments for read: path: ");
    const typed = await runCoreTool("read", '{"path":"f.txt","limit":"ten"}', ctx());
    expect(typed.content).toStartWith("invalid arguments for read: limit: ");
    // An unknown argument is dropped and named rather than failing the call (the forgiving reading).
    const unknown = await runCoreTool("write", '{"path":"g.txt","content":"x","mode":"append"}', ctx());
    expect(unknown.content).toBe(
      "Created g.txt (1 B, 1 line)\n[ignored unknown argument mode (write takes path, content)]",
    );
  });

  test("empty arguments mean {}", async () => {
    const r = await runCoreTool("read", "", ctx());
    expect(r.content).toStartWith("invalid arguments for read: path:");
  });

  test("an unexpected failure inside a tool is reported, not thrown", async () => {
    const r = await runCoreTool("read", JSON.stringify({ path: "f.txt" }), {
      ...ctx(),
      workspace: "/nonexistent/ws",
    });
    expect(r.is_error).toBe(true);
    expect(typeof r.content).toBe("string");
  });

  test("a successful call", async () => {
    expect(await runCoreTool("read", '{"path":"f.txt"}', ctx())).toEqual({
      content: "1\tx",
      is_error: false,
    });
  });
});
