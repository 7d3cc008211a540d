"""Reports of suspected illicit discharges: intake from the public form and Open311 clients,
then the Department's triage (§ 267-5). Article I covers flows entering the town's storm
drains (§ 267-3), so a pin must fall within the town's rough bounding box.

Every write is atomic, audited under its section, and notices to the reporter leave on commit.
The reporter's secret is returned once and stored only as its SHA-256 digest.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.validators import URLValidator, validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from outfall.compliance.lifecycle.idde import (
    OPEN_INVESTIGATION_STATES,
    REPORT_PUBLIC_STATUS,
    ReportFacts,
    ReportState,
    attempt,
)
from outfall.kernel.errors import InputError
from outfall.web.apps.core.models import Membership
from outfall.web.apps.core.roles import Role
from outfall.web.apps.idde.models import Open311Client, Report, ReportSettings
from outfall.web.apps.kit.images import photo_checked
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.kit.mail import mail_on_commit, site_url
from outfall.web.apps.kit.writes import audit, write_lock

APPLICABILITY = "§ 267-3"
ADMINISTRATION = "§ 267-5"
DEFAULT_BOUNDS_MARGIN_DEG = 0.1
DEFAULT_PHOTO_MAX_BYTES = 10 * 1024 * 1024
SERVICE_CODE = "illicit_discharge"
SOURCE_WORDS = {"web": "the public report form", "open311": "Open311"}
TRACKING_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"

# What a reporter may say they saw: the codes the web form and the Open311 definition share.
SEEN_CHOICES = (
    ("dry_weather_flow", "Water flowing from a pipe or drain when it has not rained"),
    ("odor", "A smell (sewage, rotten eggs, gasoline, chemicals)"),
    ("unusual_color", "Unusual colour or cloudy water"),
    ("suds_or_foam", "Suds or foam"),
    ("oil_sheen", "An oily sheen"),
    ("sewage_or_solids", "Sewage, toilet paper or other solids"),
    ("dumping", "Someone pouring or dumping something into a drain"),
    ("other", "Something else (describe it)"),
)
FLOWING_CHOICES = (("yes", "Yes"), ("no", "No"), ("unknown", "Not sure"))


@dataclass(frozen=True)
class SubmittedReport:
    """A new report and the secret its reporter needs to follow it (shown once, never stored)."""

    report: Report
    token: str

    @property
    def status_path(self) -> str:
        return report_status_path(self.report, self.token)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def report_status_path(report: Report, token: str) -> str:
    return reverse("idde_public:report_status", args=[report.tracking_number, token])


def report_settings(town) -> ReportSettings:
    """The town's report settings, or the defaults when the town has chosen none."""
    found = ReportSettings.objects.filter(town=town).first()
    return found or ReportSettings(town=town, open311_api_key_required=False)


def report_bounds(town) -> tuple[float, float, float, float]:
    """(south, north, west, east): the town's map centre plus or minus its margin, in degrees."""
    margin = report_settings(town).bounds_margin_deg
    if margin is None:
        margin = float(
            getattr(settings, "OUTFALL_REPORT_BOUNDS_MARGIN_DEG", DEFAULT_BOUNDS_MARGIN_DEG)
        )
    lat, lon = town.map_center_lat, town.map_center_lon
    return lat - margin, lat + margin, lon - margin, lon + margin


def report_location_check(town, latitude, longitude, address: str) -> None:
    """A report needs a pin or an address; a pin must fall within the town (§ 267-3)."""
    if (latitude is None) != (longitude is None):
        field, value = ("longitude", None) if longitude is None else ("latitude", None)
        raise InputError(field, value, "give both latitude and longitude, or neither")
    if latitude is None and not (address or "").strip():
        raise InputError(
            "address", address, "say where: drop a pin on the map or type an address", APPLICABILITY
        )
    if latitude is None:
        return
    south, north, west, east = report_bounds(town)
    if not south <= latitude <= north:
        raise InputError(
            "latitude",
            latitude,
            f"is outside {town.name} (between {south:.4f} and {north:.4f}); this bylaw covers "
            "only the town's own storm drains",
            APPLICABILITY,
        )
    if not west <= longitude <= east:
        raise InputError(
            "longitude",
            longitude,
            f"is outside {town.name} (between {west:.4f} and {east:.4f}); this bylaw covers "
            "only the town's own storm drains",
            APPLICABILITY,
        )


