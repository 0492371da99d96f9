import { describe, expect, test } from "bun:test";
import { ENGINE_VARS, engineModeForChild } from "../../src/lib/engine-mode-env.ts";
import { engineRestartEnv, longLived, MINI_VM_VAR } from "../../src/runtime/engine-mode.ts";

describe("engineRestartEnv: when the compiled core re-executes itself in mini VM mode", () => {
  test("a compiled session restarts once, with the variable and the mark added and the rest kept", () => {
    const env = engineRestartEnv({ PATH: "/bin", HOME: "/h" }, { compiled: true, longLived: true });
    expect(env).toEqual({ PATH: "/bin", HOME: "/h", ...ENGINE_VARS, I_ENGINE_MODE_SET: "1" });
    expect(ENGINE_VARS[MINI_VM_VAR]).toBe("1");
    // The restarted image sees the mark and does not restart again.
    expect(engineRestartEnv(env ?? {}, { compiled: true, longLived: true })).toBeUndefined();
  });

  test("never from source, never for a short-lived command (`--version`, -p), never over the user's own setting", () => {
    expect(engineRestartEnv({}, { compiled: false, longLived: true })).toBeUndefined();
    expect(engineRestartEnv({}, { compiled: true, longLived: false })).toBeUndefined();
    expect(engineRestartEnv({ [MINI_VM_VAR]: "0" }, { compiled: true, longLived: true })).toBeUndefined();
  });
});

describe("longLived: the sessions that run in the mode", () => {
  const sub = (name: string) => ["doctor", "compact", "acp", "worker", "--version", "--help"].includes(name);
  test("the console and i acp", () => {
    expect(longLived([], sub)).toBe(true);
    expect(longLived(["fix the build"], sub)).toBe(true);
    expect(longLived(["-r"], sub)).toBe(true);
    expect(longLived(["--workspace", "/w", "run"], sub)).toBe(true);
    expect(longLived(["acp"], sub)).toBe(true);
  });
  test("not a print run, a one-shot subcommand or --version", () => {
    expect(longLived(["-p", "hi"], sub)).toBe(false);
    expect(longLived(["run", "--print", "hi"], sub)).toBe(false);
    expect(longLived(["--print=hi"], sub)).toBe(false);
    expect(longLived(["--approve", "all", "-p", "hi"], sub)).toBe(false);
    for (const c of ["doctor", "compact", "worker", "--version", "--help"])
      expect(longLived([c], sub)).toBe(false);
  });
});

describe("engineModeForChild: a task's child session starts in the mode instead of re-executing", () => {
  test("a process in mini VM mode hands its child the mode and the mark; the child then keeps its image", () => {
    const handed = engineModeForChild({ [MINI_VM_VAR]: "1", PATH: "/bin" });
    expect(handed).toEqual({ ...ENGINE_VARS, I_ENGINE_MODE_SET: "1" });
    expect(
      engineRestartEnv({ PATH: "/bin", ...handed }, { compiled: true, longLived: true }),
    ).toBeUndefined();
  });

  test("a process in the default mode hands nothing", () => {
    expect(engineModeForChild({ PATH: "/bin" })).toEqual({});
    expect(engineModeForChild({ [MINI_VM_VAR]: "0" })).toEqual({});
  });
});
