import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
# Every view, the API and its schemas loaded as the process starts, not by the first phone
# to ask (which would wait seconds longer than the next, and longer than the database's
# deadlines when the database is away).
get_resolver().url_patterns  # noqa: B018
