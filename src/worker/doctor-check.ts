// What `i doctor` checks for each module of a manifest: its worker starts, passes the handshake (declarations
// match the registry), and answers an event it does not handle with the data unchanged.
import { randomUUID } from "node:crypto";
import { errorMessage } from "../contract/errors.ts";
import type { Manifest } from "../contract/manifest.ts";
import type { ModuleName } from "../contract/registry.ts";
import { jsonEqual } from "../lib/json-equal.ts";
import { WorkerError } from "./errors.ts";
import type { WorkerHost } from "./host.ts";

/** No module handles this event, so every worker must return its data untouched. */
export const PING_EVENT = "doctor_ping";

export interface ModuleCheck {
  module: ModuleName;
  builtin: boolean;
  exec: string[];
  ok: boolean;
  /** why it failed */
  problem?: string;
  /** time to start the process and pass the handshake (shared by the modules of one process) */
  startMs?: number;
  /** one round trip of the ping event */
  roundTripMs?: number;
}

function describe(err: unknown): string {
  return err instanceof WorkerError ? err.detail : errorMessage(err);
}

function newRow(m: Manifest["modules"][number]): ModuleCheck {
  return { module: m.name, builtin: m.builtin, exec: m.exec, ok: false };
}

async function startModule(host: WorkerHost, row: ModuleCheck): Promise<boolean> {
  const t0 = performance.now();
  try {
    await host.start([row.module]);
    row.startMs = performance.now() - t0;
    return true;
  } catch (err) {
    row.problem = describe(err);
    return false;
  }
}

async function ping(host: WorkerHost, row: ModuleCheck): Promise<void> {
  const data = { doctor: "ping", nonce: randomUUID(), nested: { list: [1, "two", null], ok: true } };
  const t0 = performance.now();
  try {
    const reply = await host.send(row.module, PING_EVENT, data);
    row.roundTripMs = performance.now() - t0;
    if (jsonEqual(reply, data)) row.ok = true;
    else
      row.problem = `the worker changed the data of "${PING_EVENT}", an event it does not handle; such events must come back unchanged`;
  } catch (err) {
    row.problem = describe(err);
  }
}

/**
 * Check every module of the manifest: start all workers at once (modules sharing a process start it once),
 * then ping each module in turn so one round trip is timed alone.
 */
export async function checkWorkers(manifest: Manifest, host: WorkerHost): Promise<ModuleCheck[]> {
  const rows = manifest.modules.map(newRow);
  const started = await Promise.all(rows.map((row) => startModule(host, row)));
  for (const [i, row] of rows.entries()) if (started[i]) await ping(host, row);
  return rows;
}
