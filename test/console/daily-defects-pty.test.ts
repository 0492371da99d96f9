// Defects a hidden run on the landed console found, each driven as a person meets it: the real CLI in tmux
// against the mock model.
import { expect, test } from "bun:test";
import { makeRig } from "../agent/rig.ts";
import { consoleIn, flat, Pty } from "../helpers/pty.ts";
import { liveConsole, PTY_TEST_MS, send } from "./console-pty.ts";

const live = liveConsole();

const PRICED = {
  models: {
    "mock-model": { context_window: 100_000, max_output_tokens: 4096, price: { input: 10, output: 10 } },
    "other-model": { context_window: 50_000, max_output_tokens: 2048, price: { input: 1000, output: 1000 } },
  },
};

test(
  "/cost after /model: one total, each request priced by the model that served it, its parts adding up",
  async () => {
    const usage = { input_tokens: 1000, output_tokens: 0 };
    const p = await live.start(
      [
        { text: "first answer", usage },
        { text: "second answer", usage },
        { text: "third answer", usage },
      ],
      { config: PRICED, cols: 160, rows: 40 },
    );
    await send(p, "one");
    await p.waitFor("first answer");
    await send(p, "two");
    await p.waitFor("second answer");
    await send(p, "/model other-model");
    await p.waitFor("model switched to other-model");
    await send(p, "three");
    await p.waitFor("third answer");
    // Two requests at $10/M (2 × $0.01) and one at $1000/M ($1.00): $1.02, wherever it is said.
    await send(p, "/cost");
    const screen = flat(await p.waitFor("per million tokens"));
    const said = screen.slice(screen.lastIndexOf("/cost"));
    const amount = (re: RegExp) => Number(re.exec(said)?.[1] ?? Number.NaN);
    const total = amount(/cost: \$(\d+\.\d+)/);
    const parts = [amount(/mock-model: [^$]*\$(\d+\.\d+)/), amount(/other-model: [^$]*\$(\d+\.\d+)/)];
    expect(total).toBeCloseTo(1.02, 5);
    expect(parts[0]).toBeCloseTo(0.02, 5);
    expect((parts[0] ?? 0) + (parts[1] ?? 0)).toBeCloseTo(total, 5);
    // No other figure: every amount said is the total or one of its parts.
    for (const m of said.matchAll(/\$(\d+\.\d+)/g)) expect([total, ...parts]).toContain(Number(m[1]));
    const status = (await p.screen()).split("\n").findLast((l) => l.includes("· openai ·")) ?? "";
    expect(status).toContain("$1.02");
  },
  PTY_TEST_MS,
);

test(
  "a console that cannot open its session (i -r nope) leaves no prompt above the error",
  async () => {
    live.rig = await makeRig({ script: [] });
    live.pty = await Pty.start(consoleIn(live.rig, ["-r", "nope"], { cols: 100, rows: 20 }));
    await live.pty.waitExit();
    const lines = (await live.pty.screen({ history: true, joined: true }))
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.startsWith("Pane is dead"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("nope");
    expect(lines[0]).not.toContain("›");
  },
  PTY_TEST_MS,
);

test(
  "submit bound to ctrl+j sends with Ctrl-J; without a binding Ctrl-J is a new line",
  async () => {
    const { rig, pty } = await live.open([{ text: "sent with ctrl-j" }], {
      configFiles: { "keybindings.json": JSON.stringify({ submit: "ctrl+j" }) },
    });
    await pty.type("hello");
    await pty.press("C-j");
    await pty.waitFor("sent with ctrl-j");
    expect(rig.mock.requests).toHaveLength(1);
    // Unbound, Ctrl-J stays what it was: a new line in the message, never a send.
    const plain = await live.open([{ text: "two lines arrived" }]);
    await plain.pty.type("line one");
    await plain.pty.press("C-j");
    await plain.pty.type("line two");
    await new Promise((r) => setTimeout(r, 300));
    expect(plain.rig.mock.requests).toHaveLength(0);
    await plain.pty.press("Enter");
    await plain.pty.waitFor("two lines arrived");
    const sent = JSON.stringify(plain.rig.mock.requests[0]);
    expect(sent).toContain("line one\\nline two");
  },
  PTY_TEST_MS,
);
