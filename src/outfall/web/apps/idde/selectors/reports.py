"""Reads of illicit discharge reports, always through who may see them (§ 267-5).

DPW staff and the Director see every report of their town; a reporter sees only the public
status of their own report, by its tracking number and secret; nobody else sees any.
Possible duplicates are reports of the same town made near the same place and time.
"""

from __future__ import annotations

import datetime as dt
import hmac
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils import timezone

from outfall.compliance.lifecycle.idde import REPORT_STATE_LABELS, ReportState
from outfall.kernel.geo import box_around, distance_m
from outfall.web.apps.assets import policy as assets_policy
from outfall.web.apps.assets.selectors import Place, catchment_of
from outfall.web.apps.idde.models import Report
from outfall.web.apps.idde.selectors.visible import dpw_rows
from outfall.web.apps.idde.services.reports import FLOWING_CHOICES, SEEN_CHOICES, token_digest
from outfall.web.apps.kit.selectors import row_or_404

NEARBY_METRES = 150.0
NEARBY_DAYS = 7
NEAREST_STRUCTURES = 3


def report_list_visible_to(user, *, town=None, status: str | None = None) -> QuerySet[Report]:
    """Reports `user` may see, newest first; optionally of one town and one public status."""
    qs = dpw_rows(Report, user, town, status=status)
    return qs.select_related("town").order_by("-submitted_at", "-pk")


def report_get(user, pk: int) -> Report:
    """The report if `user` may see it; 404 otherwise (its existence is not disclosed)."""
    return row_or_404(report_list_visible_to(user), pk, "No such report")


def report_get_by_token(tracking_number: str, token: str) -> Report | None:
    """The report whose tracking number and secret both match; None otherwise."""
    report = Report.objects.select_related("town").filter(tracking_number=tracking_number).first()
    if report is None or not report.status_token_digest:
        return None
    if not hmac.compare_digest(report.status_token_digest, token_digest(token or "")):
        return None
    return report


def report_get_by_open311_token(town, token: str) -> Report | None:
    """The report created with this Open311 token (the reporter's secret), in `town`."""
    if not token:
        return None
    return Report.objects.filter(town=town, status_token_digest=token_digest(token)).first()


@dataclass(frozen=True)
class PublicStatus:
    """Only what the holder of a report's secret may know of it: status, the public note, the
    expected date, and what they reported themselves (their words, what they saw, the place and
    whether there is a photo), shown back to them."""

    tracking_number: str
    submitted_on: dt.date
    status: str
    status_label: str
    status_note: str
    expected_on: dt.date | None
    updated_on: dt.date
    has_photo: bool = False
    description: str = ""
    seen: tuple[str, ...] = ()
    flowing_now: str = ""
    place: str = ""


SEEN_WORDS = dict(SEEN_CHOICES)
FLOWING_WORDS = dict(FLOWING_CHOICES)


def report_public_status(report: Report) -> PublicStatus:
    return PublicStatus(
        tracking_number=report.tracking_number,
        submitted_on=timezone.localdate(report.submitted_at),
        status=report.status,
        status_label=report.get_status_display(),
        status_note=report.status_note,
        expected_on=timezone.localdate(report.expected_at) if report.expected_at else None,
        updated_on=timezone.localdate(report.updated_at),
        has_photo=bool(report.photo),
        description=report.description,
        seen=tuple(SEEN_WORDS.get(k, k) for k in (report.attributes or {}).get("seen", [])),
        flowing_now=FLOWING_WORDS.get((report.attributes or {}).get("flowing_now", ""), ""),
        place=report.address
        or (
            f"{report.latitude:.5f}, {report.longitude:.5f} (the pin you placed)"
            if report.latitude is not None and report.longitude is not None
            else ""
        ),
    )


@dataclass(frozen=True)
class Nearby:
    """Another report near this one: how far (None when matched by address) and how long apart."""

    report: Report
    metres: float | None
    days_apart: float


