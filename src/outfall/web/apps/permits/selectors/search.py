"""Finding applications: search and filters over what the user may see, for pages and the API.

Every search starts from `application_list_visible_to` (narrowed to one town's by
`application_list_in_view` when a page lists the selected town), so staff find their towns' cases
and applicants their own, whatever the filters say.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields

from django.db.models import F, QuerySet

from outfall.compliance.lifecycle import PermitState
from outfall.kernel.errors import InputError
from outfall.web.apps.kit.selectors import narrowed, text_in
from outfall.web.apps.permits.models import Application
from outfall.web.apps.permits.selectors.visibility import application_list_in_view

STATUS_VALUES = tuple(s.value for s in PermitState)
DATE_RANGES = (("submitted_from", "submitted_to"), ("complete_from", "complete_to"))


@dataclass(frozen=True)
class ApplicationSearch:
    """What to look for. Empty fields do not filter; date bounds are inclusive."""

    text: str = ""
    status: str = ""
    applicant: str = ""
    submitted_from: dt.date | None = None
    submitted_to: dt.date | None = None
    complete_from: dt.date | None = None
    complete_to: dt.date | None = None

    def __post_init__(self) -> None:
        if self.status and self.status not in STATUS_VALUES:
            raise InputError(
                "status", self.status, f"not a status (one of: {', '.join(STATUS_VALUES)})"
            )
        for start, end in DATE_RANGES:
            low, high = getattr(self, start), getattr(self, end)
            if low is not None and high is not None and high < low:
                raise InputError(
                    end,
                    high.isoformat(),
                    f"the end of the range is before its start ({start} {low.isoformat()})",
                )

    @property
    def is_empty(self) -> bool:
        return not any(getattr(self, f.name) for f in fields(self))

    def as_query(self) -> dict[str, str]:
        """The non-empty criteria as query-string values (for links and the map's markers)."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value:
                out[f.name] = value.isoformat() if isinstance(value, dt.date) else str(value)
        return out


def application_search(
    user, criteria: ApplicationSearch | None = None, *, town=None
) -> QuerySet[Application]:
    """The applications `user` may see that meet `criteria`, newest first; with `town`, a staff
    member's of that town only (an applicant's own stay, whatever their town)."""
    c = criteria or ApplicationSearch()
    qs = narrowed(
        application_list_in_view(user, town),
        state=c.status,
        submitted_on__gte=c.submitted_from,
        submitted_on__lte=c.submitted_to,
        complete_on__gte=c.complete_from,
        complete_on__lte=c.complete_to,
    )
    qs = text_in(qs, c.text, "number", "title", "site_address", "parcel_id")
    qs = text_in(
        qs,
        c.applicant,
        "applicant__username",
        "applicant__first_name",
        "applicant__last_name",
        "owner_name",
        "agent_name",
    )
    return qs.order_by(F("submitted_on").desc(nulls_last=True), "-created_at", "number")


def application_sites(
    user, criteria: ApplicationSearch | None = None, *, town=None
) -> QuerySet[Application]:
    """The found applications that have a location, for the map."""
    return (
        application_search(user, criteria, town=town).exclude(latitude=None).exclude(longitude=None)
    )
