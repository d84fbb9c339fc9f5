"""What every page may offer about paper: the sizes to choose from and the site's own.

Pages of other apps (the my-games page's print form) show the choice without
importing printing: the template reads ``paper_choices`` and ``site_paper``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from printing.paper import default_paper, paper_choices


def paper(request: HttpRequest) -> dict[str, Any]:
    return {"paper_choices": paper_choices(), "site_paper": default_paper()}
