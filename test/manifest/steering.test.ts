// The console's steering dependency is injected into any manifest — generated or hand-written — with the
// queue appended to its argv; a loaded manifest is never modified in place.
import { describe, expect, test } from "bun:test";
import { generateManifest } from "../../src/manifest/generate.ts";
import { withSteering } from "../../src/manifest/steering.ts";

const self = ["/opt/i/bin/i"];

describe("withSteering", () => {
  test("adds the built-in steering worker, alone, with --queue", () => {
    const base = generateManifest({ profile: "compact", configDir: "/cfg", plugins: {}, bindings: {}, self });
    const before = JSON.stringify(base);
    const m = withSteering(base, "/data/queues/q.jsonl", { self });
    expect(JSON.stringify(base)).toBe(before);
    const steering = m.modules.find((x) => x.name === "steering");
    expect(steering).toMatchObject({ builtin: true, cwd: "/cfg", hooks: ["steer"], tools: [] });
    expect(steering?.exec).toEqual(["/opt/i/bin/i", "worker", "steering", "--queue", "/data/queues/q.jsonl"]);
    expect(m.hooks.steer).toEqual([
      { module: "steering", exec: steering?.exec ?? [], cwd: "/cfg", builtin: true },
    ]);
    // the other modules are untouched
    expect(m.modules.filter((x) => x.name !== "steering")).toEqual(base.modules);
  });

  test("even when plugins.json disables it: the console dependency stays", () => {
    const base = generateManifest({
      profile: "standard",
      configDir: "/cfg",
      plugins: { disabled: ["steering"] },
      bindings: {},
      self,
    });
    expect(withSteering(base, "/q", { self }).hooks.steer?.[0]?.module).toBe("steering");
  });

  test("a steering replacement bound in bindings.json runs when the manifest lists none", () => {
    // Generated and launcher manifests never list steering: the console adds it, and the user's binding wins.
    const binding = { exec: ["/usr/local/bin/my-steer", "--fast"], cwd: "/srv/steer" };
    const base = generateManifest({
      profile: "compact",
      configDir: "/cfg",
      plugins: {},
      bindings: { steering: binding },
      self,
    });
    expect(base.modules.some((x) => x.name === "steering")).toBe(false);
    const m = withSteering(base, "/q.jsonl", { binding, self });
    const expected = ["/usr/local/bin/my-steer", "--fast", "--queue", "/q.jsonl"];
    expect(m.modules.find((x) => x.name === "steering")).toMatchObject({
      builtin: false,
      exec: expected,
      cwd: "/srv/steer",
    });
    expect(m.hooks.steer).toEqual([
      { module: "steering", exec: expected, cwd: "/srv/steer", builtin: false },
    ]);
    // without its own cwd a bound module runs in config_dir, as generated bindings do
    const noCwd = withSteering(base, "/q.jsonl", { binding: { exec: binding.exec }, self });
    expect(noCwd.hooks.steer?.[0]?.cwd).toBe("/cfg");
  });

  test("a bound steering replacement keeps its argv and gets the queue appended", () => {
    // a hand-written manifest that lists its own steering worker
    const plain = generateManifest({ profile: "budget", configDir: "/cfg", plugins: {}, bindings: {}, self });
    const own = {
      module: "steering" as const,
      exec: ["/usr/local/bin/my-steer", "--fast"],
      cwd: "/srv/steer",
      builtin: false,
    };
    const base = {
      ...plain,
      modules: [
        ...plain.modules,
        {
          name: "steering" as const,
          builtin: false,
          exec: own.exec,
          cwd: own.cwd,
          hooks: ["steer"],
          tools: [],
        },
      ],
      hooks: { ...plain.hooks, steer: [own] },
    };
    const m = withSteering(base, "/q.jsonl", { self });
    const expected = ["/usr/local/bin/my-steer", "--fast", "--queue", "/q.jsonl"];
    expect(m.modules.find((x) => x.name === "steering")?.exec).toEqual(expected);
    expect(m.hooks.steer).toEqual([
      { module: "steering", exec: expected, cwd: "/srv/steer", builtin: false },
    ]);
    expect(m.modules.filter((x) => x.name === "steering")).toHaveLength(1);
  });
});
