"""A management command run inside the test process, exactly as its entry point would run it:
the same argument parsing, the same exit status and the same two streams, without the cost
of starting Python and Django again for every case. Each command keeps one test that runs it
as its own process."""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass

from django.core.management import get_commands, load_command_class


@dataclass(frozen=True)
class Done:
    """What one run of a command left: its exit status and both streams."""

    returncode: int
    stdout: str
    stderr: str


def run_command(name: str, *args: str, stdin: str = "") -> Done:
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            # Made inside the redirection: a command binds its streams when it is made.
            command = load_command_class(get_commands()[name], name)
            command.run_from_argv(["manage.py", name, *args])
        status = 0
    except SystemExit as leaving:
        status = leaving.code if isinstance(leaving.code, int) else int(leaving.code is not None)
    finally:
        sys.stdin = saved_stdin
    return Done(status, out.getvalue(), err.getvalue())
