#!/usr/bin/env python3
"""A replacement `compact` worker in Python, standard library only.

It speaks the worker protocol directly (NDJSON over stdin/stdout: one JSON object per line, replies
matched by id), answers `hello` with the compact module's declarations, and implements the four compact
hooks with a local summary: the latest user requests and the files touched, capped at 2048 UTF-8 bytes.
No model request is made. Bind it in bindings.json:

    {"compact": {"exec": ["/usr/bin/python3", "/abs/path/compactor.py", "--keep", "6"]}}
"""
import argparse
import json
import sys

HOOKS = ["compact_plan", "before_compact", "after_compact", "before_compact_commit"]
NOTES_MAX_BYTES = 2048


def turn_starts(history):
    """Indexes where a turn starts: a user/assistant message with every earlier tool call answered."""
    starts, unanswered = [], 0
    for i, m in enumerate(history):
        if i == 0:
            continue
        role = m.get("role")
        if role == "tool":
            unanswered = max(0, unanswered - 1)
            continue
        if role in ("user", "assistant") and unanswered == 0:
            starts.append(i)
        unanswered = len(m.get("tool_calls") or []) if role == "assistant" else 0
    return starts


def text_of(content):
    if isinstance(content, str):
        return content
    return "\n".join(p.get("text", "") for p in content if p.get("type") == "text")


def cap_bytes(text, limit):
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", errors="ignore")


def notes(messages):
    asks, files = [], {}
    for m in messages:
        text = " ".join(text_of(m.get("content", "")).split())
        if m.get("role") == "user" and text:
            asks.append(text[:160])
        for call in m.get("tool_calls") or []:
            try:
                path = json.loads(call.get("arguments") or "{}").get("path")
            except (ValueError, AttributeError):
                path = None
            if isinstance(path, str):
                files.setdefault(path, set()).add(call.get("name", "?"))
    parts = ["Notes from the python compactor (extractive, lossy):"]
    if asks:
        parts.append("User requests, latest first:\n" + "\n".join("- " + a for a in reversed(asks[-8:])))
    if files:
        latest = list(files.items())[-20:]
        parts.append("Files used:\n" + "\n".join("- %s (%s)" % (p, ", ".join(sorted(t))) for p, t in latest))
    return cap_bytes("\n\n".join(parts), NOTES_MAX_BYTES)


def handle(event, data, keep):
    if event == "hello":
        return dict(data, protocol=1, module="compact", hooks=HOOKS, tools=[])
    if event == "compact_plan":
        rec = (data.get("budget") or {}).get("recommendation")
        if data.get("force") is not True and rec not in ("compact", "over"):
            return dict(data, cut=None)
        history = data["history"]
        cut = None
        for i in reversed(turn_starts(history)):
            if i <= len(history) - keep:
                cut = i if i >= 2 else None
                break
        return dict(data, cut=cut, state=None if cut is None else {"by": "python-compactor"})
    if event == "before_compact":
        return dict(data, summary=notes(data["messages"]))
    if event == "after_compact":
        summary = data.get("summary", "").strip()
        if not summary:
            raise ValueError("the summary is empty")
        return dict(data, summary=summary)
    # before_compact_commit, and any event this worker does not handle: data unchanged.
    return data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep", type=int, default=6)
    keep = parser.parse_args().keep
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            reply = {"id": req["id"], "data": handle(req["event"], req["data"], keep)}
        except Exception as err:  # one failed request is reported, the worker keeps serving
            reply = {"id": req["id"], "error": "%s: %s" % (type(err).__name__, err)}
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
