// Where `i` keeps its files. Both directories can be moved with environment variables.
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const v = env.I_CONFIG_DIR;
  return v ? resolve(v) : join(homedir(), ".i", "config");
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  const v = env.I_DATA_DIR;
  return v ? resolve(v) : join(homedir(), ".i", "sessions");
}
