// A server's environment: the worker's own small allow-list (no credentials ever reach a worker) plus the
// server's configured `env`. Variables the core passed only so `${VAR}` can expand are not inherited.

const INHERITED = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TERM",
  "TMPDIR",
  "TEMP",
  "TMP",
  "SYSTEMROOT",
  "WINDIR",
  "I_WORKSPACE",
];

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
