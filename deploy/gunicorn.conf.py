"""gunicorn's settings for outfall's app servers (deploy/compose.yaml; the deployment test runs
the same file). Each app server is stateless, so any number of them run behind the proxy."""

import os

bind = os.environ.get("OUTFALL_BIND", "0.0.0.0:8000")
# Workers are processes; each request holds one for its whole length (a PDF, an export), so a
# few per core, with threads for the requests that wait on the database.
workers = int(os.environ.get("OUTFALL_WEB_WORKERS", "3"))
threads = int(os.environ.get("OUTFALL_WEB_THREADS", "2"))
timeout = int(os.environ.get("OUTFALL_WEB_TIMEOUT", "30"))
graceful_timeout = 20
# The proxy's X-Forwarded-Proto is read by Django (SECURE_PROXY_SSL_HEADER), not by gunicorn; the
# app port is reachable only from the proxy (compose publishes the proxy's port alone).
forwarded_allow_ips = os.environ.get("OUTFALL_FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = "-"
errorlog = "-"
# A request line or header larger than this is refused before Django sees it.
limit_request_line = 8190
# The app is imported once in the master and the workers fork from it (quicker to start, less
# memory); the database connections are opened by each worker, after the fork.
preload_app = True
# No control socket: a shared default path would let two servers on one machine (the test's,
# a developer's) answer each other's commands.
control_socket_disable = True
