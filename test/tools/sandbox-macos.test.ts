// The macOS profile cannot run here (no sandbox-exec on Linux); what can be checked is its text: paths
// travel as -D parameters, never inside the profile, and the network and hidden dirs follow the spec.
import { expect, test } from "bun:test";
import { SANDBOX_EXEC, seatbeltArgv, seatbeltProfile } from "../../src/tools/sandbox-macos.ts";

test("paths are parameters, never spliced into the profile", () => {
  const ws = '/Users/me/a "quoted" (dir)';
  const argv = seatbeltArgv([ws, "/private/tmp"], ["/Users/me/.i/config"], false, ["bash", "-c", "ls"]);
  expect(argv[0]).toBe(SANDBOX_EXEC);
  const profile = argv[2] ?? "";
  expect(profile).not.toContain(ws);
  expect(argv).toContain(`WRITABLE_0=${ws}`);
  expect(argv).toContain("HIDDEN_0=/Users/me/.i/config");
  expect(argv.slice(-4)).toEqual(["--", "bash", "-c", "ls"]);
  expect(profile).toStartWith("(version 1)\n(deny default)");
  expect(profile).toContain('(subpath (param "WRITABLE_1"))');
  expect(profile).toContain('(deny file-read* (subpath (param "HIDDEN_0")))');
});

test("network only when asked for", () => {
  expect(seatbeltProfile(1, 0, true)).toContain("(allow network*)");
  expect(seatbeltProfile(1, 0, false)).not.toContain("(allow network*)\n");
  expect(seatbeltProfile(1, 0, false)).not.toContain("HIDDEN");
});
