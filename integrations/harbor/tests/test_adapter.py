"""The Harbor adapter with the standard library only (Harbor's package index is not reachable here).

Command construction is checked as text and by running the commands in a local shell; the run end to
end drives the real `i` (the checkout's CLI, against the test's mock model) through the adapter's own
commands, then reads its outputs back into an AgentContext-like object. The end-to-end cases need the
environment the bun test (test/integrations/harbor.test.ts) sets up; run alone, they are skipped.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from i_harbor import commands  # noqa: E402
from i_harbor.agent import IAgent  # noqa: E402
from i_harbor.results import failure_kind, summarize  # noqa: E402


class LocalEnvironment:
    """Runs the adapter's commands in bash on this machine, as Harbor runs them in a container."""

    def __init__(self, path: str, cwd: str) -> None:
        self.path = path
        self.cwd = cwd
        self.commands: list[tuple[str, dict[str, str] | None, str | None]] = []

    async def exec(self, command: str, env=None, user=None, **_):
        self.commands.append((command, env, user))
        full = {**os.environ, "PATH": self.path, **(env or {})}
        r = subprocess.run(["bash", "-c", command], env=full, cwd=self.cwd, capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"exit {r.returncode}: {r.stderr.strip()}")
        return r


class ModelNames(unittest.TestCase):
    def test_provider_model(self):
        t = commands.parse_model("anthropic/claude-sonnet-4-5")
        self.assertEqual((t.wire, t.model, t.base_url), ("anthropic", "claude-sonnet-4-5", None))
        t = commands.parse_model("openrouter/qwen/qwen3-coder")
        self.assertEqual((t.wire, t.model, t.base_url), ("openai", "qwen/qwen3-coder", "https://openrouter.ai/api/v1"))
        self.assertEqual(commands.parse_model("openai/gpt-5", "http://proxy:8080/v1").base_url, "http://proxy:8080/v1")

    def test_bad_names_say_how(self):
        for bad in (None, "gpt-5", "mystery/model", "openai/"):
            with self.assertRaises(commands.AdapterError) as e:
                commands.parse_model(bad)
            self.assertIn("provider/model" if bad in (None, "gpt-5") else "provider", str(e.exception))


class McpServers(unittest.TestCase):
    def test_each_transport(self):
        servers = [
            {"name": "fs", "transport": "stdio", "command": "npx", "args": ["-y", "server-fs", "/app"]},
            SimpleNamespace(name="search", transport="sse", url="http://mcp:8000/sse", command=None, args=None),
            SimpleNamespace(name="docs", transport="streamable_http", url="http://mcp:9000/mcp", command=None, args=None),
        ]
        self.assertEqual(
            commands.mcp_file(servers),
            {
                "mcpServers": {
                    "fs": {"command": "npx", "args": ["-y", "server-fs", "/app"], "auto_approve": "*"},
                    "search": {"type": "sse", "url": "http://mcp:8000/sse", "auto_approve": "*"},
                    "docs": {"type": "http", "url": "http://mcp:9000/mcp", "auto_approve": "*"},
                }
            },
        )
        self.assertEqual(commands.mcp_file(None), {"mcpServers": {}})

    def test_incomplete_servers(self):
        for bad, want in (
            ({"transport": "stdio", "command": "x"}, "no name"),
            ({"name": "a", "transport": "stdio"}, "needs a command"),
            ({"name": "a", "transport": "sse"}, "needs a url"),
            ({"name": "a", "transport": "websocket", "url": "ws://x"}, "unknown transport"),
        ):
            with self.assertRaises(commands.AdapterError) as e:
                commands.mcp_file([bad])
            self.assertIn(want, str(e.exception))


