from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

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
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, in the request's language as LocaleMiddleware resolves it
    (a browser fetches it without cookies: its Accept-Language then decides)."""
    return JsonResponse(
        {
            "name": "Tablescore",
            "short_name": "Tablescore",
            "description": gettext("Score pad and tournament desk for table card games."),
            "lang": translation.get_language(),
            "dir": "rtl" if translation.get_language_bidi() else "ltr",
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
def service_worker(request: HttpRequest) -> HttpResponse:
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


@never_cache
@require_GET
def switch_language(request: HttpRequest, code: str) -> HttpResponse:
    """The switch on every page: the reader's language kept in Django's language cookie
    (the phone remembers it), then back to the page it was pressed on. A plain link, so
    that it works on a kept page and without a script; it changes nothing but the reader's
    own preference."""
    back = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = "/"
    if code not in dict(settings.LANGUAGES):
        raise Http404("no such language")
    response = HttpResponseRedirect(back)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


_catalogue = JavaScriptCatalog.as_view()


@cache_control(public=True, max_age=24 * 3600)
@require_GET
def javascript_catalogue(request: HttpRequest, code: str) -> HttpResponseBase:
    """Django's JavaScript catalogue of one language (gettext() and interpolate() for the
    scripts): a plain script file of this site, so the pages' policy lets it run; its
    address names its language, so that any cache (the service worker's too) keeps it."""
    if code not in dict(settings.LANGUAGES):
        raise Http404("no such language")
    with translation.override(code):
        response = _catalogue(request)
    return response
