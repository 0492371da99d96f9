// The slash command registry, prompt templates as commands, @path mentions and !command.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expandMentions, findMentions, MENTION_MAX_FILE_BYTES } from "../../src/agent/mentions.ts";
import { loadTemplates } from "../../src/agent/prompt-templates.ts";
import { runUserCommand } from "../../src/agent/user-command.ts";
import { BUILTIN_COMMANDS, CommandRegistry, parseSlash } from "../../src/console/commands.ts";
import { parseBang } from "../../src/console/shell-command.ts";
import { expandTemplate } from "../../src/lib/prompt-template.ts";
import { Approvals } from "../../src/tools/approvals.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

let root: string;
let ws: string;
let cfg: string;
beforeEach(() => {
  root = tempDir();
  ws = join(root, "ws");
  cfg = join(root, "cfg");
  mkdirSync(join(ws, ".i", "prompts"), { recursive: true });
  mkdirSync(join(cfg, "prompts"), { recursive: true });
});
afterEach(() => removeDir(root));

describe("slash commands", () => {
  test("parse: name and arguments; not a command: paths, //, a lone slash", () => {
    expect(parseSlash("/model gpt-5")).toEqual({ name: "model", args: "gpt-5" });
    expect(parseSlash("/compact  keep the plan\nand the list")).toEqual({
      name: "compact",
      args: "keep the plan\nand the list",
    });
    expect(parseSlash("/")).toBeUndefined();
    expect(parseSlash("//comment")).toBeUndefined();
    expect(parseSlash("/usr/bin is odd")).toBeUndefined();
  });

  test("help lists every command in one line each, aliases included, then the keys", () => {
    const lines = new CommandRegistry().help();
    expect(lines).toHaveLength(BUILTIN_COMMANDS.length + 1);
    for (const name of [
      "help",
      "model",
      "new",
      "clear",
      "resume",
      "sessions",
      "compact",
      "status",
      "cost",
      "exit",
    ])
      expect(lines.some((l) => l.startsWith(`/${name}`))).toBe(true);
    expect(lines.find((l) => l.startsWith("/cost"))).toContain("(or /usage)");
    expect(lines.at(-1)).toStartWith("keys:");
    expect(new CommandRegistry().builtin("usage")?.name).toBe("cost");
  });
});

describe("prompt templates", () => {
  test(".i/prompts and config_dir/prompts become commands; the workspace wins; system/summary are not commands", () => {
    writeFileSync(join(ws, ".i/prompts/review.md"), "# Review the change\nReview $1 with care: $ARGUMENTS\n");
    writeFileSync(join(cfg, "prompts/review.md"), "the user's own review\n");
    writeFileSync(join(cfg, "prompts/explain.md"), "Explain this code in {{workspace}}.\n");
    writeFileSync(join(cfg, "prompts/system.md"), "system additions\n");
    writeFileSync(join(cfg, "prompts/summary.md"), "summary prompt\n");
    writeFileSync(join(ws, ".i/prompts/help.md"), "a template that tries to hide /help\n");
    const { templates, problems } = loadTemplates(ws, cfg);
    expect(problems).toEqual([]);
    expect(templates.map((t) => t.name)).toEqual(["explain", "help", "review"]);
    const reg = new CommandRegistry(templates);
    expect(reg.templates.map((t) => t.name)).toEqual(["explain", "review"]);
    expect(reg.shadowed).toEqual([join(ws, ".i/prompts/help.md")]);
    const review = reg.template("review");
    expect(review?.description).toBe("Review the change");
    expect(expandTemplate(review as never, "src/a.ts quickly", ws)).toBe(
      "# Review the change\nReview src/a.ts with care: src/a.ts quickly",
    );
    expect(expandTemplate(reg.template("explain") as never, "main.ts", ws)).toBe(
      `Explain this code in ${ws}.\n\nmain.ts`,
    );
    expect(
      reg.help().some((l) => l.startsWith("/review [args]") && l.includes("template: Review the change")),
    ).toBe(true);
  });

  test("a FIFO template is reported at once instead of blocking the console", () => {
    expect(spawnSync("mkfifo", [join(ws, ".i/prompts/stuck.md")]).status).toBe(0);
    writeFileSync(join(cfg, "prompts", "fine.md"), "Review {{workspace}}\n");
    const { templates, problems } = loadTemplates(ws, cfg);
    expect(templates.map((t) => t.name)).toEqual(["fine"]);
    expect(problems).toEqual([
      `${join(ws, ".i/prompts/stuck.md")}: is a FIFO (named pipe), not a regular file; replace it with a regular file`,
    ]);
  });

  test("a workspace template linking outside the workspace is skipped and reported", () => {
    writeFileSync(join(root, "evil.md"), "outside\n");
    symlinkSync(join(root, "evil.md"), join(ws, ".i/prompts/evil.md"));
    const { templates, problems } = loadTemplates(ws, cfg);
    expect(templates).toEqual([]);
    expect(problems[0]).toContain(".i/prompts/evil.md");
    expect(problems[0]).toContain("outside the workspace");
  });
});