def report_list_nearby(
    report: Report, *, metres: float = NEARBY_METRES, days: int = NEARBY_DAYS
) -> list[Nearby]:
    """Reports of the same town within `metres` (or at the same address) and `days` of this one."""
    window = dt.timedelta(days=days)
    qs = Report.objects.filter(
        town_id=report.town_id,
        submitted_at__gte=report.submitted_at - window,
        submitted_at__lte=report.submitted_at + window,
    ).exclude(pk=report.pk)
    near = Q(pk__in=[])
    if report.latitude is not None:
        box = box_around(report.latitude, report.longitude, metres)
        near |= Q(
            latitude__range=(box.min_lat, box.max_lat),
            longitude__range=(box.min_lon, box.max_lon),
        )
    address = _normal_address(report.address)
    if address:
        near |= Q(address__iexact=report.address.strip())
    out: list[Nearby] = []
    for other in qs.filter(near).order_by("submitted_at"):
        distance = None
        if report.latitude is not None and other.latitude is not None:
            distance = distance_m(
                report.latitude, report.longitude, other.latitude, other.longitude
            )
        same_address = bool(address) and _normal_address(other.address) == address
        if (distance is not None and distance <= metres) or same_address:
            apart = abs((other.submitted_at - report.submitted_at).total_seconds()) / 86_400
            out.append(Nearby(other, distance, apart))
    return out


@dataclass(frozen=True)
class PublicNearby:
    """What the public may see of a nearby report: when, and its public status. Nothing else."""

    submitted_on: dt.date
    status_label: str


def report_list_nearby_public(report: Report) -> list[PublicNearby]:
    return [
        PublicNearby(timezone.localdate(n.report.submitted_at), n.report.get_status_display())
        for n in report_list_nearby(report)
    ]


def report_state_label(report: Report) -> str:
    return REPORT_STATE_LABELS.get(ReportState(report.state), report.state)


def _normal_address(address: str) -> str:
    return " ".join((address or "").lower().replace(",", " ").split())


def report_place(user, report: Report) -> Place | None:
    """The report's catchment and its nearest structures of the MS4 (`assets.selectors.
    catchment_of`), for a reader who may see the inventory (§ 267-5); None for anyone else."""
    if not assets_policy.can(user, "asset.view", town=report.town):
        return None
    return catchment_of(report.town, report.latitude, report.longitude, n=NEAREST_STRUCTURES)


PUBLIC_ROUNDING = 3
"""Decimal places a pin is rounded to on the public list: 0.001° is about 110 m north–south
and 80 m east–west here, enough to show the street, not the house."""
KIND_WORDS = {"illicit_discharge": "Illicit discharge to the storm drains"}
"""The kind of a report in words, as Open311 names its service."""


@dataclass(frozen=True)
class PublicReport:
    """What anyone may know of a report (§ 267-5: the public may follow the Department's work):
    its number, kind and status in words, the day it was made and where, to about 100 m. Never
    the reporter, their description (the model marks no description public), photo, address or
    the exact pin."""

    tracking_number: str
    kind: str
    status_label: str
    submitted_on: dt.date
    latitude: float | None
    longitude: float | None

    @property
    def place(self) -> str:
        if self.latitude is None:
            return ""
        return f"{self.latitude:.{PUBLIC_ROUNDING}f}, {self.longitude:.{PUBLIC_ROUNDING}f}"


def report_list_public(town) -> QuerySet[Report]:
    """The town's reports anyone may see listed, newest first (duplicates are shown once, as
    the report they repeat)."""
    return (
        Report.objects.filter(town=town)
        .exclude(status=Report.Status.DUPLICATE)
        .only("tracking_number", "service_code", "status", "submitted_at", "latitude", "longitude")
        .order_by("-submitted_at", "-pk")
    )


def report_public(report: Report) -> PublicReport:
    rounded = report.latitude is not None and report.longitude is not None
    return PublicReport(
        tracking_number=report.tracking_number,
        kind=KIND_WORDS.get(report.service_code, "Report to the storm drain system"),
        status_label=report.get_status_display(),
        submitted_on=timezone.localdate(report.submitted_at),
        latitude=round(report.latitude, PUBLIC_ROUNDING) if rounded else None,
        longitude=round(report.longitude, PUBLIC_ROUNDING) if rounded else None,
    )


def report_get_public(town, tracking_number: str) -> PublicReport | None:
    report = report_list_public(town).filter(tracking_number=tracking_number).first()
    return report_public(report) if report else None
