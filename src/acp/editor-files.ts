// The client's `fs/read_text_file` and `fs/write_text_file`, when it offers them, as the file tools'
// editor: read and edit see the editor's unsaved buffers, and what the tools wrote (atomically, on disk,
// checkpointed, inside the workspace as always) reaches the editor's buffers.
import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import type { EditorFiles } from "../agent/agent-session.ts";

/** An editor slower than this to hand a file over is not waited for: the disk is read instead. */
const READ_WAIT_MS = 5000;

export function editorFiles(
  client: AgentContext,
  caps: ClientCapabilities | undefined,
  sessionId: () => string,
): EditorFiles | undefined {
  const read = caps?.fs?.readTextFile === true;
  const write = caps?.fs?.writeTextFile === true;
  if (!read && !write) return undefined;
  return {
    async read(path) {
      if (!read) return undefined;
      try {
        const r = await client.request(
          "fs/read_text_file",
          { sessionId: sessionId(), path },
          { cancellationSignal: AbortSignal.timeout(READ_WAIT_MS), stopWaitingOnCancel: true },
        );
        return r.content;
      } catch {
        // not open, not there, or the editor would not say: the file on disk is what the tool reads
        return undefined;
      }
    },
    async written(path, content) {
      if (!write) return;
      try {
        await client.request("fs/write_text_file", { sessionId: sessionId(), path, content });
      } catch {
        // the file is written on disk already; the editor shows it when it reloads
      }
    },
  };
}
