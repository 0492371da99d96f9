// One ignore file read as git reads it: the expected answers are what `git check-ignore --no-index`
// says for the same .gitignore (git 2.39), so a difference from git fails here.
import { expect, test } from "bun:test";
import { parseGitignore } from "../../src/lib/gitignore.ts";

const GITIGNORE = [
  "*.log",
  "!keep.log",
  "/build",
  "dist/",
  "docs/*.md",
  "**/tmp/**",
  "a/**/b",
  "\\#hash",
  "foo?",
  "[Tt]emp",
  "*.o",
  "!/lib/*.o",
  "cache",
  "out/*",
  "!out/keep",
  "spaces\\ ",
  "x/y/",
  "**/secret",
].join("\n");

// [path, is a directory, ignored by git]
const GIT_SAYS: [string, boolean, boolean][] = [
  ["app.log", false, true],
  ["sub/keep.log", false, false],
  ["sub/x.log", false, true],
  ["build", true, true],
  ["src/build", true, false],
  ["dist", true, true],
  ["dist", false, false],
  ["src/dist", true, true],
  ["docs/a.md", false, true],
  ["docs/sub/a.md", false, false],
  ["tmp/x", false, true],
  ["a/tmp/x/y", false, true],
  ["a/b", false, true],
  ["a/x/y/b", false, true],
  ["#hash", false, true],
  ["foo1", false, true],
  ["foo", false, false],
  ["Temp", true, true],
  ["temp", true, true],
  ["x.o", false, true],
  ["lib/x.o", false, false],
  ["src/lib/x.o", false, true],
  ["cache", false, true],
  ["deep/cache", true, true],
  ["out/a", false, true],
  ["out/keep", false, false],
  ["spaces ", false, true],
  ["x/y", true, true],
  ["x/y", false, false],
  ["q/x/y", true, false],
  ["secret", false, true],
  ["a/b/secret", true, true],
];

test("every case is answered as git answers it", () => {
  const ignored = parseGitignore(GITIGNORE);
  const wrong = GIT_SAYS.filter(([p, dir, want]) => ignored(p, dir) !== want).map(
    ([p, dir]) => `${p}${dir ? "/" : ""}`,
  );
  expect(wrong).toEqual([]);
});