def photo_max_bytes() -> int:
    limit = int(getattr(settings, "OUTFALL_REPORT_PHOTO_MAX_BYTES", DEFAULT_PHOTO_MAX_BYTES))
    return min(limit, settings.UPLOAD_MAX_BYTES)


def report_photo_check(uploaded) -> tuple[bytes, str, str]:
    """Check a photo by extension, magic bytes and decoding; return it without its metadata
    (kit.images.photo_checked), so a reporter's photo does not reveal where their phone was.
    Returns (bytes, content type, extension)."""
    return photo_checked(uploaded, field="photo", max_bytes=photo_max_bytes())


DESCRIPTION_MAX_CHARS = 4000
"""The longest description a report takes, by the form and by Open311 alike."""


def report_submit(
    town,
    *,
    description: str,
    latitude: float | None = None,
    longitude: float | None = None,
    address: str = "",
    seen: list[str] | tuple[str, ...] = (),
    flowing_now: str = "",
    photo=None,
    media_url: str = "",
    contact_name: str = "",
    contact_email: str = "",
    contact_phone: str = "",
    source: str = "web",
    open311_client: Open311Client | None = None,
    actor=None,
) -> SubmittedReport:
    """Receive a report (§ 267-3): tracking number, secret, audit; the reporter is e-mailed."""
    description = (description or "").strip()
    if not description:
        raise InputError("description", description, "say what you saw")
    for field, value, limit in (
        ("description", description, DESCRIPTION_MAX_CHARS),
        ("address", address, 200),
        ("contact_name", contact_name, 120),
        ("contact_email", contact_email, 254),
        ("contact_phone", contact_phone, 40),
    ):
        if value and len(value) > limit:
            raise InputError(field, f"{len(value)} characters", f"the limit is {limit}")
    report_location_check(town, latitude, longitude, address)
    codes = {code for code, _ in SEEN_CHOICES}
    unknown = [s for s in seen if s not in codes]
    if unknown:
        raise InputError("seen", unknown, f"not one of: {', '.join(sorted(codes))}")
    if flowing_now and flowing_now not in dict(FLOWING_CHOICES):
        raise InputError("flowing_now", flowing_now, "answer yes, no or unknown")
    if contact_email:
        _checked(validate_email, "contact_email", contact_email, "is not an e-mail address")
    if media_url:
        _checked(URLValidator(schemes=["http", "https"]), "media_url", media_url, "is not a URL")
    picture = report_photo_check(photo) if photo is not None else None

    token = secrets.token_urlsafe(18)
    now = timezone.now()
    with transaction.atomic():
        report = Report(
            town=town,
            tracking_number=_new_tracking_number(town, now),
            service_code=SERVICE_CODE,
            submitted_at=now,
            latitude=latitude,
            longitude=longitude,
            address=(address or "").strip()[:200],
            description=description,
            attributes={"seen": list(seen), "flowing_now": flowing_now or "unknown"},
            media_url=media_url,
            contact_name=contact_name.strip()[:120],
            contact_email=contact_email.strip(),
            contact_phone=contact_phone.strip()[:40],
            reporter=actor if getattr(actor, "is_authenticated", False) else None,
            source=source,
            open311_client=open311_client,
            status=REPORT_PUBLIC_STATUS[ReportState.RECEIVED],
            state=ReportState.RECEIVED,
            status_token_digest=token_digest(token),
        )
        if picture is not None:
            data, _content_type, ext = picture
            report.photo_sha256 = hashlib.sha256(data).hexdigest()
            report.photo.save(f"{report.tracking_number}{ext}", ContentFile(data), save=False)
        report.save()
        via = f"Open311 client {open311_client.name}" if open311_client else source
        audit(
            actor,
            report,
            "report.submit",
            APPLICABILITY,
            f"Report {report.tracking_number} received ({via})",
        )
        _mail_department(report)
        _mail_reporter(
            report,
            f"Your report {report.tracking_number} was received",
            "Thank you for telling the Department of Public Works about a possible illicit "
            "discharge to the storm drains.\n\n"
            f"Tracking number: {report.tracking_number}\n"
            f"Follow it here (keep this link private): {site_url(report_status_path(report, token))}\n",
        )
    return SubmittedReport(report, token)


