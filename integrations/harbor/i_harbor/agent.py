"""`i` as a Harbor installed agent (``harbor run --agent-import-path i_harbor.agent:IAgent``).

install: the release archive for the container's platform, checked against SHA256SUMS, or the npm
package; run: ``i -p --json`` on the instruction with the ``provider/model`` Harbor gives and the task's
MCP servers, its events, stderr, session and ATIF trajectory all written under /logs/agent, which Harbor
collects; populate_context_post_run: tokens, cache, cost and the run's facts from the last event, else
from the trajectory's final_metrics.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

from . import commands
from .results import summarize

try:
    from harbor.agents.installed.base import BaseInstalledAgent, with_prompt_template
except ImportError:  # Harbor is not installed: the adapter's own tests supply what they need.
    from ._harbor_absent import BaseInstalledAgent, with_prompt_template  # type: ignore[assignment]


class IAgent(BaseInstalledAgent):
    """The `i` coding agent. Agent kwargs (``--ak``): install, release_url, base_url, max_turns."""

    SUPPORTS_ATIF: bool = True

    def __init__(
        self,
        logs_dir: Path,
        *args: Any,
        install: str | None = None,
        release_url: str | None = None,
        base_url: str | None = None,
        max_turns: int | str | None = None,
        agent_dir: str = commands.AGENT_DIR,
        config_dir: str = commands.CONFIG_DIR,
        **kwargs: Any,
    ) -> None:
        self._release_url = release_url or os.environ.get("I_RELEASE_URL")
        self._install = install or ("release" if self._release_url else "npm")
        self._base_url = base_url
        self._max_turns = str(max_turns) if max_turns not in (None, "") else None
        self._agent_dir = agent_dir
        self._config_dir = config_dir
        super().__init__(logs_dir, *args, **kwargs)

    @staticmethod
    def name() -> str:
        return "i"

    def get_version_command(self) -> str | None:
        return "i --version"

    def parse_version(self, stdout: str) -> str:
        """``i --version`` prints ``i 1.2.3``; Harbor records the version alone."""
        words = stdout.strip().split()
        return words[-1] if len(words) == 2 and words[0] == "i" else stdout.strip()

    def _env(self, key: str) -> str | None:
        getter = getattr(self, "_get_env", None)
        value = getter(key) if callable(getter) else None
        return value or os.environ.get(key)

    async def install(self, environment: Any) -> None:
        command = commands.install_command(getattr(self, "_version", None), self._install, self._release_url)
        await self.exec_as_root(environment, command=command)

    def _servers(self) -> list[Any]:
        return list(getattr(self, "mcp_servers", None) or [])

    def build_run(self, instruction: str) -> list[tuple[str, dict[str, str] | None]]:
        """The commands of a run, in order, with the environment each needs."""
        target = commands.parse_model(getattr(self, "model_name", None), self._base_url)
        env = commands.run_env(target, self._env, self._config_dir)
        steps: list[tuple[str, dict[str, str] | None]] = [
            (f"mkdir -p {shlex.quote(self._agent_dir)} {shlex.quote(self._config_dir)}", None),
            (commands.write_file_command(f"{self._agent_dir}/{commands.INSTRUCTION_FILE}", instruction), None),
        ]
        for name, text in commands.config_files(target, self._servers()).items():
            steps.append((commands.write_file_command(f"{self._config_dir}/{name}", text), None))
        extra = ["--max-turns", self._max_turns] if self._max_turns else []
        steps.append((commands.run_command(target, self._agent_dir, extra), env))
        return steps

    @with_prompt_template
    async def run(self, instruction: str, environment: Any, context: Any) -> None:
        steps = self.build_run(instruction)
        for i, (command, env) in enumerate(steps):
            last = i == len(steps) - 1
            try:
                await self.exec_as_agent(environment, command=command, env=env)
            except Exception:
                # A failed run still leaves its events and trajectory: the context is filled either way.
                if not last:
                    raise
            if last:
                self.populate_context_post_run(context)

    def populate_context_post_run(self, context: Any) -> None:
        s = summarize(Path(self.logs_dir))
        context.n_input_tokens = s["n_input_tokens"]
        context.n_cache_tokens = s["n_cache_tokens"]
        context.n_output_tokens = s["n_output_tokens"]
        context.cost_usd = s["cost_usd"]
        metadata = dict(getattr(context, "metadata", None) or {})
        metadata["i"] = s["metadata"]
        context.metadata = metadata
