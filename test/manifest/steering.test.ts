// The console's steering dependency is injected into any manifest — generated or hand-written — with the
// queue appended to its argv; a loaded manifest is never modified in place.
import { describe, expect, test } from "bun:test";
import { generateManifest } from "../../src/manifest/generate.ts";
import { withSteering } from "../../src/manifest/steering.ts";

const self = ["/opt/i/bin/i"];

describe("withSteering", () => {
  test("the built-in steering joins the shared built-in process, whose argv gets --queue", () => {
    const base = generateManifest({ profile: "compact", configDir: "/cfg", plugins: {}, bindings: {}, self });
    const before = JSON.stringify(base);
    const m = withSteering(base, "/data/queues/q.jsonl", { self });
    expect(JSON.stringify(base)).toBe(before);
    const exec = ["/opt/i/bin/i", "worker", "budget,compact,steering", "--queue", "/data/queues/q.jsonl"];
    const steering = m.modules.find((x) => x.name === "steering");
    expect(steering).toMatchObject({ builtin: true, cwd: "/cfg", hooks: ["steer"], tools: [], exec });
    expect(m.hooks.steer).toEqual([{ module: "steering", exec, cwd: "/cfg", builtin: true }]);
    // one process for all of them: every entry of the shared process carries the same argv
    for (const x of m.modules) expect(x.exec).toEqual(exec);
    for (const refs of Object.values(m.hooks)) for (const r of refs) expect(r.exec).toEqual(exec);
    expect(m.modules.map((x) => x.name)).toEqual(["budget", "compact", "steering"]);
  });

  test("with no built-in process to join, the built-in steering runs alone", () => {
    const base = generateManifest({
      profile: "budget",
      configDir: "/cfg",
      plugins: {},
      bindings: { budget: { exec: ["/usr/local/bin/my-budget"] } },
      self,
    });
    const m = withSteering(base, "/q.jsonl", { self });
    expect(m.modules.find((x) => x.name === "steering")?.exec).toEqual([
      "/opt/i/bin/i",
      "worker",
      "steering",
      "--queue",
      "/q.jsonl",
    ]);
    expect(m.modules.find((x) => x.name === "budget")?.exec).toEqual(["/usr/local/bin/my-budget"]);
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
