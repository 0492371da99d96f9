// The console drives a session only through the facade: its files import the facade's module, the
// contract, the terminal helpers, each other and packages — nothing else of the core.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { importsOf } from "../../scripts/lint/layers.ts";
import { removeDir, tempDir } from "../helpers/cli.ts";

/** What src/console/ may import inside the repository (folders end with "/"; src/lib/: the shared utilities). */
const ALLOWED = ["src/console/", "src/contract/", "src/lib/", "src/terminal/", "src/agent/agent-session.ts"];

/** Every import of a file under src/console/ that leaves the allowed set, as "file → target". */
function forbiddenImports(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith(".ts"))
        for (const spec of importsOf(readFileSync(join(root, rel), "utf8"))) {
          if (!spec.startsWith(".")) continue; // a package or a node: builtin
          const target = relative(root, resolve(root, dirname(rel), spec))
            .split("\\")
            .join("/");
          if (!ALLOWED.some((a) => (a.endsWith("/") ? target.startsWith(a) : target === a)))
            out.push(`${rel} → ${target}`);
        }
    }
  };
  walk("src/console");
  return out;
}

let planted: string | undefined;
afterEach(() => {
  if (planted) removeDir(planted);
  planted = undefined;
});

describe("the console's imports", () => {
  test("only the facade, the contract, terminal/ and its own files", () => {
    expect(forbiddenImports(join(import.meta.dir, "../.."))).toEqual([]);
  });

  test("a planted import of the core is caught, a type-only or dynamic one too", () => {
    planted = tempDir();
    mkdirSync(join(planted, "src/console/input"), { recursive: true });
    const files: Record<string, string> = {
      "src/console/ok.ts":
        'import { a } from "./input/x.ts";\nimport type { S } from "../agent/agent-session.ts";\nimport { z } from "zod";\n',
      "src/console/bad.ts": 'import { Session } from "../session/session.ts";\n',
      "src/console/input/bad.ts":
        'import type { T } from "../../tools/approvals.ts";\nconst m = await import("../../agent/setup.ts");\n',
    };
    for (const [f, text] of Object.entries(files)) writeFileSync(join(planted, f), text);
    expect(forbiddenImports(planted).sort()).toEqual([
      "src/console/bad.ts → src/session/session.ts",
      "src/console/input/bad.ts → src/agent/setup.ts",
      "src/console/input/bad.ts → src/tools/approvals.ts",
    ]);
  });
});
