// API keys stay in the core: a bash command the model runs cannot find them in the environment of any
// of its ancestors (/proc/PID/environ, which shows a process's initial environment) or their argv, yet
// the core still sends the key to the model server.
import { afterEach, describe, expect, test } from "bun:test";
import { makeRig, type Rig } from "../agent/rig.ts";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

// Not sk- shaped on purpose: nothing may rely on redaction of known key shapes to hide it.
const KEY = `plainkey${Math.random().toString(36).slice(2)}${Date.now()}`;
const OTHER = `anthkey${Math.random().toString(36).slice(2)}`;
// Every ancestor from the shell up to pid 1: its environment and its command line, NUL-separated.
const WALK = [
  'p=$$; while [ "$p" -gt 1 ]; do',
  'echo "== $p"; tr "\\0" "\\n" < /proc/$p/environ; tr "\\0" " " < /proc/$p/cmdline; echo;',
  "p=$(awk '{print $4}' /proc/$p/stat); done; echo walked-to-init",
].join(" ");

describe.skipIf(process.platform !== "linux")("credentials out of /proc", () => {
  // In place (the environment's strings blanked through /proc/self/mem), and the fallback for kernels
  // that refuse that write (a fresh image of `i` without them, the keys through a pipe).
  for (const via of ["in-place", "exec"] as const)
    test(`${via}: a bash tool call walking /proc/$PPID/environ and every ancestor finds no key`, async () => {
      rig = await makeRig({
        script: [{ tool_calls: [{ name: "bash", arguments: { command: WALK } }] }, { text: "done" }],
      });
      const r = await rig.run(["-p", "look around", "--approve", "all"], {
        OPENAI_API_KEY: KEY,
        I_API_KEY: "",
        ANTHROPIC_API_KEY: OTHER,
        ...(via === "exec" ? { I_TEST_CREDENTIALS_VIA: "exec" } : {}),
      });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(rig.mock.requests).toHaveLength(2);
      // The key still reached the model server, from memory.
      expect(rig.mock.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
      const toolResult = JSON.stringify(rig.mock.requests[1]?.body);
      expect(toolResult).toContain("walked-to-init");
      // The walk really read the core's environment (it has our config dir in it).
      expect(toolResult).toContain(`I_CONFIG_DIR=${rig.configDir}`);
      expect(toolResult).not.toContain(KEY);
      expect(toolResult).not.toContain(OTHER);
      expect(toolResult).not.toContain("OPENAI_API_KEY");
    }, 30_000);
});
