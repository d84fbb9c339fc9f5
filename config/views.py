from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config import health


@require_GET
def home(request):
    return render(request, "home.html")


@never_cache
@require_GET
def healthz(request):
    """Readiness: 200 while pages and score entry can be served (see config.health)."""
    body, status = health.report()
    return JsonResponse(body, status=status)


@never_cache
@require_GET
def healthz_monitor(request):
    """Monitoring: 503 as soon as any part fails."""
    body, status = health.report(monitoring=True)
    return JsonResponse(body, status=status)


@never_cache
@require_GET
def healthz_live(request):
    """Liveness: the process answers; no part is checked."""
    return JsonResponse({"status": "ok"})


@require_GET
def manifest(request):
    return JsonResponse(
        {
            "name": "Tablescore",
            "short_name": "Tablescore",
            "description": "Score pad and tournament desk for table card games.",
            "start_url": "/",
            "display": "standalone",
            "background_color": "#f6f4ee",
            "theme_color": "#1f4d3a",
            "icons": [
                {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
                {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            ],
        },
        content_type="application/manifest+json",
    )


@require_GET
def service_worker(request):
    """static/sw.js served from the site root, so that it may look after every table page."""
    path = finders.find("sw.js")
    if path:
        with open(path, "rb") as source:
            script = source.read()
    elif staticfiles_storage.exists("sw.js"):
        with staticfiles_storage.open("sw.js") as source:
            script = source.read()
    else:
        raise Http404("no service worker")
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