describe("@path mentions", () => {
  test("found at word starts, trailing punctuation dropped, e-mail addresses ignored", () => {
    expect(findMentions("look at @src/a.ts, and @b.md. mail me@x.org (@c)")).toEqual(["src/a.ts", "b.md"]);
  });

  test("a file's text and a directory's listing are attached; the mention text stays", () => {
    mkdirSync(join(ws, "src"));
    writeFileSync(join(ws, "src/a.ts"), "export const a = 1;\n");
    writeFileSync(join(ws, ".gitignore"), "*.log\n");
    writeFileSync(join(ws, "src/debug.log"), "noise");
    const r = expandMentions("explain @src/a.ts and @src", ws);
    expect(r.text).toBe(
      'explain @src/a.ts and @src\n\n<file path="src/a.ts">\nexport const a = 1;\n</file>\n\n<directory path="src">\na.ts\n</directory>',
    );
    expect(r.notes).toEqual(["attached @src/a.ts (20 B)", "attached @src (directory listing, 1 entries)"]);
  });

  test("outside the workspace, missing, binary and oversized files", () => {
    writeFileSync(join(root, "secret.txt"), "secret");
    writeFileSync(join(ws, "img.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]));
    writeFileSync(join(ws, "big.txt"), "0123456789\n".repeat(MENTION_MAX_FILE_BYTES / 5));
    const r = expandMentions("@../secret.txt @nobody @img.png @big.txt", ws);
    expect(r.text).not.toContain("secret\n");
    expect(r.notes[0]).toContain("@../secret.txt: not attached: path");
    expect(r.notes[0]).toContain("outside the workspace");
    expect(r.notes[1]).toBe("@nobody: no such file in the workspace; sent as plain text");
    expect(r.notes[2]).toBe("@img.png: not attached (image/png)");
    expect(r.notes[3]).toMatch(/^attached @big\.txt \(first 64\.0 KiB of 140\.8 KiB\)$/);
    expect(r.text).toContain("use the read tool for the rest]");
    expect(r.text.length).toBeLessThan(MENTION_MAX_FILE_BYTES + 2000);
  });
});

describe("!command", () => {
  test("parsed from !cmd only", () => {
    expect(parseBang("!echo hi")).toBe("echo hi");
    expect(parseBang("!")).toBeUndefined();
    expect(parseBang("echo !x")).toBeUndefined();
  });

  test("runs in the workspace through the bash tool; read-only sessions refuse it", async () => {
    const ask = async () => {
      throw new Error("typing !cmd is the approval; nothing is asked");
    };
    const ctx = { workspace: ws, approvals: new Approvals({ policy: "ask", ask }) };
    const ran = await runUserCommand("echo hi; pwd", ctx, new AbortController().signal);
    expect(ran.result.is_error).toBe(false);
    expect(ran.text).toBe(`hi\n${ws}\n[exit code 0]`);
    expect(ran.message).toContain("$ echo hi; pwd\nhi\n");
    const ro = { workspace: ws, approvals: new Approvals({ policy: "none" }) };
    const refused = await runUserCommand("touch x", ro, new AbortController().signal);
    expect(refused.result.is_error).toBe(true);
    expect(refused.text).toContain("read-only");
  });
});
