"""What every response the web tests fetch must show of the Content-Security-Policy: the header,
and on an HTML page the request's nonce on each inline script (a script element the browser
would run that has no `src`). JSON data blocks (`json_script`) are data, never run, and need none.
Only Django's own debug pages (404 and 500 with DEBUG on, never in production) go without it, as
django-csp leaves them so their inline styles work. What is checked follows the response's own
policy: a page that sets a narrower one of its own (a standalone report: no script at all, its
inline styles allowed) is held to that.
"""

from __future__ import annotations

import re

from django.conf import settings

HEADER = "Content-Security-Policy"
SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
ATTRIBUTE = re.compile(r"""([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""")
NONCE_SOURCE = re.compile(r"'nonce-([A-Za-z0-9+/=]+)'")
RUNNABLE_TYPES = {"", "text/javascript", "application/javascript", "module"}
INLINE_HANDLER = re.compile(r"<[a-zA-Z][^>]*\son[a-z]+\s*=", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"<[a-zA-Z][^>]*\sstyle\s*=", re.IGNORECASE)
STYLE_ELEMENT = re.compile(r"<style\b", re.IGNORECASE)


def policy_of(response) -> dict[str, list[str]]:
    """The header's directives, each with its sources."""
    directives = {}
    for part in response[HEADER].split(";"):
        if part.strip():
            name, *sources = part.split()
            directives[name] = sources
    return directives


def csp_problems(response) -> list[str]:
    """Every way `response` falls short of the policy (an empty list when it does not)."""
    if not response.has_header(HEADER):
        if settings.DEBUG and response.status_code in (404, 500):
            return []
        return [f"no {HEADER} header"]
    content_type = response.get("Content-Type", "")
    if getattr(response, "streaming", False) or not content_type.startswith("text/html"):
        return []
    html = response.content.decode(response.charset or "utf-8", errors="replace")
    policy = policy_of(response)
    scripts = policy.get("script-src", policy.get("default-src", []))
    styles = policy.get("style-src", policy.get("default-src", []))
    nonces = NONCE_SOURCE.findall(" ".join(scripts))
    problems = []
    for match in SCRIPT_TAG.finditer(html):
        attrs = {
            m.group(1).lower(): next((g for g in m.groups()[1:] if g is not None), "")
            for m in ATTRIBUTE.finditer(match.group(1))
        }
        if "src" in attrs or attrs.get("type", "").lower() not in RUNNABLE_TYPES:
            continue
        if not nonces or attrs.get("nonce") != nonces[0]:
            problems.append(f"an inline script without the request's nonce: {match.group(0)}")
    checks = [(INLINE_HANDLER, "an inline event handler")]
    if "'unsafe-inline'" not in styles:
        checks += [(STYLE_ATTRIBUTE, "a style attribute"), (STYLE_ELEMENT, "a <style> element")]
    for pattern, what in checks:
        found = pattern.search(html)
        if found:
            problems.append(f"{what}, which the policy refuses: {found.group(0)[:120]}")
    return problems
