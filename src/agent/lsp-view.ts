// `/lsp`: the language servers of this session as the lsp module reports them (its `files_changed` hook
// asked for `status`): every definition, found or not, and each server process with its state.
import { errorMessage } from "../contract/errors.ts";
import type { LspServerStatus } from "../contract/lsp.ts";
import type { HookRunner } from "../worker/types.ts";

export interface LspView {
  servers: LspServerStatus[];
  /** why there is nothing to list */
  why?: string;
}

export async function lspView(host: HookRunner): Promise<LspView> {
  if (!host.hasHook("files_changed"))
    return { servers: [], why: "the lsp module is not in this run (its profile, or plugins.json disabled)" };
  if (!(host.wantsHook?.("files_changed") ?? true))
    return {
      servers: [],
      why: "no language server can run here: none of the built-in ones is on PATH, and lsp.json adds none",
    };
  try {
    const reply = await host.runHook("files_changed", { changed: [], status: true });
    return { servers: reply.servers ?? [] };
  } catch (err) {
    return { servers: [], why: `lsp: ${errorMessage(err)}` };
  }
}
