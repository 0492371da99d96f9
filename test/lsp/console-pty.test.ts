// The console as a person uses it with a language server: an edit that breaks the types shows one line
// under it ("⚠ 1 error in a.fk"), a clean one none; /lsp lists the servers and their state.
import { expect, test } from "bun:test";
import { liveConsole, PTY_TEST_MS, send } from "../console/console-pty.ts";
import { fakeConfig, PATH_WITH_SERVERS } from "./rig.ts";

const live = liveConsole();

test(
  "an edit's errors are one line under it; /lsp lists the servers",
  async () => {
    const p = await live.start(
      [
        { tool_calls: [{ name: "write", arguments: { path: "a.fk", content: "bad\nmeh\nbad\n" } }] },
        { text: "wrote it" },
        { tool_calls: [{ name: "write", arguments: { path: "b.fk", content: "fine\n" } }] },
        { text: "wrote the clean one" },
      ],
      {
        args: ["--approve", "all"],
        cols: 100,
        rows: 40,
        env: { PATH: PATH_WITH_SERVERS },
        configFiles: { "lsp.json": JSON.stringify(fakeConfig("ok")) },
      },
    );
    await send(p, "write a");
    await p.waitFor("wrote it");
    await p.waitFor("⚠ 2 errors, 1 warning in a.fk");
    await send(p, "write b");
    await p.waitFor("wrote the clean one");
    expect((await p.screen()).match(/⚠/g)?.length).toBe(1);
    await send(p, "/lsp");
    await p.waitFor(/fake +ready +\S+ +2 +0\b/);
    await p.waitFor(/typescript +not started +- +- +-/);
  },
  PTY_TEST_MS,
);
