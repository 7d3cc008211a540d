"""Illicit discharges: what residents report, what the DPW finds, and what the law says of it."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from outfall.compliance.lifecycle.idde import INVESTIGATION_STATE_LABELS, InvestigationState
from outfall.law.s267_07_discharges import verdict_label
from outfall.web.apps.core.files import PrivateName
from outfall.web.apps.kit.fields import optional_link
from outfall.web.apps.kit.snapshots import DeterminationField, DeterminationSnapshot

USER = settings.AUTH_USER_MODEL


class Report(models.Model):
    """A report of a suspected illicit discharge, from the public form or an Open311 client."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        INVESTIGATING = "investigating", "Under investigation"
        CLOSED = "closed", "Closed"
        DUPLICATE = "duplicate", "Duplicate"

    town = models.ForeignKey("core.Town", on_delete=models.PROTECT, related_name="idde_reports")
    tracking_number = models.CharField(max_length=20, unique=True)
    service_code = models.CharField(max_length=40, default="illicit_discharge")
    submitted_at = models.DateTimeField()
    latitude = models.FloatField(null=True, blank=True)
    longitude = models.FloatField(null=True, blank=True)
    address = models.CharField(max_length=200, blank=True)
    description = models.TextField()
    photo = models.FileField(upload_to=PrivateName("idde/photos"), null=True, blank=True)
    contact_name = models.CharField(max_length=120, blank=True)
    contact_email = models.EmailField(blank=True)
    contact_phone = models.CharField(max_length=40, blank=True)
    reporter = optional_link(USER, models.SET_NULL)
    source = models.CharField(max_length=10, default="web")
    status = models.CharField(max_length=20, choices=Status.choices, default="open")
    status_note = models.TextField(blank=True, help_text="shown on the public status page")
    expected_at = models.DateTimeField(null=True, blank=True)
    duplicate_of = optional_link("self", models.SET_NULL)
    updated_at = models.DateTimeField(auto_now=True)
    state = models.CharField(
        max_length=20, default="received", db_index=True, help_text="lifecycle state (internal)"
    )
    status_token_digest = models.CharField(
        max_length=64, blank=True, db_index=True, help_text="SHA-256 of the reporter's secret"
    )
    attributes = models.JSONField(default=dict, blank=True, help_text="what was seen, coded")
    photo_sha256 = models.CharField(max_length=64, blank=True)
    media_url = models.URLField(max_length=500, blank=True, help_text="Open311 media_url")
    open311_client = optional_link("idde.Open311Client", models.SET_NULL)
    triaged_at = models.DateTimeField(null=True, blank=True)

    SOURCE_LABELS = {"web": "Public report form", "open311": "Open311 app"}

    @property
    def source_label(self) -> str:
        """Where the report came from, in words."""
        return self.SOURCE_LABELS.get(self.source, self.source)


class Investigation(models.Model):
    """The DPW's investigation of a discharge: source tracing and the § 267-7 evaluation."""

    town = models.ForeignKey(
        "core.Town", on_delete=models.PROTECT, related_name="idde_investigations"
    )
    number = models.CharField(max_length=30, unique=True)
    report = optional_link(Report, models.SET_NULL, related_name="investigations")
    asset = optional_link("assets.Asset", models.SET_NULL, related_name="investigations")
    catchment_investigation = optional_link("assets.CatchmentInvestigation", models.SET_NULL)
    opened_on = models.DateField()
    state = models.CharField(max_length=30, default="open", db_index=True)
    property_address = models.CharField(max_length=200, blank=True)
    parcel_id = models.CharField(max_length=60, blank=True)
    responsible_name = models.CharField(max_length=200, blank=True)
    responsible_address = models.CharField(max_length=300, blank=True)
    source_tracing = models.TextField(blank=True)
    discharge_kind = models.CharField(max_length=60, blank=True)
    conditions = models.JSONField(default=dict, blank=True)
    verdict = models.CharField(max_length=20, blank=True)
    closed_on = models.DateField(null=True, blank=True)
    assigned_to = optional_link(USER, models.SET_NULL)
    responsible_email = models.EmailField(blank=True)
    referred_on = models.DateField(null=True, blank=True)
    discharge_eliminated = models.BooleanField(default=False)
    flow_removed_gpd = models.FloatField(
        null=True,
        blank=True,
        help_text="estimated flow of the illicit discharge removed, gallons per day (MS4 report)",
    )
    closing_note = models.TextField(blank=True)

    @property
    def state_label(self) -> str:
        try:
            return INVESTIGATION_STATE_LABELS[InvestigationState(self.state)]
        except ValueError:
            return self.state

    @property
    def verdict_label(self) -> str:
        """The § 267-7 verdict in words ("" before any evaluation)."""
        return verdict_label(self.verdict) if self.verdict else ""


class Open311Client(models.Model):
    """A 311 app or service allowed to submit reports through the Open311 GeoReport v2 API."""

    town = models.ForeignKey("core.Town", on_delete=models.CASCADE, related_name="open311_clients")
    name = models.CharField(max_length=120)
    key_digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the api_key")
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    key_prefix = models.CharField(
        max_length=12, blank=True, help_text="the key's first characters, to tell keys apart"
    )
    created_by = optional_link(USER, models.SET_NULL, related_name="+")
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = optional_link(USER, models.SET_NULL, related_name="+")


class ReportSettings(models.Model):
    """A town's choices for public reports: Open311 keys and how far from the centre a pin may be."""

    town = models.OneToOneField(
        "core.Town", on_delete=models.CASCADE, related_name="idde_report_settings"
    )
    open311_api_key_required = models.BooleanField(default=False)
    bounds_margin_deg = models.FloatField(
        null=True,
        blank=True,
        help_text="degrees of latitude/longitude either side of the map centre (blank: default)",
    )
    notify_emails = models.TextField(
        blank=True,
        help_text="who is told of each new report, one address a line (blank: the town's DPW "
        "staff and DPW Director)",
    )


