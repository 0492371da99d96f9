// Approvals for bash, write and edit: read-only `none`, `all`, and `ask` with each answer — yes once, yes
// for the session (a command prefix for bash, the tool for write/edit), no, no with a reason, cancel — and
// an immediate refusal with a warning when there is no one to ask.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  Approvals,
  commandPrefix,
  nextApprovalPolicy,
  prefixCovers,
} from "../../src/tools/approvals.ts";
import { makeSandbox, run, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox();
});
afterAll(() => sb.cleanup());

/** An `ask` that answers from a list and records what it was asked. */
function answering(...answers: ApprovalAnswer[]) {
  const asked: ApprovalRequest[] = [];
  const ask = async (req: ApprovalRequest) => {
    asked.push(req);
    const a = answers.shift();
    if (!a) throw new Error(`asked more often than expected: ${req.summary}`);
    return a;
  };
  return { asked, ask };
}

const ctx = (approvals: Approvals) => ({ workspace: sb.workspace, approvals });

describe("command prefixes", () => {
  test("program plus subcommand; compound commands have none", () => {
    expect(commandPrefix("git status --short")).toBe("git status");
    expect(commandPrefix("ls -la")).toBe("ls");
    expect(commandPrefix("npm test -- --watch")).toBe("npm test");
    expect(commandPrefix("ls && rm -rf x")).toBeUndefined();
    expect(commandPrefix("cat a | sh")).toBeUndefined();
    expect(commandPrefix("echo $(whoami)")).toBeUndefined();
    expect(commandPrefix("echo hi > f")).toBeUndefined();
    expect(commandPrefix("FOO=1 make")).toBeUndefined();
    // A second word is a subcommand only for programs that take one: otherwise it is data.
    expect(commandPrefix("echo hi")).toBe("echo");
    expect(commandPrefix("cat notes")).toBe("cat");
    expect(commandPrefix("cargo build --release")).toBe("cargo build");
    expect(commandPrefix("/usr/bin/git log")).toBe("/usr/bin/git log");
  });

  test("the mode changes during a session: accept edits runs write and edit, still asks for bash", async () => {
    const { ask, asked } = answering({ kind: "no" }, { kind: "no" });
    const a = new Approvals({ policy: "ask", ask });
    a.setPolicy("edits");
    expect(a.policy).toBe("edits");
    expect(await a.check({ tool: "edit", summary: "x" })).toBeUndefined();
    expect(await a.check({ tool: "write", summary: "x" })).toBeUndefined();
    expect(await a.check({ tool: "bash", summary: "ls", prefix: "ls" }, "ls")).toContain("refused");
    // A tool declared at run time (an MCP server's) is not a file edit: accept edits still asks for it.
    const mcp = { tool: "tool", name: "mcp__fs__write_file", group: "fs", summary: "{}" } as const;
    expect(await a.check(mcp)).toContain("refused");
    expect(asked.map((r) => r.tool)).toEqual(["bash", "tool"]);
    expect(a.describe()).toBe("write and edit allowed; asks for the rest");
    a.setPolicy("all");
    expect(await a.check({ tool: "bash", summary: "rm x" }, "rm x")).toBeUndefined();
    expect(nextApprovalPolicy("ask")).toBe("edits");
    expect(nextApprovalPolicy("edits")).toBe("all");
    expect(nextApprovalPolicy("all")).toBe("ask");
    expect(nextApprovalPolicy("none")).toBe("ask");
  });

  test("a prefix covers only simple commands that start with it", () => {
    expect(prefixCovers("git status", "git status -s")).toBe(true);
    expect(prefixCovers("git status", "git statusx")).toBe(false);
    expect(prefixCovers("git status", "git status; rm -rf ~")).toBe(false);
    expect(prefixCovers("ls", "ls -la src")).toBe(true);
  });
});

describe("policies", () => {
  test("none is read-only: bash, write and edit are refused with the reason, nothing happens", async () => {
    writeFileSync(join(sb.workspace, "keep.txt"), "old\n");
    const a = new Approvals({ policy: "none" });
    const bash = await run("bash", { command: "touch ran-none" }, ctx(a));
    const write = await run("write", { path: "new.txt", content: "x" }, ctx(a));
    const edit = await run("edit", { path: "keep.txt", old_text: "old", new_text: "new" }, ctx(a));
    for (const r of [bash, write, edit]) {
      expect(r.is_error).toBe(true);
      expect(r.text).toStartWith("refused: the session is read-only (--approve none)");
    }
    expect(existsSync(join(sb.workspace, "ran-none"))).toBe(false);
    expect(existsSync(join(sb.workspace, "new.txt"))).toBe(false);
    expect(readFileSync(join(sb.workspace, "keep.txt"), "utf8")).toBe("old\n");
    // reading stays allowed
    expect((await run("read", { path: "keep.txt" }, ctx(a))).is_error).toBe(false);
  });

  test("all runs without asking", async () => {
    const a = new Approvals({
      policy: "all",
      ask: async () => {
        throw new Error("asked");
      },
    });
    expect((await run("bash", { command: "echo ok" }, ctx(a))).text).toBe("ok\n[exit code 0]");
  });

  test("ask with no one to ask: refused at once, a warning for the user, a tool error for the model", async () => {
    const warned: string[] = [];
    const a = new Approvals({ policy: "ask", warn: (l) => warned.push(l) });
    const r = await run("bash", { command: "touch ran-nobody" }, ctx(a));
    expect(r.is_error).toBe(true);
    expect(r.text).toContain("there is no terminal to ask on");
    expect(warned).toEqual([
      "refused bash (touch ran-nobody): --approve ask needs a terminal to ask on; rerun with --approve all to allow it",
    ]);
    expect(existsSync(join(sb.workspace, "ran-nobody"))).toBe(false);
  });
});

