// The idle Notification's clock: it fires once per wait, after its delay, and a sent message stops it.
import { expect, test } from "bun:test";
import { IDLE_MESSAGE, IdleNotification } from "../../src/agent/idle-notification.ts";

test("fires once after its delay, not before; a message sent before the delay stops it", async () => {
  const said: string[] = [];
  const idle = new IdleNotification(150, async (m) => {
    said.push(m);
  });
  idle.waiting(true);
  idle.waiting(true); // still the same wait: the clock is not restarted, nor doubled
  await Bun.sleep(60);
  expect(said).toEqual([]);
  await Bun.sleep(200);
  expect(said).toEqual([IDLE_MESSAGE]);
  await Bun.sleep(200);
  expect(said).toHaveLength(1);
  idle.waiting(false);
  idle.waiting(true);
  await Bun.sleep(60);
  idle.waiting(false);
  await Bun.sleep(200);
  expect(said).toHaveLength(1);
  idle.waiting(true);
  idle.stop();
  await Bun.sleep(200);
  expect(said).toHaveLength(1);
});

test("a failing hook run is not an unhandled rejection", async () => {
  const idle = new IdleNotification(10, () => Promise.reject(new Error("worker gone")));
  idle.waiting(true);
  await Bun.sleep(50);
  idle.stop();
});
