"""Every command the README shows, run as written with no environment but PATH.

The commands run in a copy of the checkout (so the embedded database they create is
their own), with the README's output compared line by line ("…" stands for anything).
A server, by contrast, must refuse to start without a SECRET_KEY.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RECORD = {
    "game": "roolz",
    "players": ["Ann", "Ben", "Cat", "Dan"],
    "rounds": [
        {"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}},
        {"bidder": 1, "bid": 185, "won": {"A": 65, "B": 235}},
    ],
}
EMPTY_ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}


def shown_commands(text: str) -> list[tuple[str, list[str]]]:
    """(command, output lines) for every "$ " command of the README's sh blocks using manage.py."""
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        lines = block.splitlines()
        index = 0
        while index < len(lines):
            if not lines[index].startswith("$ "):
                index += 1
                continue
            command = [lines[index][2:]]
            index += 1
            while command[-1].endswith("\\") or "\n".join(command).count("'") % 2:
                command.append(lines[index])
                index += 1
            output: list[str] = []
            while index < len(lines) and not lines[index].startswith("$ "):
                output.append(lines[index])
                index += 1
            text_command = "\n".join(command)
            if "manage.py" in text_command:
                found.append((text_command, output))
    return found


def inline_commands(text: str) -> list[str]:
    return re.findall(r"`(\.venv/bin/python manage\.py [^`]*)`", text)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    """A copy of the checkout with no database, no settings, and the project's virtualenv."""
    copy = tmp_path_factory.mktemp("fresh") / "tablescore"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "*.sqlite3*", "__pycache__", ".pytest_cache", "staticfiles", "media"
        ),
    )
    (copy / ".venv").symlink_to((ROOT / ".venv").resolve())
    (copy / "RECORD.json").write_text(json.dumps(RECORD), encoding="utf-8")
    return copy


def run(command: str, cwd: Path, env: dict[str, str] | None = None):
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env or EMPTY_ENV,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def matches(expected: list[str], actual: list[str]) -> bool:
    if len(expected) != len(actual):
        return False
    for want, got in zip(expected, actual, strict=True):
        pattern = ".*".join(re.escape(part) for part in want.split("…"))
        if not re.fullmatch(pattern, got):
            return False
    return True


def test_the_readme_shows_the_commands_that_serve_nothing():
    text = README.read_text(encoding="utf-8")
    commands = " ".join(c for c, _ in shown_commands(text)) + " ".join(inline_commands(text))
    for name in ("score", "scoresheet", "schedule", "importgame", "exportgame"):
        assert f"manage.py {name}" in commands


def test_every_readme_command_runs_as_written_with_no_environment(checkout):
    text = (checkout / "README.md").read_text(encoding="utf-8")
    for command, output in shown_commands(text):
        done = run(command, checkout)
        assert done.returncode == 0, f"{command}\n{done.stderr}"
        shown = [line.rstrip() for line in done.stdout.splitlines()]
        if output:
            assert matches(output, shown), f"{command}\nREADME:\n{output}\nactual:\n{shown}"
    assert (checkout / "OUT.pdf").read_bytes().startswith(b"%PDF")
    assert (checkout / "blank.pdf").read_bytes().startswith(b"%PDF")
    assert json.loads((checkout / "scored.json").read_text())["totals"] == [-135, 345, -135, 345]
    exported = json.loads((checkout / "exported.json").read_text())
    assert exported["rounds"] == RECORD["rounds"]
    for command in inline_commands(text):
        done = run(command, checkout)
        assert done.returncode == 0, f"{command}\n{done.stderr}"


@pytest.mark.parametrize(
    "command",
    [
        ".venv/bin/python manage.py runserver 127.0.0.1:0 --noreload",
        '.venv/bin/python -c "import config.wsgi"',
        '.venv/bin/python -c "import config.asgi"',
    ],
)
def test_a_server_refuses_to_start_without_a_secret_key(checkout, command):
    done = run(command, checkout)
    assert done.returncode != 0
    assert "Set SECRET_KEY" in done.stderr


def test_a_server_starts_with_a_secret_key(checkout):
    done = run(
        '.venv/bin/python -c "import config.wsgi"', checkout, {**EMPTY_ENV, "SECRET_KEY": "x" * 50}
    )
    assert done.returncode == 0, done.stderr