def report_triage(report: Report, *, actor, status_note: str, expected_on: dt.date | None):
    """Triage the report (§ 267-5): the public note and the date the reporter may expect."""
    with write_lock(report) as report:
        if report.state in (ReportState.RECEIVED, ReportState.TRIAGED):
            _move(report, "triage", ReportFacts())
            report.triaged_at = report.triaged_at or timezone.now()
        _publish(
            report,
            actor,
            "report.triage",
            f"Report {report.tracking_number}: public status updated",
            status_note,
            expected_on,
            status_note=status_note,
            expected_on=expected_on,
        )
    return report


def report_mark_duplicate(report: Report, *, duplicate_of: str, actor, status_note: str = ""):
    """Mark the report a duplicate of an earlier one, naming it by tracking number (§ 267-5)."""
    earlier = Report.objects.filter(tracking_number=(duplicate_of or "").strip()).first()
    if duplicate_of and earlier is None:
        raise InputError("duplicate_of", duplicate_of, "no report has this tracking number")
    with write_lock(report) as report:
        facts = ReportFacts(
            duplicate_of=earlier.tracking_number if earlier else None,
            own_tracking_number=report.tracking_number,
            duplicate_is_same_town=earlier is None or earlier.town_id == report.town_id,
        )
        _move(report, "mark_duplicate", facts)
        report.duplicate_of = earlier
        _publish(
            report,
            actor,
            "report.duplicate",
            f"Report {report.tracking_number} is a duplicate of {earlier.tracking_number}",
            status_note or "Already reported: the Department is dealing with it.",
        )
    return report


def report_close(report: Report, *, actor, status_note: str):
    """Close the report with a note for the reporter (§ 267-5)."""
    if not (status_note or "").strip():
        raise InputError(
            "status_note", status_note, "tell the reporter why it is closed", ADMINISTRATION
        )
    with write_lock(report) as report:
        open_count = report.investigations.filter(state__in=OPEN_INVESTIGATION_STATES).count()
        _move(report, "close_report", ReportFacts(open_investigations=open_count))
        _publish(
            report, actor, "report.close", f"Report {report.tracking_number} closed", status_note
        )
    return report


def report_investigation_started(report: Report, *, actor, investigation) -> Report:
    """Move a report under investigation; call inside the investigation service's transaction."""
    report = lock_row(report, "town")
    _move(report, "start_investigation", ReportFacts())
    report.save()
    audit(
        actor,
        report,
        "report.investigate",
        APPLICABILITY,
        f"Report {report.tracking_number}: investigation {investigation.number} opened",
        case=investigation,
    )
    return report


def _move(report: Report, step: str, facts: ReportFacts) -> None:
    transition = attempt("report", step, report.state, facts)
    report.state = transition.target.value
    report.status = REPORT_PUBLIC_STATUS[transition.target]


def _publish(
    report: Report,
    actor,
    action: str,
    summary: str,
    status_note: str,
    expected_on: dt.date | None = None,
    /,
    **changes,
) -> None:
    """Save the report with the note and the date the reporter sees, audit it under § 267-5
    and tell the reporter."""
    _set_public(report, status_note, expected_on)
    report.save()
    audit(actor, report, action, ADMINISTRATION, summary, **changes)
    _mail_status_change(report)


def _set_public(report: Report, status_note: str, expected_on: dt.date | None) -> None:
    report.status_note = (status_note or "").strip()
    if expected_on is not None:
        noon = dt.datetime.combine(expected_on, dt.time(12))
        report.expected_at = timezone.make_aware(noon)
    elif report.status in ("closed", "duplicate"):
        report.expected_at = None