class DischargeDetermination(DeterminationSnapshot):
    """A snapshot of the law's § 267-7 evaluation of a discharge, kept as made, with the kind
    and conditions it was asked about."""

    investigation = models.ForeignKey(
        Investigation, on_delete=models.CASCADE, related_name="determinations"
    )
    kind = models.CharField(max_length=60)
    conditions = models.JSONField(default=dict)
    made_by = models.ForeignKey(USER, on_delete=models.PROTECT)


class DischargePermit(models.Model):
    """A DPW sump-pump discharge permit (§ 267-7D(2)(g), from 5-10-2022)."""

    town = models.ForeignKey(
        "core.Town", on_delete=models.PROTECT, related_name="discharge_permits"
    )
    number = models.CharField(max_length=30, unique=True)
    property_address = models.CharField(max_length=200)
    applicant_name = models.CharField(max_length=200)
    applicant_email = models.EmailField(blank=True)
    intake_inside_structure = models.BooleanField(default=True)
    applied_on = models.DateField()
    conditions = models.TextField(blank=True)
    issued_on = models.DateField(null=True, blank=True)
    inspected_on = models.DateField(null=True, blank=True)
    state = models.CharField(max_length=20, default="applied")
    first_discharge_on = models.DateField(null=True, blank=True)
    refused_on = models.DateField(null=True, blank=True)
    refusal_reason = models.TextField(blank=True)
    inspection_planned_on = models.DateField(null=True, blank=True)
    inspection_passed = models.BooleanField(null=True)
    inspection_findings = models.JSONField(default=dict, blank=True)
    inspection_notes = models.TextField(blank=True)
    determination = DeterminationField(
        help_text="the law's § 267-7 answer at the last step, as made"
    )
    document = models.FileField(
        upload_to=PrivateName("idde/discharge_permits"), null=True, blank=True
    )


class DischargeNotice(models.Model):
    """A notice given to the DPW before a discharge: dye test, pool draining, advance approval."""

    class Kind(models.TextChoices):
        DYE_TEST = "dye_test", "Dye test verbal notification (§ 267-7D(2)(m))"
        POOL_DRAINING = "pool_draining", "Pool draining declaration (§ 267-7D(2)(k))"
        ADVANCE_APPROVAL = "advance_approval", "Advance written approval (§ 267-7D(2)(o))"

    town = models.ForeignKey(
        "core.Town", on_delete=models.PROTECT, related_name="discharge_notices"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    property_address = models.CharField(max_length=200)
    person_name = models.CharField(max_length=200)
    received_at = models.DateTimeField()
    planned_for = models.DateTimeField()
    details = models.JSONField(default=dict, blank=True)
    approved = models.BooleanField(null=True)
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT)


class Spill(models.Model):
    """A release reported under § 267-9, with its notification clocks."""

    class Material(models.TextChoices):
        OIL = "oil", "Oil"
        HAZARDOUS = "hazardous", "Hazardous material"
        NONHAZARDOUS = "nonhazardous", "Nonhazardous material"

    town = models.ForeignKey("core.Town", on_delete=models.PROTECT, related_name="spills")
    number = models.CharField(max_length=30, unique=True)
    facility = models.CharField(max_length=200)
    facility_address = models.CharField(max_length=200, blank=True)
    commercial_or_industrial = models.BooleanField(default=True)
    material = models.CharField(max_length=20, choices=Material.choices)
    description = models.TextField(blank=True)
    discovered_at = models.DateTimeField()
    fire_police_notified_at = models.DateTimeField(null=True, blank=True)
    department_notified_at = models.DateTimeField(null=True, blank=True)
    written_confirmation_on = models.DateField(null=True, blank=True)
    records_kept_until = models.DateField(null=True, blank=True)
    contained_on = models.DateField(null=True, blank=True)
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT)
    closed_on = models.DateField(null=True, blank=True)
    determination = DeterminationField(help_text="the law's § 267-9 deadlines at the last record")
    containment_note = models.TextField(
        blank=True, help_text="how the release was contained and cleaned up"
    )
    prevention_steps = models.TextField(
        blank=True, help_text="the facility's recorded steps against a recurrence"
    )
    closing_note = models.TextField(blank=True)
    notices_never_given = models.JSONField(
        default=list, blank=True, help_text="notices owed but named never given at closing"
    )


class EmergencySuspension(models.Model):
    """An emergency suspension of storm drain access (§ 267-8)."""

    town = models.ForeignKey("core.Town", on_delete=models.PROTECT, related_name="suspensions")
    investigation = optional_link(Investigation, models.SET_NULL)
    property_address = models.CharField(max_length=200)
    person_name = models.CharField(max_length=200)
    ordered_at = models.DateTimeField()
    imminent_risk_finding = models.TextField()
    steps_taken = models.TextField(blank=True)
    complied = models.BooleanField(null=True)
    reinstated_at = models.DateTimeField(null=True, blank=True)
    ordered_by = models.ForeignKey(USER, on_delete=models.PROTECT)
    determination = DeterminationField(help_text="the law's § 267-8 answer when the order was made")
    document = models.FileField(upload_to=PrivateName("idde/suspensions"), null=True, blank=True)
    steps_determination = DeterminationField(
        help_text="the law's § 267-8 answer on the steps taken when the order was ignored"
    )
    steps_recorded_at = models.DateTimeField(null=True, blank=True)
    reinstatement_note = models.TextField(blank=True)
