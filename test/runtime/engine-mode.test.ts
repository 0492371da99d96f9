import { describe, expect, test } from "bun:test";
import { ENGINE_VARS, engineModeForChild } from "../../src/lib/engine-mode-env.ts";
import { engineRestartEnv, MINI_VM_VAR } from "../../src/runtime/engine-mode.ts";

describe("engineRestartEnv: when the compiled core re-executes itself in mini VM mode", () => {
  test("a compiled session restarts once, with the variable and the mark added and the rest kept", () => {
    const env = engineRestartEnv({ PATH: "/bin", HOME: "/h" }, { compiled: true, childless: false });
    expect(env).toEqual({ PATH: "/bin", HOME: "/h", ...ENGINE_VARS, I_ENGINE_MODE_SET: "1" });
    expect(ENGINE_VARS[MINI_VM_VAR]).toBe("1");
    // The restarted image sees the mark and does not restart again.
    expect(engineRestartEnv(env ?? {}, { compiled: true, childless: false })).toBeUndefined();
  });

  test("never from source, never for a childless command (`--version`), never over the user's own setting", () => {
    expect(engineRestartEnv({}, { compiled: false, childless: false })).toBeUndefined();
    expect(engineRestartEnv({}, { compiled: true, childless: true })).toBeUndefined();
    expect(engineRestartEnv({ [MINI_VM_VAR]: "0" }, { compiled: true, childless: false })).toBeUndefined();
  });
});

describe("engineModeForChild: a task's child session starts in the mode instead of re-executing", () => {
  test("a process in mini VM mode hands its child the mode and the mark; the child then keeps its image", () => {
    const handed = engineModeForChild({ [MINI_VM_VAR]: "1", PATH: "/bin" });
    expect(handed).toEqual({ ...ENGINE_VARS, I_ENGINE_MODE_SET: "1" });
    expect(
      engineRestartEnv({ PATH: "/bin", ...handed }, { compiled: true, childless: false }),
    ).toBeUndefined();
  });

  test("a process in the default mode hands nothing", () => {
    expect(engineModeForChild({ PATH: "/bin" })).toEqual({});
    expect(engineModeForChild({ [MINI_VM_VAR]: "0" })).toEqual({});
  });
});
