import { describe, expect, test } from "bun:test";
import { ENGINE_VARS, engineModeForChild, PRINT_ENGINE_VARS } from "../../src/lib/engine-mode-env.ts";
import { engineRestartEnv, MINI_VM_VAR, sessionKind } from "../../src/runtime/engine-mode.ts";

describe("engineRestartEnv: when the compiled core re-executes itself in mini VM mode", () => {
  test("a compiled session restarts once, with the variable and the mark added and the rest kept", () => {
    const env = engineRestartEnv({ PATH: "/bin", HOME: "/h" }, { compiled: true, kind: "session" });
    expect(env).toEqual({ PATH: "/bin", HOME: "/h", ...ENGINE_VARS, I_ENGINE_MODE_SET: "1" });
    expect(ENGINE_VARS[MINI_VM_VAR]).toBe("1");
    // The restarted image sees the mark and does not restart again.
    expect(engineRestartEnv(env ?? {}, { compiled: true, kind: "session" })).toBeUndefined();
  });

  test("never from source, never for a short-lived command (`--version`, -p), never over the user's own setting", () => {
    expect(engineRestartEnv({}, { compiled: false, kind: "session" })).toBeUndefined();
    expect(engineRestartEnv({}, { compiled: true, kind: undefined })).toBeUndefined();
    expect(engineRestartEnv({ [MINI_VM_VAR]: "0" }, { compiled: true, kind: "session" })).toBeUndefined();
  });
});

describe("sessionKind: which settings a command runs with", () => {
  const sub = (name: string) => ["doctor", "compact", "acp", "worker", "--version", "--help"].includes(name);
  test("the console and i acp are sessions", () => {
    for (const args of [[], ["fix the build"], ["-r"], ["--workspace", "/w", "run"], ["acp"]])
      expect(sessionKind(args, sub)).toBe("session");
  });
  test("-p is a print run, restarted with the print settings (the heap grown by 1.8)", () => {
    for (const args of [
      ["-p", "hi"],
      ["run", "--print", "hi"],
      ["--print=hi"],
      ["--approve", "all", "-p", "hi"],
    ])
      expect(sessionKind(args, sub)).toBe("print");
    const env = engineRestartEnv({ PATH: "/bin" }, { compiled: true, kind: "print" });
    expect(env).toEqual({ PATH: "/bin", ...PRINT_ENGINE_VARS, I_ENGINE_MODE_SET: "1" });
    expect(PRINT_ENGINE_VARS.BUN_JSC_miniVMHeapGrowthFactor).toBe("1.8");
    expect(ENGINE_VARS.BUN_JSC_miniVMHeapGrowthFactor).toBeUndefined();
  });
  test("a one-shot subcommand or --version keeps its first image", () => {
    for (const c of ["doctor", "compact", "worker", "--version", "--help"])
      expect(sessionKind([c], sub)).toBeUndefined();
  });
});

describe("engineModeForChild: a task's child session starts in the mode instead of re-executing", () => {
  test("a process in mini VM mode hands its child the mode and the mark; the child then keeps its image", () => {
    const handed = engineModeForChild({ [MINI_VM_VAR]: "1", PATH: "/bin" });
    expect(handed).toEqual({ ...ENGINE_VARS, I_ENGINE_MODE_SET: "1" });
    expect(
      engineRestartEnv({ PATH: "/bin", ...handed }, { compiled: true, kind: "session" }),
    ).toBeUndefined();
  });

  test("a process in the default mode hands nothing", () => {
    expect(engineModeForChild({ PATH: "/bin" })).toEqual({});
    expect(engineModeForChild({ [MINI_VM_VAR]: "0" })).toEqual({});
  });
});