class Commands(unittest.TestCase):
    def test_run_command(self):
        t = commands.parse_model("openai/gpt-5")
        cmd = commands.run_command(t, "/logs/agent", ["--max-turns", "30"])
        self.assertEqual(
            shlex.split(cmd),
            [
                "i", "-p", "--json", "--approve", "all", "--provider", "openai", "-m", "gpt-5",
                "--trajectory", "/logs/agent/trajectory.json", "--session-dir", "/logs/agent/sessions",
                "--max-turns", "30", "<", "/logs/agent/instruction.md",
                ">", "/logs/agent/i-events.ndjson", "2>", "/logs/agent/i-stderr.txt",
            ],
        )

    def test_key_from_the_provider_variable_never_on_the_command_line(self):
        t = commands.parse_model("anthropic/claude-sonnet-4-5")
        env = commands.run_env(t, {"ANTHROPIC_API_KEY": "sk-ant-test"}.get)
        self.assertEqual(env, {"I_API_KEY": "sk-ant-test", "I_CONFIG_DIR": commands.CONFIG_DIR})
        self.assertNotIn("sk-ant-test", commands.run_command(t))
        with self.assertRaises(commands.AdapterError) as e:
            commands.run_env(t, {}.get)
        self.assertIn("ANTHROPIC_API_KEY", str(e.exception))

    def test_install_commands(self):
        release = commands.install_command("1.2.3", "release", "https://example.org/releases/v1.2.3/")
        self.assertIn("sha256sum -c", release)
        self.assertIn("https://example.org/releases/v1.2.3/SHA256SUMS", shlex.split(release)[2])
        self.assertIn("npm install -g i-agent@1.2.3", commands.install_command("1.2.3", "npm", None))
        with self.assertRaises(commands.AdapterError):
            commands.install_command(None, "release", None)
        with self.assertRaises(commands.AdapterError):
            commands.install_command(None, "pip", None)

    def test_instruction_written_exactly(self):
        text = "Fix it.\n'$(touch /tmp/pwned)' `id` \"$HOME\" \\ done\n"
        with tempfile.TemporaryDirectory() as d:
            path = f"{d}/sub/instruction.md"
            subprocess.run(["bash", "-c", commands.write_file_command(path, text)], check=True)
            self.assertEqual(Path(path).read_text(), text)

    def test_agent_builds_the_whole_run(self):
        agent = IAgent(
            Path("/tmp/unused"),
            model_name="anthropic/claude-sonnet-4-5",
            extra_env={"ANTHROPIC_API_KEY": "sk-ant-test"},
            mcp_servers=[{"name": "fs", "transport": "stdio", "command": "server-fs"}],
            max_turns=25,
        )
        steps = agent.build_run("do the task")
        self.assertEqual(len(steps), 4)
        self.assertIn("mcp.json", steps[2][0])
        self.assertIn('"fs"', steps[2][0])
        run, env = steps[-1]
        self.assertIn("--max-turns 25", run)
        self.assertEqual(env["I_API_KEY"], "sk-ant-test")
        self.assertEqual(IAgent.name(), "i")
        self.assertTrue(IAgent.SUPPORTS_ATIF)
        self.assertEqual(agent.get_version_command(), "i --version")
        self.assertEqual(agent.parse_version("i 1.2.3\n"), "1.2.3")
        self.assertEqual(agent.parse_version("something else\n"), "something else")

    def test_failure_phrases(self):
        self.assertEqual(failure_kind('openai model "x": HTTP 429: slow; rate limit reached: wait'), "rate_limit")
        self.assertEqual(failure_kind("HTTP 529: Overloaded; the provider is overloaded: run again later"), "overloaded")
        self.assertEqual(failure_kind('not logged in: no API key for provider "openai"'), "not_logged_in")
        self.assertIsNone(failure_kind("something else"))


E2E = os.environ.get("I_HARBOR_E2E")


