"""gunicorn's settings for Tablescore, read from the environment (deploy/bin/web uses it).

Threads beside processes: a request that waits on the database never keeps the next one
(a phone's save, a liveness probe) waiting behind it.
"""

import os

bind = os.environ.get("BIND", "127.0.0.1:8000").split(",")
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
threads = int(os.environ.get("WEB_THREADS", "4"))
worker_class = "gthread"
# A request is never cut off before the database's own deadlines have answered it.
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("WEB_GRACEFUL_TIMEOUT", "20"))
keepalive = 5
accesslog = os.environ.get("ACCESS_LOG", "-") or None
logger_class = "config.access_log.PrivateTokensLeftOut"  # no player's own link in a line
errorlog = "-"
# The proxy in front (deploy/Caddyfile) says https in X-Forwarded-Proto; Django reads it
# (SECURE_PROXY_SSL_HEADER) and NUM_PROXIES says how many addresses of X-Forwarded-For
# are the proxies' own.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
