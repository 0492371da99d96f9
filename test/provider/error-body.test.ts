// Error bodies are read for the message only: a huge one is cut, not buffered whole.
import { expect, test } from "bun:test";
import { readCapped } from "../../src/provider/transport.ts";

test("an error body is read up to the cap, the rest is never buffered", async () => {
  let pulled = 0;
  const chunk = new Uint8Array(16 * 1024).fill(0x61);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      if (pulled > 1000) controller.close();
      else controller.enqueue(chunk);
    },
  });
  const text = await readCapped(new Response(body, { status: 502 }), 64 * 1024);
  expect(text.length).toBe(64 * 1024);
  expect(pulled).toBeLessThan(10);
});

test("a short body comes back whole, multi-byte text intact", async () => {
  const text = await readCapped(new Response('{"error":{"message":"zu groß"}}', { status: 400 }), 64 * 1024);
  expect(text).toBe('{"error":{"message":"zu groß"}}');
});
