// Whether the console must set the user up before it can start: no model chosen anywhere, or no key for the
// chosen provider. Only in a terminal (a person can answer); a pipe or CI keeps the one-line error, as
// does every other configuration problem (a broken config.json is the user's to fix, not to overwrite).
import { type RunFlags, resolveTarget } from "../../agent/options.ts";
import { loadConfigFile } from "../../config/load.ts";
import { configDir } from "../../config/paths.ts";
import { UserError } from "../../contract/errors.ts";
import { locateApiKey } from "../../provider/credentials.ts";
import { NOT_LOGGED_IN_PHRASE } from "../../provider/error-phrases.ts";
import { credentialEnv } from "../../runtime/credential-handoff.ts";
import { terminalIo } from "./ask.ts";
import { runSetup } from "./first-run.ts";

const NEEDS_SETUP = new RegExp(`^(${NOT_LOGGED_IN_PHRASE}: )?no (model chosen|API key)`);

/** The reason a run cannot start for want of setup, or undefined when it can (or fails for another reason). */
export function setupReason(flags: RunFlags, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = configDir(env);
  let config: ReturnType<typeof loadConfigFile>;
  try {
    config = loadConfigFile(dir);
  } catch {
    return undefined; // reported as it is by the run itself
  }
  try {
    const target = resolveTarget(flags, config, env);
    locateApiKey(target.provider, dir, { ...env, ...credentialEnv() }, target.baseUrl, config);
    return undefined;
  } catch (err) {
    // A cloud's missing credentials are not the setup's to make (`aws configure`, `gcloud auth`): those
    // keep their one line.
    if (err instanceof UserError && NEEDS_SETUP.test(err.message)) return err.message;
    return undefined;
  }
}

/** Before the console: in a terminal, run the setup when nothing is configured yet. */
export async function setUpIfNeeded(flags: RunFlags, resuming: boolean): Promise<void> {
  if (resuming || !process.stdin.isTTY || !process.stdout.isTTY) return;
  if (setupReason(flags) === undefined) return;
  const dir = configDir();
  const io = terminalIo();
  let written: string[];
  try {
    written = await runSetup(io, dir);
  } finally {
    io.close();
  }
  process.stdout.write(`saved ${written.join(" and ")}; change it later with \`i auth login\`\n\n`);
}