def _new_tracking_number(town, now) -> str:
    """R-<year>-<sequence in the town's year>-<4 random letters>: readable, not guessable."""
    year = timezone.localtime(now).year
    sequence = Report.objects.filter(town=town, submitted_at__year=year).count() + 1
    while True:
        suffix = "".join(secrets.choice(TRACKING_ALPHABET) for _ in range(4))
        number = f"R-{year}-{sequence:04d}-{suffix}"
        if not Report.objects.filter(tracking_number=number).exists():
            return number


def _checked(validator, field: str, value: str, why: str) -> None:
    from django.core.exceptions import ValidationError

    try:
        validator(value)
    except ValidationError:
        raise InputError(field, value, why) from None


def _mail_status_change(report: Report) -> None:
    expected = (
        f"\nExpected next step by: {timezone.localdate(report.expected_at).isoformat()}"
        if report.expected_at
        else ""
    )
    _mail_reporter(
        report,
        f"Your report {report.tracking_number}: {report.get_status_display()}",
        f"Status: {report.get_status_display()}\n{report.status_note}{expected}\n\n"
        "Use the private link you were sent when you made the report to see it at any time, "
        "or look it up with its tracking number and the code you were given.\n",
        link=reverse("idde_public:report_lookup"),
        link_label="Look up your report",
    )


def department_recipients(town) -> list[str]:
    """Who is told of each new report (§ 267-5): the addresses the town chose, or else every
    DPW staff member and DPW Director of the town who has an e-mail address."""
    chosen = _addresses(report_settings(town).notify_emails)
    if chosen:
        return chosen
    members = Membership.objects.filter(
        town=town, role__in=[Role.DPW_STAFF, Role.DPW_DIRECTOR], user__is_active=True
    ).exclude(user__email="")
    return sorted({m.user.email for m in members.select_related("user")})


def _addresses(raw: str) -> list[str]:
    return [line.strip() for line in (raw or "").replace(",", "\n").splitlines() if line.strip()]


def report_settings_update(town, *, actor, notify_emails: str, open311_api_key_required: bool):
    """The town's choices for public reports (§ 267-5): who is told of each new report and
    whether Open311 clients need an api_key. Each address is checked; the audit row keeps the
    old and the new values."""
    addresses = _addresses(notify_emails)
    for address in addresses:
        _checked(validate_email, "notify_emails", address, "is not an e-mail address")
    with transaction.atomic():
        current, _ = ReportSettings.objects.select_for_update().get_or_create(town=town)
        before = {
            "notify_emails": current.notify_emails,
            "open311_api_key_required": current.open311_api_key_required,
        }
        current.notify_emails = "\n".join(addresses)
        current.open311_api_key_required = open311_api_key_required
        current.save(update_fields=["notify_emails", "open311_api_key_required"])
        after = {
            "notify_emails": current.notify_emails,
            "open311_api_key_required": current.open311_api_key_required,
        }
        audit(
            actor,
            current,
            "report.settings",
            ADMINISTRATION,
            f"Report settings of {town.name} changed",
            **{k: [before[k], after[k]] for k in after if before[k] != after[k]},
        )
    return current


def _mail_department(report: Report) -> None:
    """Tell the Department of a new report as it arrives (§ 267-5), by the outbox."""
    client = report.open311_client
    via = f"the 311 app {client.name} (Open311)" if client else SOURCE_WORDS.get(report.source)
    seen = ", ".join(
        dict(SEEN_CHOICES).get(k, k) for k in (report.attributes or {}).get("seen", [])
    )
    place = report.address or (
        f"{report.latitude:.5f}, {report.longitude:.5f}" if report.latitude is not None else ""
    )
    mail_on_commit(
        f"New report of a possible illicit discharge: {report.tracking_number}",
        f"A report came in through {via or 'another channel'}.\n\n"
        f"Tracking number: {report.tracking_number}\n"
        f"Where: {place or 'not given'}\n"
        f"Seen: {seen or 'not said'}\n"
        f"What was reported: {report.description}\n\n"
        f"Triage it here: {site_url(reverse('idde:report_detail', args=[report.pk]))}\n",
        department_recipients(report.town),
        about=report,
    )


def _mail_reporter(report: Report, subject: str, body: str, **link) -> None:
    mail_on_commit(subject, body, [report.contact_email], about=report, **link)
