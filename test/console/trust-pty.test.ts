// The console's question about a project's own files, as a person meets it: the servers (with their
// commands), hooks and agents are listed at start and one key answers. y starts the project's MCP server
// and is remembered (the next console asks nothing); n goes on without it, in one line; a changed file
// is asked about again. Untrusted text is shown cleaned.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { flat, type Pty } from "../helpers/pty.ts";
import { everything, toolResults } from "../mcp/rig.ts";
import { liveConsole, PTY_TEST_MS } from "./console-pty.ts";

const live = liveConsole();

const echo = (message: string) => ({
  tool_calls: [{ name: "mcp__proj__echo", arguments: { message } }],
});

/** The project's .mcp.json: the everything server, run with `extraArgs`. */
function project(extraArgs: string[] = []): string {
  const server = { ...everything, args: [...everything.args, ...extraArgs], auto_approve: ["echo"] };
  return JSON.stringify({ mcpServers: { proj: server } });
}

const ARGS = ["--approve", "ask"];
const SIZE = { cols: 120, rows: 40 };

async function quit(p: Pty): Promise<void> {
  await p.type("/exit");
  await p.press("Enter");
  await p.waitExit();
  await p.close();
  live.pty = undefined;
}

test(
  "y starts the project's server and is remembered; a changed file asks again; n goes on without it",
  async () => {
    const { rig, pty } = await live.open(
      [echo("trusted"), { text: "first done" }, echo("declined"), { text: "second done" }],
      { files: { ".mcp.json": project() }, args: ARGS, ...SIZE, ready: "trust them for this workspace?" },
    );
    let p = pty;
    const asked = flat(await p.waitFor("trust them for this workspace?"));
    expect(asked).toContain("? this project has its own files that run programs:");
    expect(asked).toContain(".mcp.json (not accepted yet):");
    expect(asked).toMatch(/mcp server proj: \S+ \S+server-everything\/dist\/index\.js stdio/);
    await p.type("y");
    await p.waitFor("trusted: they apply from now on");
    await p.waitFor("Ctrl-C cancels");
    await p.type("echo it");
    await p.press("Enter");
    await p.waitFor("first done");
    expect(toolResults(rig).at(-1)).toBe("Echo: trusted");
    await quit(p);

    // Remembered: the next console asks nothing.
    p = await live.reopen(ARGS, SIZE);
    const again = await p.waitFor("Ctrl-C cancels");
    expect(again).not.toContain("trust them for this workspace?");
    await quit(p);

    // Changed (with a control sequence in it): asked again, the text cleaned; n goes on without it.
    writeFileSync(join(rig.workspace, ".mcp.json"), project(["\u001b[31mred"]));
    p = await live.reopen(ARGS, SIZE);
    const changed = await p.waitFor("trust them for this workspace?");
    expect(flat(changed)).toContain(".mcp.json (changed since it was accepted):");
    expect(flat(changed)).toContain("stdio \\e[31mred");
    await p.type("n");
    const declined = await p.waitFor("Ctrl-C cancels");
    expect(declined).toContain("not trusted: this session goes on without them (/trust accepts them later)");
    // Said in one line: not the print-mode refusal on top of it.
    expect(declined).not.toContain("ignored, this project's file");
    await p.type("echo again");
    await p.press("Enter");
    await p.waitFor("second done");
    expect(toolResults(rig).at(-1)).toContain('unknown tool "mcp__proj__echo"');
  },
  PTY_TEST_MS,
);
