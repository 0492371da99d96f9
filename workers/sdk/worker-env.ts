// Where a built-in worker finds its files. The host starts built-in workers with cwd = config_dir and puts
// I_CONFIG_DIR / I_DATA_DIR in their environment; the environment wins so a worker started by hand from
// another directory still finds the right files.
import { resolve } from "node:path";

export function workerConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.I_CONFIG_DIR ? resolve(env.I_CONFIG_DIR) : process.cwd();
}

/** The data directory when one is configured, otherwise config_dir (memory notes live under it). */
export function workerDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.I_DATA_DIR ? resolve(env.I_DATA_DIR) : workerConfigDir(env);
}
