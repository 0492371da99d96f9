// kill -9 of `i` leaves no language server: the lsp worker sees its input close, and it and every server
// (typescript-language-server and the tsserver it started) go with it.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Rig } from "../agent/rig.ts";
import { alive, descendants, lspRig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
};

async function until(what: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (what()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return what();
}

test.skipIf(process.platform !== "linux")(
  "kill -9 of i leaves no language server behind",
  async () => {
    rig = await lspRig({
      files: { "tsconfig.json": "{}", "a.ts": "export const n = 1;\n" },
      script: [
        { tool_calls: [{ name: "read", arguments: { path: "a.ts" } }] },
        { text: "thinking a long time", delay_ms: 60_000 },
      ],
    });
    const cli = rig.start(["-p", "go", "--approve", "all"]);
    const pid = cli.child.pid as number;
    let tree: number[] = [];
    const serversUp = await until(() => {
      tree = descendants(pid);
      return tree.some((p) => cmdline(p).includes("tsserver"));
    }, 30_000);
    expect(serversUp).toBe(true);
    expect(tree.some((p) => cmdline(p).includes("typescript-language-server"))).toBe(true);
    process.kill(pid, "SIGKILL");
    await cli.done;
    const gone = await until(() => tree.every((p) => !alive(p)), 10_000);
    expect(tree.filter(alive).map(cmdline)).toEqual([]);
    expect(gone).toBe(true);
  },
  60_000,
);
