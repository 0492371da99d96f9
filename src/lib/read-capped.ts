// Reading at most N bytes of an HTTP body: error pages and fetched pages can be any size, and only the
// first part is ever used, so the rest is never read (the stream is cancelled).

export interface CappedBody {
  bytes: Uint8Array;
  /** the body had more than `max` bytes */
  truncated: boolean;
}

/**
 * At most `max` bytes of `res`'s body. A body that breaks off mid-way throws, unless `keepPartial`, which
 * returns what arrived (an error body is still worth showing in part).
 */
export async function readCappedBody(res: Response, max: number, keepPartial = false): Promise<CappedBody> {
  if (!res.body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = max - size;
      if (value.length > room) {
        chunks.push(value.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } catch (err) {
    if (!keepPartial) throw err;
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    bytes.set(c, off);
    off += c.length;
  }
  return { bytes, truncated };
}
