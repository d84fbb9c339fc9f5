"""A club night from a laptop: Tablescore served to the phones on the hall's wifi (or the
laptop's own hotspot), with no internet needed.

Run by ``deploy/bin/venue`` (``make venue``). It finds the laptop's address on the local
network (or takes VENUE_ADDRESS), keeps everything in one folder (VENUE_DATA, default
``venue-data/`` in the checkout: the SQLite database, the secret key, the director's first
password), migrates, collects the static files, makes a director login the first time,
prints the address players open with a QR code of it, and runs the real web server
(``deploy/bin/web``) on that address. Tasks run inside the web server (no Redis needed)
unless REDIS_URL is set. Stopping it and starting it again loses nothing.
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable

# Interfaces that are never the hall's network: containers, bridges, tunnels.
NOT_THE_HALL = re.compile(r"^(lo|docker|br-|veth|virbr|tun|tap|wg|zt|tailscale)")


def addresses_from_ip(output: str) -> list[tuple[str, str]]:
    """(interface, address) pairs from ``ip -4 -o addr show up scope global``."""
    found = []
    for line in output.splitlines():
        match = re.match(r"^\d+:\s+(\S+)\s+inet\s+([\d.]+)/\d+", line)
        if match and not NOT_THE_HALL.match(match.group(1)):
            found.append((match.group(1), match.group(2)))
    return found


def best_address(pairs: list[tuple[str, str]]) -> str | None:
    """The wifi's address first (wl*), then a wired one; None when the laptop has none."""
    wireless = [address for name, address in pairs if name.startswith("wl")]
    return (wireless or [address for _, address in pairs] or [None])[0]


def local_address() -> str:
    """The laptop's address on the hall's network: VENUE_ADDRESS, or the first address of
    a wifi or wired interface; 127.0.0.1 (this laptop only) when it has none."""
    chosen = os.environ.get("VENUE_ADDRESS", "").strip()
    if chosen:
        return chosen
    try:
        shown = subprocess.run(
            ["ip", "-4", "-o", "addr", "show", "up", "scope", "global"],
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        shown = ""
    address = best_address(addresses_from_ip(shown))
    if address is None:
        try:
            address = socket.gethostbyname(socket.gethostname())
        except OSError:
            address = "127.0.0.1"
    return address


def kept_secret(folder: Path) -> str:
    """The site's secret key, made once and kept: logins and links outlive a restart."""
    path = folder / "secret-key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50) + "\n")
        path.chmod(0o600)
    return path.read_text().strip()


def venue_environment(folder: Path, address: str, port: int) -> dict[str, str]:
    base = f"http://{address}:{port}"
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        SECRET_KEY=os.environ.get("SECRET_KEY") or kept_secret(folder),
        ALLOWED_HOSTS=",".join(dict.fromkeys([address, "localhost", "127.0.0.1"])),
        CSRF_TRUSTED_ORIGINS=base,
        TABLESCORE_BASE_URL=base,
        # Plain http on the hall's network: no HTTPS redirect, no Secure-only cookies.
        SECURE_SSL_REDIRECT="0",
        SECURE_COOKIES="0",
        SECURE_HSTS_SECONDS="0",
        SQLITE_PATH=str(folder / "db.sqlite3"),
        STATIC_ROOT=str(folder / "static"),
        MEDIA_ROOT=str(folder / "media"),
        BIND=os.environ.get("VENUE_BIND", f"0.0.0.0:{port}"),
        WEB_CONCURRENCY=os.environ.get("WEB_CONCURRENCY", "2"),
    )
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([PYTHON, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT, check=True)


def first_director(folder: Path, env: dict[str, str]) -> str | None:
    """A director login the first time the folder is used; its password, else None."""
    remembered = folder / "director-password"
    if remembered.exists():
        return None
    password = secrets.token_urlsafe(9)
    manage(
        {**env, "DJANGO_SUPERUSER_PASSWORD": password},
        "createsuperuser",
        "--noinput",
        "--username",
        "director",
        "--email",
        "director@example.org",
    )
    remembered.write_text(password + "\n")
    remembered.chmod(0o600)
    return password


def banner(base: str, password: str | None, folder: Path) -> str:
    import segno

    qr = segno.make(base + "/", error="m")
    lines = [
        "",
        "Tablescore for tonight's club night",
        f"  Players open:  {base}/   (the QR code below; table cards print it too)",
        f"  Director desk: {base}/desk/",
    ]
    if password:
        lines.append(f"  Director login: director / {password}  (kept in {folder})")
    else:
        lines.append(f"  Director login: as before (first password in {folder}/director-password)")
    lines += [
        "  Phones must join the same wifi (or this laptop's hotspot); no internet is needed.",
        "  Over plain http the page's own outbox keeps a phone's rounds through dropped",
        "  wifi; installing the app, Background Sync and keeping the screen on need HTTPS",
        "  (see the README). Stop with Ctrl-C; starting again keeps everything.",
        "",
    ]
    return "\n".join(lines) + "\n" + qr_text(qr)


def qr_text(qr: Any) -> str:
    import io

    out = io.StringIO()
    qr.terminal(out=out, compact=True)
    return out.getvalue()


def main() -> None:
    folder = Path(os.environ.get("VENUE_DATA", str(ROOT / "venue-data"))).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    address = local_address()
    port = int(os.environ.get("VENUE_PORT", "8000"))
    env = venue_environment(folder, address, port)
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    password = first_director(folder, env)
    print(banner(env["TABLESCORE_BASE_URL"], password, folder), flush=True)
    os.execve(str(ROOT / "deploy" / "bin" / "web"), [str(ROOT / "deploy" / "bin" / "web")], env)


if __name__ == "__main__":
    main()
