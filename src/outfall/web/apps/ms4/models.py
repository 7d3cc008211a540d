"""What the MS4 program keeps beside the records it counts: a program deadline a DPW Director
recorded as met (the records cannot show a written plan), and the narrative a reviewer writes for
an annual report section outfall does not hold (MA MS4 General Permit (2016), Part 4.4)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from outfall.web.apps.core.files import PrivateName
from outfall.web.apps.kit.fields import optional_link


class ProgramMilestone(models.Model):
    """A program deadline of the town's MS4 permit recorded as met, or an annual report recorded
    as filed (`key` is the deadline's id in `ms4/program.yaml`, or `annual_report` with the
    permit year it reports on)."""

    town = models.ForeignKey("core.Town", on_delete=models.PROTECT, related_name="ms4_milestones")
    key = models.CharField(max_length=60)
    permit_year = models.PositiveIntegerField(
        null=True, blank=True, help_text="the year the reported permit year ends (annual report)"
    )
    met_on = models.DateField()
    note = models.TextField(help_text="what shows it met: the document, its date, where kept")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["town", "key", "permit_year"],
                name="ms4_milestone_once",
                nulls_distinct=False,
            )
        ]


class NarrativeSection(models.TextChoices):
    """The annual report's sections a reviewer may write about (Part numbers recalled, as the
    permit parameters are)."""

    PUBLIC_EDUCATION = "public_education", "Public education and outreach (Part 2.3.2)"
    PUBLIC_PARTICIPATION = (
        "public_participation",
        "Public involvement and participation (Part 2.3.3)",
    )
    IDDE = "idde", "Illicit discharge detection and elimination (Part 2.3.4)"
    CONSTRUCTION = "construction", "Construction site stormwater runoff control (Part 2.3.5)"
    POST_CONSTRUCTION = "post_construction", "Post-construction stormwater management (Part 2.3.6)"
    GOOD_HOUSEKEEPING = (
        "good_housekeeping",
        "Good housekeeping and pollution prevention, with employee training (Part 2.3.7)",
    )
    IMPAIRED_WATERS = "impaired_waters", "Discharges to impaired waters and TMDLs (Part 2.2)"


class ReportNarrative(models.Model):
    """What a reviewer writes for one section of one town's annual report, for what the records
    do not hold (public education, participation, training...)."""

    town = models.ForeignKey("core.Town", on_delete=models.PROTECT, related_name="ms4_narratives")
    permit_year = models.PositiveIntegerField(help_text="the year the permit year ends")
    section = models.CharField(max_length=30, choices=NarrativeSection.choices)
    text = models.TextField()
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["town", "permit_year", "section"], name="ms4_narrative_once"
            )
        ]


class AnnualReportPdf(models.Model):
    """The annual report of one permit year as a PDF, in the order of the EPA annual report's
    sections, made by the worker from the records as they stood when it was asked for."""

    town = models.ForeignKey("core.Town", on_delete=models.PROTECT, related_name="ms4_pdfs")
    permit_year = models.PositiveIntegerField(help_text="the year the permit year ends")
    file = models.FileField(upload_to=PrivateName("ms4/reports"), blank=True)
    job = optional_link("jobs.Job", models.SET_NULL, related_name="+")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    requested_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "MS4 annual report PDF"
        ordering = ["-requested_at", "-id"]

    def __str__(self) -> str:
        return f"MS4 annual report {self.permit_year} of {self.requested_at:%Y-%m-%d}"
