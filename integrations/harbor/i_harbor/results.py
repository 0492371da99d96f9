"""What a finished run left in the agent's log folder, read back for Harbor's AgentContext.

`i -p --json` ends its NDJSON stream with a `done` event (an `error` event when it failed) that carries
the run's totals: session, stop reason, requests, tokens in/out/cached, cost, wall time. When the run was
killed before that line, the ATIF trajectory's final_metrics (written at SIGTERM too) stand in.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .commands import EVENTS_FILE, STDERR_FILE, TRAJECTORY_FILE

#: Words `i`'s error lines keep stable (src/provider/error-phrases.ts), for retry classifiers.
RATE_LIMIT_PHRASE = "rate limit reached"
OVERLOADED_PHRASE = "the provider is overloaded"
NOT_LOGGED_IN_PHRASE = "not logged in"


def read_events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            ev = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(ev, dict):
            out.append(ev)
    return out


def last_totals(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The run's last `done` or `error` event, which carries its totals."""
    for ev in reversed(events):
        if ev.get("type") in ("done", "error"):
            return ev
    return None


def failure_kind(message: str) -> str | None:
    """rate_limit, overloaded or not_logged_in, when the error line says so."""
    low = message.lower()
    if RATE_LIMIT_PHRASE in low:
        return "rate_limit"
    if OVERLOADED_PHRASE in low:
        return "overloaded"
    if NOT_LOGGED_IN_PHRASE in low:
        return "not_logged_in"
    return None


def summarize(logs_dir: Path) -> dict[str, Any]:
    """Tokens, cost and what the run was, from the events (else the trajectory)."""
    events = read_events(logs_dir / EVENTS_FILE)
    last = last_totals(events)
    trajectory_path = logs_dir / TRAJECTORY_FILE
    trajectory: dict[str, Any] | None = None
    if trajectory_path.exists():
        try:
            trajectory = json.loads(trajectory_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            trajectory = None
    out: dict[str, Any] = {
        "n_input_tokens": None,
        "n_cache_tokens": None,
        "n_output_tokens": None,
        "cost_usd": None,
        "metadata": {},
    }
    meta: dict[str, Any] = out["metadata"]
    if last is not None:
        usage = last.get("usage") or {}
        out["n_input_tokens"] = usage.get("input_tokens")
        out["n_output_tokens"] = usage.get("output_tokens")
        out["n_cache_tokens"] = usage.get("cache_read_tokens", 0 if usage else None)
        out["cost_usd"] = last.get("cost_usd")
        for k in ("session_id", "stop_reason", "turns", "duration_ms"):
            if k in last:
                meta[k] = last[k]
        if last.get("type") == "error":
            meta["error"] = {"kind": last.get("kind"), "message": last.get("message")}
            kind = failure_kind(str(last.get("message", "")))
            if kind:
                meta["error"]["class"] = kind
    elif trajectory is not None:
        f = trajectory.get("final_metrics") or {}
        out["n_input_tokens"] = f.get("total_prompt_tokens")
        out["n_output_tokens"] = f.get("total_completion_tokens")
        out["n_cache_tokens"] = f.get("total_cached_tokens")
        out["cost_usd"] = f.get("total_cost_usd")
        meta["session_id"] = trajectory.get("session_id")
        meta["stop_reason"] = "killed"
    stderr = logs_dir / STDERR_FILE
    if "error" not in meta and stderr.exists():
        lines = [l for l in stderr.read_text(encoding="utf-8", errors="replace").splitlines() if l.strip()]
        if lines and last is None:
            meta["error"] = {"message": lines[-1]}
            kind = failure_kind(lines[-1])
            if kind:
                meta["error"]["class"] = kind
    meta["trajectory"] = TRAJECTORY_FILE if trajectory is not None else None
    if trajectory is not None:
        meta["n_steps"] = len(trajectory.get("steps") or [])
    return out
