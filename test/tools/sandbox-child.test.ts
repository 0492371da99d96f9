// A sub-agent's sandbox is the parent's, with the session's folders still readable: a child task whose
// data directory lies under /tmp (covered by the sandbox's private /tmp) reads back, from bash, the saved
// output its own bash result names.
import { afterEach, expect, test } from "bun:test";
import { parseSandbox, sandboxAvailability, sandboxForChild } from "../../src/tools/sandbox.ts";
import { makeRig, type Rig } from "../agent/rig.ts";
import type { RecordedRequest } from "../fixtures/mock-server/script.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const runs = !("problem" in sandboxAvailability());
const body = (req: RecordedRequest) => JSON.stringify(req.body);
const toolResults = (req: RecordedRequest) => body(req).split('"role":"tool"').length - 1;
const SAVED = /\/[^\s"\\]*\/bash-[^\s"\\]*\.txt/;

test.skipIf(!runs)("the spec a child receives carries the folders commands may read", () => {
  const spec = parseSandbox("workspace-write,network", ["/cfg"], ["/tmp/data"]);
  expect(spec?.readable).toEqual(["/tmp/data"]);
  const wire = sandboxForChild(spec as NonNullable<typeof spec>);
  expect(wire).toEqual({ sandbox: "workspace-write,network", sandbox_readable: ["/tmp/data"] });
  expect(parseSandbox(wire.sandbox, ["/cfg"], wire.sandbox_readable)).toEqual(spec);
});

test.skipIf(!runs)(
  "a child task's bash reads its own saved output under a /tmp data directory",
  async () => {
    rig = await makeRig({
      script: (req) => {
        if (!body(req).includes("Your role: the")) {
          return toolResults(req) === 0
            ? { tool_calls: [{ name: "task", arguments: { description: "d", prompt: "p" } }] }
            : { text: "parent done" };
        }
        const n = toolResults(req);
        if (n === 0) return { tool_calls: [{ name: "bash", arguments: { command: "seq 1 300000" } }] };
        const path = body(req).match(SAVED)?.[0];
        if (n === 1 && path)
          return {
            tool_calls: [{ name: "bash", arguments: { command: `echo "lines=$(wc -l < ${path})"` } }],
          };
        return { text: "child done" };
      },
    });
    expect(rig.dataDir.startsWith("/tmp/")).toBe(true);
    const r = await rig.run(["-p", "delegate", "--approve", "all"]);
    expect(r.code).toBe(0);
    const child = rig.mock.requests.filter((q) => body(q).includes("Your role: the"));
    expect(
      child.some((q) =>
        body(q)
          .match(SAVED)?.[0]
          .startsWith(rig?.dataDir ?? "?"),
      ),
    ).toBe(true);
    // The count comes back from inside the sandbox: the file was there to read.
    expect(child.some((q) => body(q).includes("lines=300000"))).toBe(true);
  },
  60_000,
);
