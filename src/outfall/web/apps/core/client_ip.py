"""The client's address, the one every per-address limit counts by (the public forms' and API's
rate limits, the login lockout).

With no proxy in front (OUTFALL_PROXY_COUNT=0, the default) it is REMOTE_ADDR. Behind N trusted
reverse proxies it is the address the outermost of them saw: the N-th entry from the right of
X-Forwarded-For (entries further left are the client's own claims and cannot be trusted).
Without this, every client behind the proxy shares one bucket — a town's whole population
sharing the ten reports an hour.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_ip(request) -> str:
    """The client's IP address as text (REMOTE_ADDR when the forwarded chain is short or bad)."""
    remote = request.META.get("REMOTE_ADDR", "") or "0.0.0.0"
    proxies = int(getattr(settings, "OUTFALL_PROXY_COUNT", 0) or 0)
    if proxies <= 0:
        return remote
    chain = [p.strip() for p in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if p]
    if len(chain) < proxies:
        return remote
    candidate = chain[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
