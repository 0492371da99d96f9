// `@SERVER:URI` in the console as a person uses it: the `@` menu offers the server's resources next to the
// files, Tab takes one, the message goes with the resource's text and one line says so — live and in the
// replay after -c; a mention that cannot be read is one line and the text stays in the input.
import { expect, test } from "bun:test";
import { liveConsole, PTY_TEST_MS } from "../console/console-pty.ts";
import { flat, type Pty } from "../helpers/pty.ts";
import { everything } from "./rig.ts";

const DOC = "demo://resource/static/document/features.md";
const live = liveConsole();

/** Wait until /mcp says the server is connected (the servers start in the background). */
async function waitConnected(p: Pty): Promise<void> {
  for (let i = 0; ; i++) {
    await p.type("/mcp");
    await p.press("Enter");
    const up = await p.waitFor(/everything +user +(connected|starting)/g, { timeoutMs: 5_000 });
    if ((up.match(/everything +user +connected/g)?.length ?? 0) > 0) return;
    if (i > 40) throw new Error("the everything server did not start");
    await new Promise((r) => setTimeout(r, 250));
  }
}

test(
  "the @ menu offers the resources; the message carries the text; one line live and in the replay",
  async () => {
    const { rig, pty: p } = await live.open([{ text: "a fine summary" }, { text: "noted" }], {
      // A file whose text names a resource: attaching the file reads no resource.
      files: { "notes.md": "see @everything:demo://resource/static/document/none.md\n" },
      configFiles: { "mcp.json": JSON.stringify({ mcpServers: { everything } }) },
      args: ["--approve", "ask"],
      cols: 120,
      rows: 40,
    });
    await waitConnected(p);
    await p.type("summarise @everything:demo://resource/static/document/fea");
    await p.waitFor(/everything:demo:\/\/resource\/static\/document\/features\.md\s+features\.md/);
    await p.press("Tab");
    await p.type("please");
    await p.press("Enter");
    await p.waitFor(`attached @everything:${DOC} (`);
    await p.waitFor("a fine summary");
    const body = rig.mock.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    const user = body.messages.filter((m) => m.role === "user").at(-1);
    expect(String(user?.content)).toContain(`<resource uri="everything:${DOC}">`);
    expect(String(user?.content)).toContain("</resource>");
    // Not readable: one line, nothing sent, the text back in the input.
    await p.type("and @everything:demo://resource/static/document/none.md");
    await p.press("Enter");
    const failed = flat(await p.waitFor("; not sent"));
    expect(failed).toContain(
      `✗ @everything:demo://resource/static/document/none.md: MCP server "everything" could not read it: Resource demo://resource/static/document/none.md not found; not sent`,
    );
    expect(rig.mock.requests).toHaveLength(1);
    await p.waitFor(/› and @everything:demo:\/\/resource\/static\/document\/none\.md/);
    await p.press("C-u");
    await p.type("and @notes.md");
    await p.press("Enter");
    await p.waitFor("attached @notes.md (");
    await p.waitFor("noted");
    expect(rig.mock.requests).toHaveLength(2);
    await p.type("/exit");
    await p.press("Enter");
    await p.waitExit();
    await p.close();
    live.pty = await live.reopen(["-c"], { cols: 120, rows: 40 });
    const replayed = await live.pty.waitFor("resumed: the conversation continues here");
    expect(replayed).toContain(`summarise @everything:${DOC} please`);
    expect(replayed).toContain(`attached @everything:${DOC}`);
    expect(replayed).not.toContain("</resource>");
  },
  PTY_TEST_MS,
);
