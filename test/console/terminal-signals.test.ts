// TerminalSignals on its own: defaults, the tmux rule, the approval that waits, the methods' sequences.
import { expect, test } from "bun:test";
import { signalSettings, TerminalSignals } from "../../src/console/terminal-signals.ts";

test("defaults: title on, a bell after 20 s; inside tmux no notification unless in_tmux", () => {
  expect(signalSettings({}, {})).toEqual({ title: true, notify: "bell", afterMs: 20_000 });
  expect(signalSettings({}, { TMUX: "/tmp/tmux-0/default,1,0" }).notify).toBe("off");
  const asked = signalSettings({ notifications: { method: "osc9", in_tmux: true } }, { TMUX: "x" });
  expect(asked.notify).toBe("osc9");
  expect(signalSettings({ terminal_title: false }, {}).title).toBe(false);
});

test("an approval that waits after_seconds is announced once; one answered sooner is not", async () => {
  const out: string[] = [];
  const s = new TerminalSignals((t) => out.push(t));
  s.start({ title: false, notify: "osc9", afterMs: 50 });
  s.approval(true, "bash: rm -rf build");
  s.approval(false);
  await new Promise((r) => setTimeout(r, 120));
  expect(out).toEqual([]);
  s.approval(true, "bash: rm -rf build");
  await new Promise((r) => setTimeout(r, 120));
  expect(out).toEqual(["\u001b]9;i: approval needed: bash: rm -rf build\u0007"]);
  s.stop();
});

test("a short turn rings nothing, a long one rings; nothing is written before start or after stop", () => {
  let now = 0;
  const out: string[] = [];
  const s = new TerminalSignals(
    (t) => out.push(t),
    () => now,
  );
  s.turnStarted();
  s.turnEnded();
  expect(out).toEqual([]);
  s.start({ title: false, notify: "bell", afterMs: 1000 });
  s.turnStarted();
  now = 500;
  s.turnEnded();
  expect(out).toEqual([]);
  s.turnStarted();
  now = 2000;
  s.turnStarted(); // a second model turn of the same run does not restart the clock
  s.turnEnded();
  expect(out).toEqual(["\u0007"]);
  s.stop();
  s.turnStarted();
  now = 9000;
  s.turnEnded();
  expect(out).toEqual(["\u0007"]);
});
