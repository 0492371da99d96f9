// Checks before anything is installed: what the runner itself lacks for a run to work.
import { spawnSync } from "node:child_process";

/** Windows runs i's tools in bash: without one on PATH the run cannot work, said before it starts. */
export function bashMissing(platform = process.platform, env = process.env): string | undefined {
  if (platform !== "win32") return undefined;
  const r = spawnSync("bash", ["--version"], { encoding: "utf8", env });
  if (r.status === 0) return undefined;
  return 'this Windows runner has no bash on PATH, and i runs its tools in bash: install Git for Windows (it brings Git Bash; GitHub\'s windows runners have it in C:\\Program Files\\Git\\bin) and add that folder to PATH, e.g. a step `run: echo "C:\\Program Files\\Git\\bin" >> $env:GITHUB_PATH`';
}
