// A server's environment: the worker's own small allow-list (no credentials ever reach a worker) plus the
// server's configured `env`. Variables the core passed only so `${VAR}` can expand are not inherited.
import { INHERITED_VARS, WINDOWS_VARS } from "../../src/lib/env-allow-list.ts";

/** The worker's own allow-list, plus the login and workspace variables a server may look for, when present. */
const INHERITED = [...INHERITED_VARS, ...WINDOWS_VARS, "LOGNAME", "SHELL", "I_WORKSPACE"];

export function serverEnv(
  parent: NodeJS.ProcessEnv,
  configured: Record<string, string> | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const v = parent[name];
    if (v !== undefined) env[name] = v;
  }
  return { ...env, ...configured };
}
