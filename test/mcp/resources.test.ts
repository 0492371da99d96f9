// `@SERVER:URI` mentions against the reference server "everything" (npm, run offline) in print mode: the
// resource's text goes with the message, a binary one is named, and a mention that cannot be read stops
// the run with one line before anything reaches the model.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Rig } from "../agent/rig.ts";
import { ROOT } from "../helpers/cli.ts";
import { everything, mcpRig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const DOC = "demo://resource/static/document/features.md";
const docText = () =>
  readFileSync(
    join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/docs/features.md"),
    "utf8",
  );

/** The user message of the model's first request. */
function firstUserText(r: Rig): string {
  const body = r.mock.requests[0]?.body as { messages?: { role: string; content: unknown }[] } | undefined;
  const m = (body?.messages ?? []).find((x) => x.role === "user");
  return typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");
}

describe("mcp: @server:uri resource mentions", () => {
  test("the next request carries the resource's text in a resource block", async () => {
    rig = await mcpRig({ everything }, { script: [{ text: "read it" }] });
    const r = await rig.run(["-p", `summarise @everything:${DOC} please`]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`i: attached @everything:${DOC} \\(\\d`));
    const sent = firstUserText(rig);
    expect(
      sent.startsWith(`summarise @everything:${DOC} please\n\n<resource uri="everything:${DOC}">\n`),
    ).toBe(true);
    expect(sent).toContain(docText().trim().split("\n")[0] as string);
    expect(sent.trimEnd().endsWith("</resource>")).toBe(true);
  }, 60_000);

  test("a binary resource is named in a note, not attached", async () => {
    rig = await mcpRig({ everything }, { script: [{ text: "ok" }] });
    const r = await rig.run(["-p", "look @everything:demo://resource/dynamic/blob/1"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("@everything:demo://resource/dynamic/blob/1: binary contents not attached (");
    expect(firstUserText(rig)).toBe("look @everything:demo://resource/dynamic/blob/1");
  }, 60_000);

  test("an unknown server, an unknown resource: one line, nothing sent (exit 2)", async () => {
    rig = await mcpRig({ everything }, { script: [{ text: "never" }] });
    const a = await rig.run(["-p", "see @nosuch:demo://x/y"]);
    expect(a.code).toBe(2);
    expect(a.stderr.trim().split("\n")).toEqual([
      'i -p: @nosuch:demo://x/y: no MCP server "nosuch" (configured: everything); nothing was sent',
    ]);
    const b = await rig.run(["-p", "see @everything:demo://resource/static/document/nope.md"]);
    expect(b.code).toBe(2);
    expect(b.stderr.trim().split("\n")).toHaveLength(1);
    expect(b.stderr).toContain(
      'i -p: @everything:demo://resource/static/document/nope.md: MCP server "everything" could not read it: Resource',
    );
    expect(rig.mock.requests).toHaveLength(0);
  }, 60_000);

  test("a server that is down: one line naming it, nothing sent", async () => {
    rig = await mcpRig({ gone: { command: "/nonexistent/mcp-server" } }, { script: [{ text: "never" }] });
    const r = await rig.run(["-p", "see @gone:demo://x"]);
    // The start failure is said as every run says it; the mention adds its one line, and nothing is sent.
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('i -p: @gone:demo://x: MCP server "gone" is not available:');
    expect(rig.mock.requests).toHaveLength(0);
  }, 60_000);
});
