"""The shell commands the adapter runs in a task's container, built from plain values.

Kept apart from the agent class so they can be checked without Harbor: what installs ``i``, what runs it
on an instruction with a model and the task's MCP servers, and where its outputs land.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

#: Where Harbor collects an agent's logs (EnvironmentPaths.agent_dir) inside the container.
AGENT_DIR = "/logs/agent"
INSTALL_DIR = "/installed-agent/i"
CONFIG_DIR = "/installed-agent/i-config"

EVENTS_FILE = "i-events.ndjson"
STDERR_FILE = "i-stderr.txt"
TRAJECTORY_FILE = "trajectory.json"
INSTRUCTION_FILE = "instruction.md"
SESSIONS_DIR = "sessions"

#: Harbor's "provider/model" names, and the wire each provider speaks to `i`.
PROVIDERS = {"openai": "openai", "anthropic": "anthropic", "responses": "responses", "openrouter": "openai"}
BASE_URLS = {"openrouter": "https://openrouter.ai/api/v1"}
KEY_VARS = {
    "openai": "OPENAI_API_KEY",
    "responses": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
}


class AdapterError(ValueError):
    """A setting the adapter cannot run with; the message names it and how to fix it."""


@dataclass(frozen=True)
class Target:
    provider: str
    model: str
    wire: str
    base_url: str | None


def parse_model(model_name: str | None, base_url: str | None = None) -> Target:
    """``anthropic/claude-sonnet-4-5`` → the wire, the model and the base URL `i` is given."""
    if not model_name or "/" not in model_name:
        raise AdapterError(
            f"model {model_name!r}: give it as provider/model, e.g. -m anthropic/claude-sonnet-4-5 "
            f"(providers: {', '.join(sorted(PROVIDERS))})"
        )
    provider, model = model_name.split("/", 1)
    if provider not in PROVIDERS or not model:
        raise AdapterError(
            f"model {model_name!r}: unknown provider {provider!r}; use one of {', '.join(sorted(PROVIDERS))}"
        )
    return Target(provider, model, PROVIDERS[provider], base_url or BASE_URLS.get(provider))


def _field(server: Any, name: str) -> Any:
    return server.get(name) if isinstance(server, Mapping) else getattr(server, name, None)


def mcp_file(servers: Iterable[Any] | None) -> dict[str, Any]:
    """The task's MCP servers (Harbor's MCPServerConfig: name, transport, command, args, url) as mcp.json."""
    out: dict[str, Any] = {}
    for s in servers or []:
        name = str(_field(s, "name") or "")
        if not name:
            raise AdapterError("an MCP server of the task has no name")
        transport = str(_field(s, "transport") or "stdio").replace("_", "-")
        if transport == "stdio":
            command = _field(s, "command")
            if not command:
                raise AdapterError(f"MCP server {name}: stdio needs a command")
            entry: dict[str, Any] = {"command": str(command), "args": [str(a) for a in _field(s, "args") or []]}
        elif transport in ("sse", "streamable-http", "http"):
            url = _field(s, "url")
            if not url:
                raise AdapterError(f"MCP server {name}: {transport} needs a url")
            entry = {"type": "sse" if transport == "sse" else "http", "url": str(url)}
        else:
            raise AdapterError(f"MCP server {name}: unknown transport {transport!r} (stdio, sse, streamable-http)")
        # The task's servers run without asking: a benchmark run has nobody to ask.
        entry["auto_approve"] = "*"
        out[name] = entry
    return {"mcpServers": out}


def write_file_command(path: str, text: str) -> str:
    """A command that writes ``text`` to ``path`` exactly (no shell expansion of its content)."""
    return f"mkdir -p {shlex.quote(path.rsplit('/', 1)[0])} && printf '%s' {shlex.quote(text)} > {shlex.quote(path)}"


def install_command(version: str | None, method: str, release_url: str | None) -> str:
    """Installs `i` as root: the release archive checked against SHA256SUMS, or the npm package."""
    if method == "npm":
        spec = f"i-agent@{version}" if version else "i-agent"
        return (
            "set -eu; command -v npm >/dev/null || { echo 'i: npm is not in this image; use install=release' >&2; exit 1; }; "
            f"npm install -g {shlex.quote(spec)} && i --version"
        )
    if method != "release":
        raise AdapterError(f"install {method!r}: give release or npm")
    if not release_url:
        raise AdapterError("install=release needs release_url (where i-<platform>.tar.gz and SHA256SUMS are)")
    base = release_url.rstrip("/")
    script = f"""set -eu
case "$(uname -m)" in x86_64|amd64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) echo "i: no build for $(uname -m)" >&2; exit 1 ;; esac
name="i-linux-$arch.tar.gz"
mkdir -p {INSTALL_DIR} && cd {INSTALL_DIR}
curl -fsSL -o "$name" {shlex.quote(base)}/"$name"
curl -fsSL -o SHA256SUMS {shlex.quote(base)}/SHA256SUMS
grep "  $name\\$" SHA256SUMS | sha256sum -c - || {{ echo "i: $name does not match SHA256SUMS" >&2; exit 1; }}
tar -xzf "$name" && rm "$name"
ln -sf "$(find {INSTALL_DIR} -type f -name i -perm -u+x | head -n 1)" /usr/local/bin/i
i --version"""
    return f"bash -c {shlex.quote(script)}"


def run_command(target: Target, agent_dir: str = AGENT_DIR, extra_args: Iterable[str] = ()) -> str:
    """`i -p --json` on the instruction file, everything it writes under ``agent_dir``."""
    args = [
        "i",
        "-p",
        "--json",
        "--approve",
        "all",
        "--provider",
        target.wire,
        "-m",
        target.model,
        *(["--base-url", target.base_url] if target.base_url else []),
        "--trajectory",
        f"{agent_dir}/{TRAJECTORY_FILE}",
        "--session-dir",
        f"{agent_dir}/{SESSIONS_DIR}",
        *extra_args,
    ]
    line = " ".join(shlex.quote(a) for a in args)
    return (
        f"{line} < {shlex.quote(f'{agent_dir}/{INSTRUCTION_FILE}')} "
        f"> {shlex.quote(f'{agent_dir}/{EVENTS_FILE}')} 2> {shlex.quote(f'{agent_dir}/{STDERR_FILE}')}"
    )


def run_env(target: Target, get_env: Any, config_dir: str = CONFIG_DIR) -> dict[str, str]:
    """The run's environment: the provider's key as I_API_KEY, and i's own config folder."""
    key = get_env("I_API_KEY") or get_env(KEY_VARS[target.provider])
    if not key:
        raise AdapterError(
            f"{target.provider}: no API key; set {KEY_VARS[target.provider]} (or I_API_KEY) for the run, e.g. --ae {KEY_VARS[target.provider]}=…"
        )
    return {"I_API_KEY": key, "I_CONFIG_DIR": config_dir}


def config_files(target: Target, servers: Iterable[Any] | None) -> dict[str, str]:
    """i's config folder for the run: the task's MCP servers (user scope, so no trust prompt)."""
    return {"mcp.json": json.dumps(mcp_file(servers), indent=2)}
