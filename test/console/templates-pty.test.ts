// Prompt templates and session titles as a person meets them: front matter describes a template and is
// never sent; a template written while the console runs is a command at once; the title comes from the
// request's own words; /rename names the session.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCliAsync } from "../helpers/cli.ts";
import { liveConsole, PTY_TEST_MS, send } from "./console-pty.ts";
import { TWO_MODELS } from "./two-models.ts";

const live = liveConsole();

const REVIEW = [
  "---",
  "description: Review a file for bugs",
  "argument-hint: FILE",
  "model: other-model",
  "---",
  "Review $1 carefully and list every bug you find in it, most severe first, with a fix for each one.",
].join("\n");

test(
  "front matter is never sent; a template made mid-session works without /new; titles are clean; /rename",
  async () => {
    const { rig, pty } = await live.open([{ text: "reviewed" }, { text: "second" }], {
      config: TWO_MODELS,
      cols: 140,
    });
    const p = pty;
    const r = rig;
    // Written after the console started: /help lists it with its description and argument hint.
    mkdirSync(join(r.workspace, ".i", "prompts"), { recursive: true });
    writeFileSync(join(r.workspace, ".i", "prompts", "review.md"), REVIEW);
    await send(p, "/help");
    await p.waitFor((s) => /\/review FILE\s+template: Review a file for bugs/.test(s));
    await send(p, "/review src/app.ts");
    await p.waitFor("reviewed");
    const body = JSON.stringify(r.mock.requests[0]?.body);
    expect(body).toContain("Review src/app.ts carefully");
    expect(body).not.toContain("description:");
    expect(body).not.toContain("---");
    // The template's model served its message; the session's model is back afterwards.
    expect(body).toContain(`"model":"other-model"`);
    // The title: the request's words, cut at a word near 60 characters.
    const status = await p.waitFor((s) => /mock-model · openai .*· Review src\/app\.ts/.test(s));
    const title = /· (Review src\/app\.ts[^\n]*)/.exec(status)?.[1]?.trim() ?? "";
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title.endsWith("…")).toBe(true);
    // Cut between words: what precedes the ellipsis is a whole word of the request.
    const words = "Review src/app.ts carefully and list every bug you find in it, most severe".split(" ");
    expect(words).toContain(title.slice(0, -1).split(" ").at(-1)?.replace(/,$/, "") ?? "");
    await send(p, "/rename  bug hunt in app.ts ");
    await p.waitFor("session renamed: bug hunt in app.ts");
    await p.waitFor((s) => /openai .*· bug hunt in app\.ts\s*\n›/.test(s));
    const listed = await runCliAsync(["sessions", "--workspace", r.workspace], r.env);
    expect(listed.stdout).toContain("bug hunt in app.ts");
  },
  PTY_TEST_MS,
);
