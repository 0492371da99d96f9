// AGENTS.md below the workspace comes with the first file read under its directory, once, outermost
// first; CLAUDE.md where a directory has no AGENTS.md; the workspace's own file is not repeated.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Approvals } from "../../src/tools/approvals.ts";
import { NestedInstructions } from "../../src/tools/nested-instructions.ts";
import type { ToolContext } from "../../src/tools/types.ts";
import { makeSandbox, run, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
let ctx: ToolContext;

beforeAll(() => {
  sb = makeSandbox();
  const put = (rel: string, text: string) => {
    mkdirSync(join(sb.workspace, rel, ".."), { recursive: true });
    writeFileSync(join(sb.workspace, rel), text);
  };
  put("AGENTS.md", "ROOT RULES\n");
  put("pkg/AGENTS.md", "Package rules: use tabs.\n");
  put("pkg/CLAUDE.md", "NOT READ\n");
  put("pkg/sub/CLAUDE.md", "Sub rules.\n");
  put("pkg/sub/file.ts", "export {};\n");
  put("pkg/other.ts", "x\n");
  put("top.ts", "y\n");
  ctx = {
    workspace: sb.workspace,
    approvals: new Approvals({ policy: "all" }),
    instructions: new NestedInstructions(sb.workspace),
  };
});
afterAll(() => sb.cleanup());

test("delivered with the first read under the directory, outermost first, then never again", async () => {
  expect((await run("read", { path: "top.ts" }, ctx)).text).toBe("1\ty");
  const first = (await run("read", { path: "pkg/sub/file.ts" }, ctx)).text;
  expect(first).toStartWith(
    "1\texport {};\n\n[The project file pkg/AGENTS.md applies to the files under pkg/",
  );
  expect(first).toContain(
    '<project-instructions file="pkg/AGENTS.md">\nPackage rules: use tabs.\n</project-instructions>',
  );
  expect(first).toContain(
    '<project-instructions file="pkg/sub/CLAUDE.md">\nSub rules.\n</project-instructions>',
  );
  expect(first.indexOf("pkg/AGENTS.md")).toBeLessThan(first.indexOf("pkg/sub/CLAUDE.md"));
  expect(first).not.toContain("NOT READ");
  expect(first).not.toContain("ROOT RULES");
  expect((await run("read", { path: "pkg/other.ts" }, ctx)).text).toBe("1\tx");
  expect((await run("read", { path: "pkg/sub/file.ts" }, ctx)).text).toBe("1\texport {};");
});
