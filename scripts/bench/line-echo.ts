// The compaction benchmark's floor worker: every line it reads comes straight back, unparsed, through the
// same blocking stdin/stdout loop a worker uses. Moving the history through a pipe and back is what no
// compactor can avoid (every hook returns its complete data); this is what that costs alone.
import { readSync } from "node:fs";
import { MAX_LINE_BYTES } from "../../src/contract/protocol.ts";
import { LineDecoder } from "../../src/lib/framing.ts";
import { writeAll } from "../../src/lib/write-all.ts";

const NL = new Uint8Array([0x0a]);
const decoder = new LineDecoder(
  MAX_LINE_BYTES,
  () => {},
  () => process.exit(1),
  (bytes) => {
    writeAll(1, bytes);
    writeAll(1, NL);
    return true;
  },
);
while (decoder.fill((into, offset, length) => readSync(0, into, offset, length, null)) > 0);
