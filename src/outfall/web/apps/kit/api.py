"""The one way the JSON API's routers list, page, find a town and say why: every router
(`apps/api/api.py`, `assets.py`, `enforcement.py`, `idde.py`) builds its answers with these.

- `page`: a query set as one page (`count`, `limit`, `offset`, `items`), a bad limit or offset a
  422 naming the field (`page_check` alone);
- `town_named` / `town_or_current`: the `town` query parameter (a slug) as a Town;
- `attrs`: a record's fields of the same names as a dict;
- `reasons_out` / `reason_dicts`: the law's reasons (objects, or dicts as stored) as the API
  shows them, each with its section;
- `steps_out`: the lifecycle steps open from a state, each with who may take it and what
  stands in the way;
- `refused_body`: the 409 answer to a lifecycle step the law refuses;
- `found` (from `kit.selectors`): a record or a 404 saying what is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.http import Http404

from outfall.kernel.errors import InputError
from outfall.web.apps.core.models import Town
from outfall.web.apps.kit.selectors import found

__all__ = [
    "REFUSED",
    "attrs",
    "found",
    "page",
    "page_check",
    "reason_dicts",
    "reasons_out",
    "refused_body",
    "steps_out",
    "town_named",
    "town_or_current",
    "user_of",
]

REFUSED = "The law does not allow this step now."


def user_of(request):
    """The caller (a bearer token's user or the session's)."""
    return request.auth


MAX_OFFSET = 10_000_000
"""No list holds this many rows; a larger offset (2^63 overflows the database's integer) is
refused as bad input."""


def page_check(
    limit: int, offset: int, *, most: int = 200, offset_why: str = "must not be negative"
) -> None:
    """A bad page is bad input naming the field (call it first where other input is checked
    after it)."""
    if not 1 <= limit <= most:
        raise InputError("limit", limit, f"must be between 1 and {most}")
    if offset < 0:
        raise InputError("offset", offset, offset_why)
    if offset > MAX_OFFSET:
        raise InputError("offset", offset, f"must be at most {MAX_OFFSET:,}")


def page(
    qs,
    limit: int,
    offset: int,
    out: Callable[[Any], dict],
    *,
    most: int = 200,
    offset_why: str = "must not be negative",
) -> dict:
    """`limit` rows of `qs` from `offset`, each through `out`, with the total count."""
    page_check(limit, offset, most=most, offset_why=offset_why)
    return {
        "count": qs.count(),
        "limit": limit,
        "offset": offset,
        "items": [out(x) for x in qs[offset : offset + limit]],
    }


def town_named(slug: str) -> Town | None:
    """The town of `slug`; none for an empty slug; an unknown one is bad input."""
    if not slug:
        return None
    town = Town.objects.filter(slug=slug).first()
    if town is None:
        raise InputError("town", slug, "no such town")
    return town


def town_or_current(request, slug: str) -> Town:
    """The town of `slug`, or the caller's current town when none is named (404 if none)."""
    if slug:
        return town_named(slug)
    town = getattr(request, "town", None)
    if town is None:
        raise Http404("No town")
    return town


def attrs(obj, *names: str) -> dict:
    """`obj`'s attributes `names` under the same names."""
    return {name: getattr(obj, name) for name in names}


def reasons_out(reasons: Iterable | None) -> list[dict]:
    """The law's reasons (objects with `citation` and `text`) as the API shows them."""
    return [{"citation": r.citation, "text": r.text} for r in reasons or ()]


def reason_dicts(items: Iterable[dict] | None) -> list[dict]:
    """Reasons kept as dicts on a record (a stored determination) as the API shows them."""
    return [{"citation": r["citation"], "text": r["text"]} for r in items or ()]


def steps_out(
    machine,
    state,
    facts,
    policy,
    *,
    user,
    obj,
    citation: Callable[[Any], str] | None = None,
    extra: Callable[[Any], dict] | None = None,
) -> list[dict]:
    """Each step of the lifecycle `machine` open from `state`: its name, label and section
    (`citation(t)`, default the step's own), anything `extra(t)` adds, the `policy` action that
    governs it, whether `user` may take it on `obj`, and what the law says stands in the way."""
    out = []
    for t in machine.available(state):
        action = policy.TRANSITION_ACTIONS[t.name]
        out.append(
            {
                "name": t.name,
                "label": t.label,
                "citation": citation(t) if citation else t.section,
                **(extra(t) if extra else {}),
                "action": action,
                "permitted": policy.can(user, action, obj),
                "blockers": reasons_out(machine.blockers(t.name, state, facts)),
            }
        )
    return out


def refused_body(exc) -> dict:
    """The 409 answer to a lifecycle step the law refuses (a TransitionNotAllowed)."""
    return {
        "detail": REFUSED,
        "transition": exc.transition,
        "state": exc.state,
        "reasons": reasons_out(exc.reasons),
    }