describe("ask", () => {
  test("bash: no, no with a reason, yes once, then yes for the session covers the prefix only", async () => {
    const { asked, ask } = answering(
      { kind: "no" },
      { kind: "no", reason: "use the Makefile target instead" },
      { kind: "yes" },
      { kind: "always" },
      { kind: "no" },
    );
    const a = new Approvals({ policy: "ask", ask });
    const no = await run("bash", { command: "touch ran-no" }, ctx(a));
    expect(no.text).toContain("the user declined");
    const why = await run("bash", { command: "touch ran-why" }, ctx(a));
    expect(why.text).toBe("refused by the user, who said: use the Makefile target instead");
    expect((await run("bash", { command: "touch ran-yes" }, ctx(a))).is_error).toBe(false);
    expect(existsSync(join(sb.workspace, "ran-no"))).toBe(false);
    expect(existsSync(join(sb.workspace, "ran-why"))).toBe(false);
    expect(existsSync(join(sb.workspace, "ran-yes"))).toBe(true);
    // "always" on `ls -a` allows `ls …` from now on, without asking…
    await run("bash", { command: "ls -a" }, ctx(a));
    expect((await run("bash", { command: "ls -l ran-yes" }, ctx(a))).is_error).toBe(false);
    // …but not a compound command that starts with it
    expect((await run("bash", { command: "ls && touch sneaky" }, ctx(a))).is_error).toBe(true);
    expect(existsSync(join(sb.workspace, "sneaky"))).toBe(false);
    expect(asked.map((q) => q.summary)).toEqual([
      "touch ran-no",
      "touch ran-why",
      "touch ran-yes",
      "ls -a",
      "ls && touch sneaky",
    ]);
    expect(asked[3]?.prefix).toBe("ls");
    expect(asked[4]?.prefix).toBeUndefined();
    expect(a.describe()).toBe("asks, except: bash ls …");
  });

  test("write and edit are asked; yes for the session covers the tool", async () => {
    writeFileSync(join(sb.workspace, "e.txt"), "alpha\nbeta\n");
    const { asked, ask } = answering({ kind: "no" }, { kind: "always" }, { kind: "always" });
    const a = new Approvals({ policy: "ask", ask });
    const refused = await run("write", { path: "w.txt", content: "a\nb\n" }, ctx(a));
    expect(refused.is_error).toBe(true);
    expect(existsSync(join(sb.workspace, "w.txt"))).toBe(false);
    await run("write", { path: "w.txt", content: "a\nb\n" }, ctx(a));
    await run("write", { path: "w2.txt", content: "c" }, ctx(a));
    await run("edit", { path: "e.txt", old_text: "beta", new_text: "gamma" }, ctx(a));
    await run("edit", { path: "e.txt", old_text: "alpha", new_text: "delta" }, ctx(a));
    expect(readFileSync(join(sb.workspace, "e.txt"), "utf8")).toBe("delta\ngamma\n");
    expect(asked.map((q) => `${q.tool}: ${q.summary}`)).toEqual([
      "write: create w.txt (2 lines)",
      "write: create w.txt (2 lines)",
      "edit: e.txt: replace 1 occurrence at line 2 (1 → 1 lines)",
    ]);
    // the question can show the change as a diff
    const edit = asked[2]?.diff?.();
    expect(edit).toMatchObject({ path: "e.txt", diff: { added: 1, removed: 1 } });
    expect(asked[0]?.diff?.()).toMatchObject({ path: "w.txt", diff: { added: 2, removed: 0 } });
  });

  test("an edit that cannot apply is reported without asking", async () => {
    writeFileSync(join(sb.workspace, "f.txt"), "one\n");
    const { asked, ask } = answering();
    const a = new Approvals({ policy: "ask", ask });
    const r = await run("edit", { path: "f.txt", old_text: "missing", new_text: "x" }, ctx(a));
    expect(r.text).toContain("old_text was not found");
    expect(asked).toEqual([]);
  });

  test("cancel at the prompt refuses truthfully", async () => {
    const a = new Approvals({ policy: "ask", ask: async () => ({ kind: "cancel" }) });
    const r = await run("bash", { command: "touch ran-cancel" }, ctx(a));
    expect(r.text).toBe("refused: the user cancelled the turn at the approval prompt, so it was not done");
    expect(existsSync(join(sb.workspace, "ran-cancel"))).toBe(false);
  });
});
