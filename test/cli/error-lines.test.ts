// Bad input, every kind the CLI takes — flags of every command, bad values, missing files, bad config,
// profile and auth files, bad directory variables — gets exactly one line on stderr: `i:` (or the
// subcommand, `i doctor:`) first, then the file, flag or setting, what is wrong and how to fix it; exit 2;
// nothing on stdout, never a stack trace. Each case runs the real CLI from source; none gets as far as a
// model request (there is no server to answer one).
import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { removeDir, runCli, tempDir } from "../helpers/cli.ts";

interface Case {
  args: string[];
  /** the one line, `{R}` standing for the test's root directory; a RegExp where the runtime words part */
  line: string | RegExp;
  /** files to write under the root first (mode 0600, as auth.json must be) */
  files?: Record<string, string>;
  env?: Record<string, string>;
  /** after the files are written */
  setup?: (root: string) => void;
}

const HELP = (cmd = "i") => `see \`${cmd} --help\``;
const RUN = ["-p", "hi", "-m", "gpt-4o"];
const PROFILES = "standard, full, compact, responses-compact, budget, responses-budget";
const MODULES =
  "budget, prompts, compact, skills, memory, cache, search, web, responses, hooks, agents, steering, mcp, plan, lsp";

const CASES: Record<string, Case> = {
  // the root command's flags
  "--max-turns 0": {
    args: ["--max-turns", "0", "-p", "hi"],
    line: 'i: --max-turns: "0" is not a positive whole number; give the most model requests to make, e.g. --max-turns 20',
  },
  "--max-turns 1.5": {
    args: ["--max-turns", "1.5", "-p", "hi"],
    line: 'i: --max-turns: "1.5" is not a positive whole number; give the most model requests to make, e.g. --max-turns 20',
  },
  "--max-turns=": {
    args: ["--max-turns=", "-p", "hi"],
    line: `i: flag --max-turns has an empty value; give it a value or leave it out; ${HELP()}`,
  },
  "--workspace missing": {
    args: ["--workspace", "{R}/missing", ...RUN],
    line: 'i: --workspace: "{R}/missing" does not exist; pass an existing directory',
  },
  "--workspace a file": {
    args: ["--workspace", "{R}/file.txt", ...RUN],
    files: { "file.txt": "x" },
    line: 'i: --workspace: "{R}/file.txt" is not a directory; pass an existing directory',
  },
  "--workspace=": {
    args: ["--workspace=", ...RUN],
    line: `i: flag --workspace has an empty value; give it a value or leave it out; ${HELP()}`,
  },
  "-m ''": {
    args: ["-m", "", "-p", "hi"],
    line: `i: flag -m has an empty value; give it a value or leave it out; ${HELP()}`,
  },
  "--model without a value": {
    args: ["-p", "hi", "--model"],
    line: `i: flag --model needs a value; ${HELP()}`,
  },
  "--provider xx": {
    args: ["--provider", "xx", "-p", "hi"],
    line: `i: flag --provider: "xx" is not one of openai, anthropic, responses, gemini, vertex, bedrock, azure, openrouter; ${HELP()}`,
  },
  "--approve maybe": {
    args: ["--approve=maybe", "-p", "hi"],
    line: `i: flag --approve: "maybe" is not one of all, edits, ask, none; ${HELP()}`,
  },
  "--base-url ftp": {
    args: ["--base-url", "ftp://x", ...RUN],
    line: 'i: base URL "ftp://x" must start with http:// or https://; fix --base-url, I_BASE_URL or config.json base_url',
  },
  "--profile nope": {
    args: ["--profile", "nope", ...RUN],
    line: `i: --profile: unknown profile "nope"; use one of: ${PROFILES}`,
  },
  "--manifest missing": {
    args: ["--manifest", "{R}/none.json", ...RUN],
    line: 'i: --manifest: "{R}/none.json" does not exist; generate one with `i --runtime manifest PROFILE`',
  },
  "--manifest not JSON": {
    args: ["--manifest", "{R}/m.json", ...RUN],
    files: { "m.json": "{modules" },
    line: /^i: \{R\}\/m\.json: malformed JSON \(.+\); fix the syntax or regenerate it with `i --runtime manifest PROFILE`$/,
  },
  "--manifest a directory": {
    args: ["--manifest", "{R}/ws", ...RUN],
    line: "i: {R}/ws: is a directory, not a regular file; replace it with a regular file",
  },
  "--sandbox bogus": {
    args: ["--sandbox", "bogus", ...RUN],
    line: 'i: --sandbox: "bogus" is not a sandbox mode; use workspace-write, workspace-write,network or off',
  },
  "-r unknown id": {
    args: ["-r", "nosuch", ...RUN],
    line: 'i: no session "nosuch" in {R}/data; list this workspace\'s sessions with `i sessions`',
  },
  "-r a path": {
    args: ["-r", "../x", ...RUN],
    line: 'i: session id "../x" is not valid: ids are letters, digits, "-" and "_"; list them with `i sessions`',
  },
  "-c and -r": {
    args: ["-c", "-r", "x", ...RUN],
    line: "i: -c and -r both choose the session to resume; give -c (the newest) or -r ID, not both",
  },
  "-c without a session": {
    args: ["-c", ...RUN],
    line: "i: no saved session for workspace {R}/ws; start one with `i -p PROMPT` or `i`",
  },
  "--json without -p": {
    args: ["--json", "hi"],
    line: "i: --json goes with -p (print mode); add -p, or leave out --json",
  },
  "-p without a prompt": {
    args: ["-p"],
    line: 'i -p: no prompt; pass it as an argument (i -p "fix the tests") or on stdin',
  },
  "unknown flag": { args: ["--frobnicate"], line: `i: unknown flag --frobnicate; ${HELP()}` },
  "value for a boolean": {
    args: ["--print=yes", "hi"],
    line: `i: flag --print takes no value (it is on when given); ${HELP()}`,
  },
  "no model": {
    args: ["-p", "hi"],
    line: 'i: no model chosen: pass -m NAME, set I_MODEL, or set "model" in {R}/cfg/config.json',
  },
  "unknown model": {
    args: ["-p", "hi", "-m", "no-such-model"],
    line: 'i: unknown model "no-such-model": its context window is not known; add it to {R}/cfg/config.json as {"models":{"no-such-model":{"context_window":N,"max_output_tokens":N}}}',
  },
  "no API key": {
    args: RUN,
    env: { OPENAI_API_KEY: "" },
    line: 'i: not logged in: no API key for provider "openai": set I_API_KEY or OPENAI_API_KEY, or add {"openai":"KEY"} to {R}/cfg/auth.json (chmod 600)',
  },

  // subcommands
  "doctor --bogus": {
    args: ["doctor", "--bogus"],
    line: `i doctor: unknown flag --bogus; ${HELP("i doctor")}`,
  },
  "doctor --online=1": {
    args: ["doctor", "--online=1"],
    line: `i doctor: flag --online takes no value (it is on when given); ${HELP("i doctor")}`,
  },
  "doctor extra": {
    args: ["doctor", "extra"],
    line: `i doctor: unexpected argument "extra" (it takes none); ${HELP("i doctor")}`,
  },
  "doctor --workspace missing": {
    args: ["doctor", "--workspace", "{R}/missing"],
    line: 'i: --workspace: "{R}/missing" does not exist; pass an existing directory',
  },
  "init --bogus": { args: ["init", "--bogus"], line: `i init: unknown flag --bogus; ${HELP("i init")}` },
  "sessions extra": {
    args: ["sessions", "extra"],
    line: `i sessions: unexpected argument "extra" (it takes none); ${HELP("i sessions")}`,
  },
  "sessions --workspace missing": {
    args: ["sessions", "--workspace", "{R}/missing"],
    line: 'i: --workspace: "{R}/missing" does not exist; pass an existing directory',
  },
  "sessions --recover": {
    args: ["sessions", "--recover"],
    line: `i sessions: flag --recover needs a value; ${HELP("i sessions")}`,
  },
  "sessions --recover unknown": {
    args: ["sessions", "--recover", "nosuch"],
    line: 'i: no session "nosuch" in {R}/data; list this workspace\'s sessions with `i sessions`',
  },
  "compact --bogus": {
    args: ["compact", "--bogus"],
    line: `i compact: unknown flag --bogus; ${HELP("i compact")}`,
  },
  "compact without a session": {
    args: ["compact", "-m", "gpt-4o"],
    line: "i: no saved session for workspace {R}/ws; start one with `i -p PROMPT` or `i`",
  },
  "start --manifest": {
    args: ["start", "--manifest", "x"],
    line: "i start: --manifest is generated by the launcher; run `i --manifest FILE` instead",
  },
  "start --profile nope": {
    args: ["start", "--profile", "nope", ...RUN],
    line: `i: --profile: unknown profile "nope"; use one of: ${PROFILES}`,
  },
  "--runtime without WHAT": {
    args: ["--runtime"],
    line: `i --runtime: missing WHAT (what to print: manifest); ${HELP("i --runtime")}`,
  },
  "--runtime foo": {
    args: ["--runtime", "foo"],
    line: 'i --runtime: unknown document "foo"; use `i --runtime manifest PROFILE`',
  },
  "--runtime manifest nope": {
    args: ["--runtime", "manifest", "nope"],
    line: `i --runtime: unknown profile "nope"; use one of: ${PROFILES}`,
  },
  "worker without modules": {
    args: ["worker"],
    line: `i worker: missing MODULES (module name(s), comma-separated); ${HELP("i worker")}`,
  },
  "worker nosuch": {
    args: ["worker", "nosuch"],
    line: `i worker: unknown module "nosuch"; built-in modules are: ${MODULES}`,
  },
  "worker twice": {
    args: ["worker", "budget,budget"],
    line: 'i worker: module "budget" is listed twice; name each module once',
  },
  "auth without a verb": {
    args: ["auth"],
    line: "i auth: say what to do; usage: i auth login | i auth logout [openai|anthropic|gemini|azure|openrouter|all] | i auth status",
  },
  "auth login without a terminal": {
    args: ["auth", "login"],
    line: "i auth: login asks its questions on a terminal and none is attached; set I_API_KEY (or OPENAI_API_KEY / ANTHROPIC_API_KEY) and pass -m NAME instead",
  },
  "auth logout of an unknown provider": {
    args: ["auth", "logout", "nope"],
    line: 'i auth: logout: unknown provider "nope"; usage: i auth login | i auth logout [openai|anthropic|gemini|azure|openrouter|all] | i auth status',
  },
  "help nope": {
    args: ["help", "nope"],
    line: 'i help: no command "nope"; commands are init, auth, worker, doctor, compact, sessions, mcp, trust, start, acp, --runtime (`i --help` lists them)',
  },

  // config files
  "config.json malformed": {
    args: RUN,
    files: { "cfg/config.json": "{bad" },
    line: /^i: \{R\}\/cfg\/config\.json: malformed JSON \(.+\); fix the syntax or delete the file$/,
  },
  "config.json an array": {
    args: RUN,
    files: { "cfg/config.json": "[]" },
    line: "i: {R}/cfg/config.json: is an array, not an object; write an object such as {} or delete the file",
  },
  "config.json empty": {
    args: RUN,
    files: { "cfg/config.json": "\n" },
    line: "i: {R}/cfg/config.json: is empty; write an object such as {} or delete the file",
  },
  "config.json mistyped key": {
    args: RUN,
    files: { "cfg/config.json": '{"modls":{}}' },
    line: 'i: {R}/cfg/config.json: unknown key "modls" in (top level); did you mean "models"? (unknown keys are errors)',
  },
  "config.json bad base_url": {
    args: RUN,
    files: { "cfg/config.json": '{"base_url":"x"}' },
    line: "i: {R}/cfg/config.json: field base_url: not a valid URL; give one like http://localhost:11434/v1",
  },
  "config.json a directory": {
    args: RUN,
    setup: (r) => mkdirSync(join(r, "cfg", "config.json"), { recursive: true }),
    line: "i: {R}/cfg/config.json: is a directory, not a regular file; replace it with a regular file",
  },
  "config.json provider outside the list": {
    args: RUN,
    files: { "cfg/config.json": '{"provider":"nope"}' },
    line: 'i: {R}/cfg/config.json: field provider: must be one of "openai", "anthropic", "responses", "gemini", "vertex", "bedrock", "azure", "openrouter"',
  },
  "config.json model of the wrong type": {
    args: ["-p", "hi"],
    files: { "cfg/config.json": '{"model":5}' },
    line: "i: {R}/cfg/config.json: field model: expected string, received number",
  },
  "plugins.json unknown module disabled": {
    args: RUN,
    files: { "cfg/plugins.json": '{"disabled":["compactor"]}' },
    line: `i: {R}/cfg/plugins.json: field disabled[0]: must be one of ${MODULES.split(", ")
      .map((m) => `"${m}"`)
      .join(", ")}`,
  },
  "compact.json keep_recent 0": {
    args: RUN,
    files: { "cfg/compact.json": '{"keep_recent":0}' },
    line: "i: {R}/cfg/compact.json: field keep_recent: must be at least 1",
  },
  "budget.json trigger_ratio 2": {
    args: RUN,
    files: { "cfg/budget.json": '{"trigger_ratio":2}' },
    line: "i: {R}/cfg/budget.json: field trigger_ratio: must be less than 1",
  },
  "bindings.json empty exec": {
    args: RUN,
    files: { "cfg/bindings.json": '{"compact":{"exec":[]}}' },
    line: "i: {R}/cfg/bindings.json: field compact.exec: must not be empty",
  },
  "plugins.json unknown profile": {
    args: RUN,
    files: { "cfg/plugins.json": '{"profile":"nope"}' },
    line: `i: {R}/cfg/plugins.json: field profile: unknown profile "nope"; use one of: ${PROFILES}`,
  },
  "bindings.json unknown module": {
    args: RUN,
    files: { "cfg/bindings.json": '{"nope":{"exec":["/x"]}}' },
    line: `i: {R}/cfg/bindings.json: unknown module "nope"; bindable modules are: ${MODULES}`,
  },
  "bindings.json relative exec": {
    args: RUN,
    files: { "cfg/bindings.json": '{"compact":{"exec":["bin/x"]}}' },
    line: 'i: {R}/cfg/bindings.json: field compact.exec[0]: "bin/x" is not an absolute path; give the full path to the executable',
  },
  "compact.json missing prompt file": {
    args: RUN,
    files: { "cfg/compact.json": '{"prompt":"missing.txt"}' },
    line: 'i: {R}/cfg/compact.json: field prompt: cannot read "{R}/cfg/missing.txt"; create it or fix the path (relative to compact.json)',
  },
  "auth.json readable by others": {
    args: RUN,
    env: { OPENAI_API_KEY: "" },
    files: { "cfg/auth.json": '{"openai":"sk-test"}' },
    setup: (r) => chmodSync(join(r, "cfg", "auth.json"), 0o644),
    line: "i: {R}/cfg/auth.json: mode 0644 lets other users read your API keys; run: chmod 600 {R}/cfg/auth.json",
  },
  "web.json bad (profile full)": {
    args: [...RUN, "--profile", "full"],
    files: { "cfg/web.json": '{"timeout_ms":1}' },
    line: "i: {R}/cfg/web.json: field timeout_ms: must be at least 100",
  },

  // directory and target variables
  "I_PROVIDER unknown": {
    args: RUN,
    env: { I_PROVIDER: "nope" },
    line: 'i: I_PROVIDER: unknown provider "nope"; use one of openai, anthropic, responses, gemini, vertex, bedrock, azure, openrouter',
  },
  "I_CONFIG_DIR a file": {
    args: RUN,
    env: { I_CONFIG_DIR: "{R}/file.txt" },
    files: { "file.txt": "x" },
    line: "i: I_CONFIG_DIR: {R}/file.txt is not a directory; set I_CONFIG_DIR to a directory",
  },
  "I_DATA_DIR under a file": {
    args: RUN,
    env: { I_DATA_DIR: "{R}/file.txt/data" },
    files: { "file.txt": "x" },
    line: "i: I_DATA_DIR: {R}/file.txt/data cannot be created: {R}/file.txt is a file; set I_DATA_DIR to a directory you can write",
  },
  "init, I_CONFIG_DIR a file": {
    args: ["init"],
    env: { I_CONFIG_DIR: "{R}/file.txt" },
    files: { "file.txt": "x" },
    line: "i: I_CONFIG_DIR: {R}/file.txt is not a directory; set I_CONFIG_DIR to a directory",
  },
  "--runtime manifest, I_CONFIG_DIR under a file": {
    args: ["--runtime", "manifest"],
    env: { I_CONFIG_DIR: "{R}/file.txt/cfg" },
    files: { "file.txt": "x" },
    line: "i: I_CONFIG_DIR: {R}/file.txt/cfg cannot be created: {R}/file.txt is a file; set I_CONFIG_DIR to a directory you can write",
  },
  "sessions, I_DATA_DIR a file": {
    args: ["sessions"],
    env: { I_DATA_DIR: "{R}/file.txt" },
    files: { "file.txt": "x" },
    line: "i: I_DATA_DIR: {R}/file.txt is not a directory; set I_DATA_DIR to a directory",
  },
  "-r, I_DATA_DIR a file": {
    args: ["-r", "abc", ...RUN],
    env: { I_DATA_DIR: "{R}/file.txt" },
    files: { "file.txt": "x" },
    line: "i: I_DATA_DIR: {R}/file.txt is not a directory; set I_DATA_DIR to a directory",
  },
};