@unittest.skipUnless(E2E, "needs the mock model and the i wrapper from test/integrations/harbor.test.ts")
class EndToEnd(unittest.TestCase):
    """The adapter's own commands run `i` for real; the context comes from what it wrote."""

    def setUp(self):
        self.cfg = json.loads(E2E or "{}")

    def _agent(self, case: str, **kw):
        c = self.cfg[case]
        return IAgent(
            Path(c["logs"]),
            model_name="openai/mock-model",
            base_url=c["base_url"],
            extra_env={"OPENAI_API_KEY": "sk-test-key-not-real-0000000000"},
            agent_dir=c["logs"],
            config_dir=c["config"],
            **kw,
        )

    def _run(self, case: str, **kw):
        agent = self._agent(case, **kw)
        env = LocalEnvironment(self.cfg["path"], self.cfg["workspace"])
        context = SimpleNamespace(n_input_tokens=None, n_cache_tokens=None, n_output_tokens=None, cost_usd=None, metadata=None)
        asyncio.run(agent.run("read a.txt and say what it holds", env, context))
        return Path(self.cfg[case]["logs"]), context, env

    def test_a_run_fills_the_context_from_done_and_the_trajectory(self):
        servers = [{"name": "memory", "transport": "stdio", "command": self.cfg["node"], "args": [self.cfg["mcp_server"]]}]
        logs, context, env = self._run("ok", mcp_servers=servers)
        events = [json.loads(l) for l in (logs / commands.EVENTS_FILE).read_text().splitlines() if l.strip()]
        done = events[-1]
        self.assertEqual(done["type"], "done")
        self.assertEqual(context.n_input_tokens, done["usage"]["input_tokens"])
        self.assertEqual(context.n_output_tokens, done["usage"]["output_tokens"])
        self.assertEqual(context.n_cache_tokens, done["usage"]["cache_read_tokens"])
        self.assertEqual((context.n_input_tokens, context.n_output_tokens, context.n_cache_tokens), (300, 15, 120))
        self.assertAlmostEqual(context.cost_usd, (300 * 2 + 15 * 10) / 1e6)
        meta = context.metadata["i"]
        self.assertEqual(meta["session_id"], done["session_id"])
        self.assertEqual(meta["stop_reason"], "end")
        self.assertEqual(meta["trajectory"], "trajectory.json")
        trajectory = json.loads((logs / "trajectory.json").read_text())
        self.assertEqual(trajectory["schema_version"], "ATIF-v1.7")
        self.assertEqual(meta["n_steps"], len(trajectory["steps"]))
        self.assertTrue((logs / "sessions" / done["session_id"] / "events.jsonl").exists())
        # The task's MCP server was configured as i reads it: no complaint about mcp.json.
        self.assertNotIn("mcp.json", (logs / commands.STDERR_FILE).read_text())
        self.assertIn("memory", json.loads((Path(self.cfg["ok"]["config"]) / "mcp.json").read_text())["mcpServers"])

    def test_a_refused_key_is_classified_not_logged_in(self):
        logs, context, _ = self._run("refused")
        meta = context.metadata["i"]
        self.assertEqual(meta["stop_reason"], "error")
        self.assertEqual(meta["error"]["class"], "not_logged_in")
        self.assertEqual(context.n_input_tokens, 0)

    def test_killed_before_done_the_trajectory_stands_in(self):
        logs = Path(self.cfg["ok"]["logs"])
        with tempfile.TemporaryDirectory() as d:
            copy = Path(d)
            (copy / "trajectory.json").write_text((logs / "trajectory.json").read_text())
            lines = (logs / commands.EVENTS_FILE).read_text().splitlines()
            (copy / commands.EVENTS_FILE).write_text("\n".join(l for l in lines if '"type":"done"' not in l))
            s = summarize(copy)
            t = json.loads((copy / "trajectory.json").read_text())["final_metrics"]
            self.assertEqual(s["n_input_tokens"], t["total_prompt_tokens"])
            self.assertEqual(s["cost_usd"], t["total_cost_usd"])
            self.assertEqual(s["metadata"]["stop_reason"], "killed")


if __name__ == "__main__":
    unittest.main()
