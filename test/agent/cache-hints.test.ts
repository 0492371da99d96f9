// The built-in cache module's breakpoints reach Anthropic requests through before_request; for wire
// formats it does not act on the core does not ask it at all (no round trip), and the request is the same.
import { afterEach, expect, test } from "bun:test";
import { makeRig, type Rig } from "./rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const script = [{ tool_calls: [{ name: "bash", arguments: { command: "echo one" } }] }, { text: "done" }];

/** How many cache breakpoints a request body marks. */
function cacheBreakpointsIn(body: unknown): number {
  return (JSON.stringify(body).match(/"cache_control"/g) ?? []).length;
}

test("anthropic: the second request carries cache breakpoints from the cache module", async () => {
  rig = await makeRig({ script, provider: "anthropic", profile: "standard" });
  const r = await rig.run(["-p", "go", "--approve", "all"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(rig.mock.requests).toHaveLength(2);
  // system + the end of the user turn (+ the tool result turn on the second request)
  expect(cacheBreakpointsIn(rig.mock.requests[0]?.body)).toBeGreaterThanOrEqual(2);
  expect(cacheBreakpointsIn(rig.mock.requests[1]?.body)).toBeGreaterThanOrEqual(3);
});

// That the built-in is not asked for openai is beforeRequestWanted's decision (test/contract/registry.test.ts).
test("openai: no breakpoints, and the run is unchanged without the before_request round trip", async () => {
  rig = await makeRig({ script, provider: "openai", profile: "standard" });
  const r = await rig.run(["-p", "go", "--approve", "all"]);
  expect(r.code).toBe(0);
  expect(r.stdout.trim()).toBe("done");
  expect(rig.mock.requests).toHaveLength(2);
  expect(cacheBreakpointsIn(rig.mock.requests[1]?.body)).toBe(0);
});
