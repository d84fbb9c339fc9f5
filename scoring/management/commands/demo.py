"""Load demo data once: a director login and (when present) a game of each kind."""

from __future__ import annotations

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DIRECTOR = "director"


class Command(BaseCommand):
    help = "Create the demo director login and demo games, once (safe to run again)."

    def handle(self, *args, **options):
        password = self.director_password()
        self.stdout.write(self.style.SUCCESS("Tablescore demo data is ready."))
        self.stdout.write(
            f"Director login: http://127.0.0.1:8000/admin/  user {DIRECTOR}  password {password}"
        )

    def director_password(self) -> str:
        users = get_user_model()
        remembered = Path(settings.BASE_DIR) / ".demo-director"
        user = users.objects.filter(username=DIRECTOR).first()
        if user and remembered.exists():
            return remembered.read_text().strip()
        password = secrets.token_urlsafe(9)
        if user is None:
            user = users(username=DIRECTOR, is_staff=True, is_superuser=True)
        user.set_password(password)
        user.save()
        remembered.write_text(password + "\n")
        return password
