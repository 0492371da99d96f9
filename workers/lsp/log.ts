// A server's stderr log under config_dir/logs, bounded: a chatty server cannot fill the disk.
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { join } from "node:path";

const MAX_LOG_BYTES = 8 * 1024 * 1024;

export interface ServerLog {
  path: string;
  write(chunk: Buffer | string): void;
  end(): void;
}

export function openServerLog(configDir: string, server: string): ServerLog {
  const dir = join(configDir, "logs");
  const path = join(dir, `lsp-${server}.log`);
  let stream: WriteStream | undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    stream = createWriteStream(path, { flags: "a", mode: 0o600 });
    stream.on("error", () => {
      stream = undefined;
    });
  } catch {
    stream = undefined;
  }
  let written = 0;
  return {
    path,
    write(chunk) {
      if (!stream || written > MAX_LOG_BYTES) return;
      written += chunk.length;
      stream.write(chunk);
    },
    end() {
      stream?.end();
    },
  };
}
