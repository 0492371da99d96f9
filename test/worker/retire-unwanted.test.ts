// A built-in module with a process of its own, started for a request its hello then says it does not want
// (the lsp module, started by the first read, with no server for that file), is let go at once: a session
// it serves nothing keeps no idle worker. Such requests are left out from then on; one it wants starts it
// again, and that process stays.
import { afterAll, afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ObservedHost } from "../helpers/observed-host.ts";
import { fakeConfig } from "../lsp/rig.ts";
import { manifestOf, TempDirs } from "./helpers.ts";

const temp = new TempDirs();
let host: ObservedHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});
afterAll(() => temp.cleanup());

function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await Bun.sleep(20)) if (!running(pid)) return true;
  return false;
}

const read = (file: string) => ({ tool_name: "read", changed: [], touched: [file] });

test.skipIf(process.platform !== "linux")(
  "the lsp worker started by a read no server takes is let go; a file a server takes starts it again",
  async () => {
    const dir = temp.make();
    // One server, for .fk files only: whatever else PATH holds, a .txt file is no server's.
    writeFileSync(join(dir, "lsp.json"), JSON.stringify(fakeConfig("ok")));
    host = new ObservedHost(manifestOf(["lsp"], dir), { workspace: dir, configDir: dir });
    await host.runHook("files_changed", read(join(dir, "notes.txt")));
    const first = host.lastPidOf("lsp");
    expect(first).toBeNumber();
    expect(await goneWithin(first as number, 3000)).toBe(true);
    expect(host.pidOf("lsp")).toBeUndefined();

    // Known now: another such read reaches no process and starts none.
    await host.runHook("files_changed", read(join(dir, "more.txt")));
    expect(host.spawned).toBe(1);
    expect(host.wantsHook("files_changed", "read")).toBe(true);

    // A file the server takes: a fresh process, which stays.
    writeFileSync(join(dir, "a.fk"), "x\n");
    await host.runHook("files_changed", read(join(dir, "a.fk")));
    expect(host.spawned).toBe(2);
    const second = host.pidOf("lsp");
    expect(second).toBeNumber();
    await Bun.sleep(400);
    expect(running(second as number)).toBe(true);
  },
  30_000,
);
