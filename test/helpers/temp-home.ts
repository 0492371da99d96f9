// A throwaway HOME for each test of a file, holding the config dir (created empty), the data dir (left for
// the run to create) and, when asked, a workspace; removed after the test with the mock server it started.
import { afterEach, beforeEach } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { MockServer } from "../fixtures/mock-server/index.ts";
import { removeDir, tempDir } from "./cli.ts";

export interface TempHome {
  /** HOME of the run */
  root: string;
  /** I_CONFIG_DIR: root/cfg */
  cfg: string;
  /** I_DATA_DIR: root/data */
  data: string;
  /** the run's working directory: root/ws (made only when asked for) */
  ws: string;
  /** a mock server the test started, closed after it */
  mock: MockServer | undefined;
}

/** Registers the per-test setup and cleanup; the fields are the current test's. */
export function useTempHome(prefix: string, opts: { workspace?: boolean } = {}): TempHome {
  const home: TempHome = { root: "", cfg: "", data: "", ws: "", mock: undefined };
  beforeEach(() => {
    home.root = tempDir(prefix);
    home.cfg = join(home.root, "cfg");
    home.data = join(home.root, "data");
    home.ws = join(home.root, "ws");
    mkdirSync(home.cfg);
    if (opts.workspace) mkdirSync(home.ws);
  });
  afterEach(async () => {
    await home.mock?.close();
    home.mock = undefined;
    removeDir(home.root);
  });
  return home;
}

/** A run that reads only `home`: no key, model, provider or endpoint from the machine's own variables. */
export function homeEnv(home: TempHome, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: home.root,
    I_CONFIG_DIR: home.cfg,
    I_DATA_DIR: home.data,
    I_API_KEY: "",
    OPENAI_API_KEY: "",
    ANTHROPIC_API_KEY: "",
    I_MODEL: "",
    I_PROVIDER: "",
    I_BASE_URL: "",
    ...extra,
  };
}
