"""An event's own sign-up page and its announcements.

``SignUp`` holds the director's settings of the page (off until turned on); each person who
signs up is a ``Registration``: pending the director's approval, waiting for a place, or
an entrant (the ``Entrant`` made for them), or refused or withdrawn. ``Announcement`` is a
short line the desk writes for the players' pages and the projector.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tournaments.models.tokens import new_private_token

# Limits stated once: the sign-up form, the API's schemas and the services read them here.
CONTACT_LONGEST = 120
ANNOUNCEMENT_LONGEST = 200
VENUE_LONGEST = 120
CAP_LARGEST = 10_000


class SignUp(models.Model):
    """The director's settings of an event's sign-up page (off until turned on)."""

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="signup"
    )
    open = models.BooleanField(default=False)
    # At most this many entrants come in through the page (None: no cap); the rest wait.
    cap = models.PositiveIntegerField(null=True, blank=True)
    # On: each registration waits for the director's approval.
    approval = models.BooleanField(default=False)
    # Past this moment the page takes no registration (None: until the event closes).
    closes_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.event}: sign-up {'open' if self.open else 'off'}"


class Registration(models.Model):
    """One person who signed up (or whom the director wrote in on the registrations)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the director's approval"
        WAITING = "waiting", "On the waiting list"
        ENTRANT = "entrant", "In the event"
        REFUSED = "refused", "Refused"
        WITHDRAWN = "withdrawn", "Withdrawn"

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="registrations"
    )
    name = models.CharField(max_length=40)
    name_folded = models.CharField(max_length=80, db_index=True, editable=False)
    # Seen by the director only: never on a public page.
    contact = models.CharField(max_length=CONTACT_LONGEST, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices)
    # The waiting list's order (and the pending ones'): smallest first.
    place = models.PositiveIntegerField(default=0)
    entrant = models.OneToOneField(
        "tournaments.Entrant",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="registration",
    )
    # The person's own status page (/e/<event>/signup/<token>/): whoever holds it may
    # withdraw this registration.
    token = models.CharField(max_length=32, unique=True, default=new_private_token, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["place", "id"]
        indexes = [models.Index(fields=["event", "status", "place"])]

    def __str__(self) -> str:
        return f"{self.event}: {self.name} ({self.status})"


class Announcement(models.Model):
    """A short line from the desk ("Round 3 starts at 20:15"), newest shown first."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(max_length=ANNOUNCEMENT_LONGEST)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.event}: {self.text}"
