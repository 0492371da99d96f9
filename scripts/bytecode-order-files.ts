// Where the bytecode order files live (written by scripts/bytecode-order.ts, read by scripts/build.ts).
import { join } from "node:path";

export const ORDER_DIR = join(import.meta.dirname, "bytecode-order");
/**
 * Most important first: the core's order decides where the functions both processes run go; `i acp`'s
 * own (the ACP SDK, src/acp) follow, so an editor's session maps few pages of them too.
 */
export const ORDER_FILES = ["core.txt", "worker.txt", "acp.txt"].map((f) => join(ORDER_DIR, f));