let root: string;
beforeEach(() => {
  root = tempDir("i-errline-");
  mkdirSync(join(root, "ws"));
});
afterEach(() => removeDir(root));

const fill = (s: string) => s.replaceAll("{R}", root);

test.each(Object.keys(CASES))("%s: one line, exit 2", (name) => {
  const c = CASES[name] as Case;
  for (const [rel, text] of Object.entries(c.files ?? {})) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text, { mode: 0o600 });
  }
  c.setup?.(root);
  const env = {
    HOME: root,
    I_CONFIG_DIR: join(root, "cfg"),
    I_DATA_DIR: join(root, "data"),
    I_MODEL: "",
    I_PROVIDER: "",
    I_BASE_URL: "",
    I_API_KEY: "",
    ANTHROPIC_API_KEY: "",
    OPENAI_API_KEY: "sk-test-not-real",
    ...Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, fill(v)])),
  };
  const r = runCli(c.args.map(fill), env, join(root, "ws"), "");
  const want =
    typeof c.line === "string"
      ? fill(c.line)
      : new RegExp(c.line.source.replaceAll("\\{R\\}", root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  expect({ stdout: r.stdout, stderrLines: r.stderr.split("\n").length - 1 }).toEqual({
    stdout: "",
    stderrLines: 1,
  });
  if (typeof want === "string") expect(r.stderr).toBe(`${want}\n`);
  else expect(r.stderr.trimEnd()).toMatch(want);
  expect(r.code).toBe(2);
});
