// Reading the project-trust store and fingerprinting a project's files: shared by the core (which asks the
// user and records the answer) and by workers that load a project's files themselves (they check that what
// they read is what was accepted, so a file changed after the check is not trusted by accident).
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { TRUST_FILE, TrustFile } from "../contract/trust.ts";
import { readJson } from "./json-file.ts";
import { RefusedFile, readRegularBytes } from "./regular-file.ts";

/** A project file (or directory) larger than this is never fingerprinted: it is refused as untrusted. */
const MAX_FINGERPRINT_BYTES = 4 * 1024 * 1024;
const MAX_DIR_ENTRIES = 2000;

export type TrustState = "absent" | "trusted" | "untrusted" | "changed";

export interface ProjectFileTrust {
  /** the path as given, relative to the workspace (forward slashes) */
  file: string;
  /** absolute path */
  path: string;
  state: TrustState;
  /** what the content is now (absent: the file does not exist or cannot be fingerprinted) */
  sha256?: string;
  /** why it cannot be fingerprinted (a FIFO, a device, too large): it can never be trusted as it is */
  problem?: string;
}

/** The key a workspace is remembered under: its real path, so a symlinked checkout is the same workspace. */
export function workspaceKey(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return resolve(workspace);
  }
}

/** A file's bytes as `i` reads them (through links, regular files only, capped); throws when refused. */
function readCounted(path: string, budget: { bytes: number }): Buffer {
  const data = readRegularBytes(path, MAX_FINGERPRINT_BYTES - budget.bytes, "a project file");
  if (data === undefined) throw new Error("gone");
  budget.bytes += data.length;
  return data;
}

function collect(dir: string, rel: string, out: [string, Buffer][], budget: { bytes: number }): void {
  const names = readdirSync(join(dir, rel)).sort();
  for (const name of names) {
    const r = rel ? `${rel}/${name}` : name;
    const p = join(dir, r);
    const st = lstatSync(p);
    if (out.length >= MAX_DIR_ENTRIES) throw new Error("too many files");
    if (st.isSymbolicLink()) {
      // A link is fingerprinted by where it points and, for a file, by the content read through it: what
      // the loader uses. A linked directory is not entered (following it could loop); its loaders do not
      // read below it either.
      out.push([`${r}@`, Buffer.from(readlinkText(p))]);
      if (isFileThrough(p)) out.push([r, readCounted(p, budget)]);
    } else if (st.isDirectory()) collect(dir, r, out, budget);
    else if (st.isFile()) out.push([r, readCounted(p, budget)]);
  }
}

function isFileThrough(p: string): boolean {
  try {
    return !statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function readlinkText(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return "(dangling)";
  }
}

/**
 * sha256 of a file's bytes, or of a directory's sorted listing with every file's bytes; undefined when it
 * does not exist or cannot be a config (too large, a FIFO, a device: then it cannot be trusted either).
 */
export function fingerprint(path: string): string | undefined {
  return fingerprintOrWhy(path).sha256;
}

/** The fingerprint, or the one line saying why there is none (undefined both: the file does not exist). */
export function fingerprintOrWhy(path: string): { sha256?: string; problem?: string } {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    return {};
  }
  const hash = createHash("sha256");
  try {
    if (st.isDirectory()) {
      const entries: [string, Buffer][] = [];
      collect(path, "", entries, { bytes: 0 });
      hash.update("dir\n");
      for (const [name, bytes] of entries) {
        hash.update(`${name}\0${bytes.length}\0`);
        hash.update(bytes);
      }
    } else {
      const data = readRegularBytes(path, MAX_FINGERPRINT_BYTES, "a project file");
      if (data === undefined) return { problem: `${path}: a link to nothing` };
      hash.update(data);
    }
  } catch (err) {
    if (err instanceof RefusedFile) return { problem: err.message };
    return { problem: `${path}: cannot be read (${(err as Error).message})` };
  }
  return { sha256: hash.digest("hex") };
}

/** The trust store as recorded (empty when absent or unreadable: nothing is trusted then). */
export function readTrustStore(configDir: string): TrustFile {
  try {
    const parsed = TrustFile.safeParse(readJson(join(configDir, TRUST_FILE)));
    if (parsed.success) return parsed.data;
  } catch {
    // malformed: nothing is trusted; the core reports the file when it writes or in `i doctor`
  }
  return { workspaces: {} };
}

/** Where each of `files` (relative to the workspace) stands: absent, trusted, never accepted, or changed. */
export function projectTrust(
  configDir: string,
  workspace: string,
  files: readonly string[],
  store: TrustFile = readTrustStore(configDir),
): ProjectFileTrust[] {
  const key = workspaceKey(workspace);
  const accepted = store.workspaces[key]?.files ?? {};
  return files.map((file) => {
    const path = join(key, file);
    const { sha256, problem } = fingerprintOrWhy(path);
    const exists = sha256 !== undefined || problem !== undefined || existsAny(path);
    if (!exists) return { file, path, state: "absent" };
    const known = accepted[file]?.sha256;
    const state: TrustState =
      sha256 !== undefined && known === sha256 ? "trusted" : known ? "changed" : "untrusted";
    return { file, path, state, ...(sha256 ? { sha256 } : {}), ...(problem ? { problem } : {}) };
  });
}

function existsAny(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** True when `file` exists and its current content is what the user accepted for this workspace. */
export function isTrusted(configDir: string, workspace: string, file: string): boolean {
  return projectTrust(configDir, workspace, [file])[0]?.state === "trusted";
}

/**
 * True when `content`, the bytes a worker just read from `file`, is exactly what the user accepted for this
 * workspace: checking the bytes used, not the file again, leaves no window for a change in between.
 */
export function isTrustedContent(
  configDir: string,
  workspace: string,
  file: string,
  content: string | Uint8Array,
): boolean {
  const known = readTrustStore(configDir).workspaces[workspaceKey(workspace)]?.files[file]?.sha256;
  return known !== undefined && createHash("sha256").update(content).digest("hex") === known;
}
