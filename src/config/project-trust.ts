// Project trust: a workspace's own config files (.mcp.json, .i/hooks.json, .i/agents/) can start programs,
// so they are untrusted until the user accepts them once for this workspace; the acceptance is remembered
// in config_dir/trust.json with a fingerprint of the content, and a changed file is untrusted again.
// Any caller passes its own list of files; the console asks, print mode refuses with projectTrustRefusal.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../contract/errors.ts";
import { TRUST_FILE, TrustFile } from "../contract/trust.ts";
import { writeFileAtomic } from "../lib/atomic-write.ts";
import { readConfigJson } from "../lib/json-file.ts";
import { type ProjectFileTrust, projectTrust, readTrustStore, workspaceKey } from "../lib/trust-store.ts";

export type { ProjectFileTrust, TrustState } from "../lib/trust-store.ts";
export { isTrusted, projectTrust } from "../lib/trust-store.ts";

/** The files of `files` that exist and need the user's acceptance (never accepted, or changed since). */
export function untrustedProjectFiles(
  configDir: string,
  workspace: string,
  files: readonly string[],
): ProjectFileTrust[] {
  return projectTrust(configDir, workspace, files).filter(
    (f) => f.state === "untrusted" || f.state === "changed",
  );
}

/** The store for a write: a malformed trust.json is the user's to fix, never silently replaced. */
function storeForWrite(configDir: string): TrustFile {
  const file = join(configDir, TRUST_FILE);
  const raw = readConfigJson(file);
  if (raw === undefined) return { workspaces: {} };
  const parsed = TrustFile.safeParse(raw);
  if (!parsed.success)
    throw new UserError(`${file}: not a valid trust store; delete it (every project will be asked again)`);
  return parsed.data;
}

function save(configDir: string, store: TrustFile): void {
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  writeFileAtomic(join(configDir, TRUST_FILE), `${JSON.stringify(store, null, 2)}\n`, 0o600);
}

/**
 * Remember `accepted` for `workspace`, with the fingerprints they had when the user saw them (what
 * projectTrust returned then): a file changed since stays untrusted. Absent files are skipped.
 */
export function acceptProjectFiles(
  configDir: string,
  workspace: string,
  accepted: readonly ProjectFileTrust[],
  now = new Date(),
): void {
  const store = storeForWrite(configDir);
  const key = workspaceKey(workspace);
  const entry = store.workspaces[key] ?? { files: {} };
  for (const f of accepted)
    if (f.sha256) entry.files[f.file] = { sha256: f.sha256, accepted_at: now.toISOString() };
  store.workspaces[key] = entry;
  save(configDir, store);
}

/** Forget what was accepted for `files` of `workspace` (all of its files when `files` is absent). */
export function revokeProjectFiles(configDir: string, workspace: string, files?: readonly string[]): void {
  const store = storeForWrite(configDir);
  const key = workspaceKey(workspace);
  const entry = store.workspaces[key];
  if (!entry) return;
  if (!files) delete store.workspaces[key];
  else for (const f of files) delete entry.files[f];
  save(configDir, store);
}

/** The one line print mode says about a project file it will not use, and how to accept it. */
export function projectTrustRefusal(f: ProjectFileTrust, acceptCommand: string): string {
  // A FIFO or a device can never be accepted: the fix is the file, not an acceptance.
  if (f.problem) return `${f.problem}; this project file is ignored, the run goes on without it`;
  const why = f.state === "changed" ? "changed since it was accepted" : "not accepted yet";
  return `${f.path}: ignored, this project's file is ${why}; review it, then run \`${acceptCommand}\` (or accept it in the console)`;
}

/** Whether the store has anything for `workspace` (for `i doctor` and /status). */
export function hasTrustRecord(configDir: string, workspace: string): boolean {
  return readTrustStore(configDir).workspaces[workspaceKey(workspace)] !== undefined;
}
