"""The part of Harbor's installed-agent base the adapter relies on, for when Harbor is not installed.

Harbor itself provides ``BaseInstalledAgent`` (its constructor keeps logs_dir, model_name, the version,
the extra environment and the task's MCP servers; ``exec_as_root``/``exec_as_agent`` run a command in the
task's environment). Without Harbor (its package index is not always reachable) the adapter still
imports, and its tests drive it with an environment that runs the commands in a local shell.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any


def with_prompt_template(fn: Any) -> Any:
    @functools.wraps(fn)
    async def wrapper(self: Any, instruction: str, *args: Any, **kwargs: Any) -> Any:
        return await fn(self, instruction, *args, **kwargs)

    return wrapper


class BaseInstalledAgent:
    def __init__(
        self,
        logs_dir: Path,
        model_name: str | None = None,
        version: str | None = None,
        extra_env: dict[str, str] | None = None,
        mcp_servers: list[Any] | None = None,
        **_: Any,
    ) -> None:
        self.logs_dir = Path(logs_dir)
        self.model_name = model_name
        self._version = version
        self._extra_env = dict(extra_env or {})
        self.mcp_servers = list(mcp_servers or [])

    def _get_env(self, key: str) -> str | None:
        return self._extra_env.get(key)

    async def exec_as_root(self, environment: Any, command: str, env: dict[str, str] | None = None, **kw: Any) -> Any:
        return await environment.exec(command, env=env, user="root", **kw)

    async def exec_as_agent(self, environment: Any, command: str, env: dict[str, str] | None = None, **kw: Any) -> Any:
        return await environment.exec(command, env=env, **kw)
