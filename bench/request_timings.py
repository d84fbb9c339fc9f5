"""The served application with each request's time written down: for a bench that asks
where a server's time goes (``BENCH_TIMINGS=<file>``: one line a request, its kind, its
answer, the seconds it took and the seconds of CPU its thread spent)."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

_OUT = os.environ.get("BENCH_TIMINGS", "")
_LOCK = threading.Lock()


def _kind(path: str, query: str) -> str:
    if path.startswith("/api/"):
        return "deal"
    poll = "poll" if "rev=" in query else "page"
    for name in ("standings", "projector", "players"):
        if f"/{name}/" in path or path.rstrip("/").endswith(name):
            return f"{name} {poll}"
    return "other"


def application(environ: dict[str, Any], start_response: Any) -> Any:
    from config.wsgi import application as served  # (imported once, by the server)

    started, cpu = time.perf_counter(), time.thread_time()
    status: list[str] = []

    def starting(code: str, headers: Any, *rest: Any) -> Any:
        status.append(code.split()[0])
        return start_response(code, headers, *rest)

    body = list(served(environ, starting))
    if _OUT:
        line = (
            f"{_kind(environ.get('PATH_INFO', ''), environ.get('QUERY_STRING', ''))}\t"
            f"{status[0] if status else '-'}\t{time.perf_counter() - started:.4f}\t"
            f"{time.thread_time() - cpu:.4f}\n"
        )
        with _LOCK, open(_OUT, "a") as out:
            out.write(line)
    return body
