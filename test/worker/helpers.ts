// Shared test helpers: temp config dirs, fixture paths and manifests built the way the CLI builds them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BindingsFile } from "../../src/contract/config.ts";
import type { Manifest } from "../../src/contract/manifest.ts";
import { MODULE_NAMES, type ModuleName } from "../../src/contract/registry.ts";
import { generateManifest } from "../../src/manifest/generate.ts";

export const ROOT = resolve(import.meta.dirname, "..", "..");
export const BUN = process.execPath;
export const MAIN = join(ROOT, "src", "cli", "main.ts");
export const FIXTURES = join(ROOT, "test", "fixtures", "workers");
export const ECHO = join(FIXTURES, "echo-worker.ts");
export const MISBEHAVE = join(FIXTURES, "misbehave.ts");
export const PY_CACHE = join(FIXTURES, "cache_worker.py");

/** Temp dirs removed by `cleanup()` (call it in afterAll/afterEach). */
export class TempDirs {
  private dirs: string[] = [];
  make(prefix = "i-worker-test-"): string {
    const d = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(d);
    return d;
  }
  cleanup(): void {
    for (const d of this.dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}

/**
 * The manifest of exactly `modules` (pipeline order from the registry), with `bindings` applied; built-in
 * modules run `self worker …` — by default the real `i` (bun + src/cli/main.ts).
 */
export function manifestOf(
  modules: ModuleName[],
  configDir: string,
  bindings: BindingsFile = {},
  self: string[] = [BUN, MAIN],
): Manifest {
  return generateManifest({
    profile: "full",
    configDir,
    plugins: { disabled: MODULE_NAMES.filter((m) => !modules.includes(m)) },
    bindings,
    self,
  });
}

/** A binding to the misbehaving fixture. */
export function misbehaving(module: ModuleName, mode: string, count?: string) {
  return { exec: [BUN, MISBEHAVE, "--module", module, "--mode", mode, ...(count ? ["--count", count] : [])] };
}

/** True while a process with this pid exists (a zombie counts as existing, so this also proves reaping). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A valid `budget` result: the host checks every budget reply against the hook's reply schema, so
 * pass-through test workers (echo, misbehave) are sent data that already carries one.
 */
export const BUDGET_REPLY = {
  budget: {
    estimator: { id: "test", version: 1 },
    estimates: { total: 1 },
    hard_limit: 100,
    recommendation: "none",
  },
} as const;
