"""The municipal separate storm sewer system: its structures, and the screening of its outfalls."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from outfall.web.apps.core.files import PrivateName
from outfall.web.apps.kit.fields import optional_link


class Asset(models.Model):
    """A structure of the MS4: outfall, interconnection, catch basin, manhole, pipe, ditch, BMP."""

    class Kind(models.TextChoices):
        OUTFALL = "outfall", "Outfall"
        INTERCONNECTION = "interconnection", "Interconnection"
        CATCH_BASIN = "catch_basin", "Catch basin"
        MANHOLE = "manhole", "Manhole"
        PIPE = "pipe", "Pipe"
        DITCH = "ditch", "Ditch or swale"
        BMP = "bmp", "Structural BMP"

    class Condition(models.TextChoices):
        GOOD = "good", "Good"
        FAIR = "fair", "Fair"
        POOR = "poor", "Poor"
        FAILED = "failed", "Failed"
        UNKNOWN = "unknown", "Unknown"

    town = models.ForeignKey("core.Town", on_delete=models.PROTECT, related_name="assets")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    asset_id = models.CharField(max_length=40, help_text="the town's identifier, e.g. OF-012")
    name = models.CharField(max_length=200, blank=True)
    latitude = models.FloatField()
    longitude = models.FloatField()
    receiving_water = models.CharField(max_length=200, blank=True)
    catchment = models.CharField(max_length=100, blank=True)
    condition = models.CharField(max_length=10, choices=Condition.choices, default="unknown")
    material = models.CharField(max_length=60, blank=True)
    size_in = models.FloatField(null=True, blank=True)
    downstream = optional_link("self", models.SET_NULL, related_name="upstream")
    notes = models.TextField(blank=True)
    active = models.BooleanField(default=True)
    properties = models.JSONField(
        default=dict,
        blank=True,
        help_text="properties of an imported file this model has no field for",
    )
    line = models.JSONField(
        default=list,
        blank=True,
        help_text="a pipe's or ditch's vertices [longitude, latitude], first to last (its "
        "location is the first); empty for a structure at one point",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["town", "asset_id"], name="asset_id_unique_in_town")
        ]
        indexes = [
            models.Index(fields=["town", "latitude", "longitude"], name="asset_town_position")
        ]
        ordering = ["asset_id"]

    def __str__(self) -> str:
        return f"{self.asset_id} {self.name}".strip()


class Catchment(models.Model):
    """The land draining to one outfall or interconnection (MA MS4 General Permit (2016),
    Part 2.3.4.8, recalled): its name, the boundary where one is drawn, and the Department's
    reason where the outfall is excluded from the priority ranking. Without a boundary a place
    belongs to the catchment of its nearest structure's outfall (`assets.selectors.catchment_of`).
    """

    town = models.ForeignKey("core.Town", on_delete=models.PROTECT, related_name="catchments")
    outfall = models.OneToOneField(Asset, on_delete=models.PROTECT, related_name="catchment_area")
    name = models.CharField(max_length=100, blank=True)
    boundary = models.TextField(
        blank=True,
        help_text="GeoJSON Polygon or MultiPolygon (longitude, latitude) as drawn; blank: none",
    )
    min_lat = models.FloatField(null=True, blank=True)
    max_lat = models.FloatField(null=True, blank=True)
    min_lon = models.FloatField(null=True, blank=True)
    max_lon = models.FloatField(null=True, blank=True)
    excluded_reason = models.TextField(
        blank=True, help_text="why the outfall is excluded from the priority ranking"
    )

    class Meta:
        ordering = ["outfall__asset_id"]
        indexes = [
            models.Index(fields=["town", "min_lat", "max_lat"], name="catchment_town_box"),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        return self.name or f"Catchment of {self.outfall.asset_id}"

    @property
    def drawn(self) -> bool:
        return bool(self.boundary)


class ScreeningRound(models.Model):
    """A scheduled round of dry-weather outfall screening."""

    town = models.ForeignKey("core.Town", on_delete=models.PROTECT, related_name="screening_rounds")
    name = models.CharField(max_length=120)
    starts_on = models.DateField()
    ends_on = models.DateField()
    outfalls = models.ManyToManyField(Asset, blank=True, related_name="screening_rounds")
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["-ends_on", "-id"]


class ScreeningVisit(models.Model):
    """One visit to an outfall in dry weather, with what was seen."""

    class Weather(models.TextChoices):
        DRY = "dry", "Dry weather"
        WET = "wet", "Wet weather"

    class Flow(models.TextChoices):
        NONE = "none", "No flow"
        TRICKLE = "trickle", "Trickle"
        MODERATE = "moderate", "Moderate"
        SUBSTANTIAL = "substantial", "Substantial"

    round = optional_link(ScreeningRound, models.CASCADE, related_name="visits")
    asset = models.ForeignKey(Asset, on_delete=models.PROTECT, related_name="visits")
    visited_at = models.DateTimeField()
    inspector = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    hours_since_rain = models.FloatField(null=True, blank=True)
    flow = models.CharField(max_length=20, blank=True, choices=Flow.choices)
    odor = models.CharField(max_length=60, blank=True)
    color = models.CharField(max_length=60, blank=True)
    turbidity = models.CharField(max_length=60, blank=True)
    floatables = models.CharField(max_length=60, blank=True)
    deposits = models.CharField(max_length=60, blank=True)
    staining = models.CharField(max_length=60, blank=True)
    notes = models.TextField(blank=True)
    follow_up_needed = models.BooleanField(default=False)
    weather = models.CharField(max_length=3, choices=Weather.choices, default="dry")
    follow_up_reasons = models.JSONField(default=list, blank=True)
    dry_weather_window = models.JSONField(
        default=dict, blank=True, help_text="the town's window as applied to this visit"
    )
    photo = models.FileField(
        upload_to=PrivateName("assets/visits"),
        null=True,
        blank=True,
        help_text="taken at the visit; served only to those who may see the visit",
    )
    photo_sha256 = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-visited_at", "-id"]


class SampleResult(models.Model):
    """A field or lab result from a screening visit."""

    visit = models.ForeignKey(ScreeningVisit, on_delete=models.CASCADE, related_name="samples")
    parameter = models.CharField(max_length=40)
    value = models.FloatField()
    unit = models.CharField(max_length=20)
    method = models.CharField(max_length=10, choices=[("field", "Field"), ("lab", "Lab")])
    exceeds_threshold = models.BooleanField(default=False)
    threshold = models.JSONField(
        default=dict, blank=True, help_text="the threshold compared against, as it stood"
    )
    recorded_at = models.DateTimeField(null=True, blank=True)
    recorded_by = optional_link(settings.AUTH_USER_MODEL, models.PROTECT)


class ScreeningThreshold(models.Model):
    """The town's trigger for follow-up on a screening parameter, with its source."""

    town = models.ForeignKey("core.Town", on_delete=models.CASCADE, related_name="thresholds")
    parameter = models.CharField(max_length=40)
    operator = models.CharField(
        max_length=2,
        choices=[(">", "above"), (">=", "at or above"), ("<", "below"), ("<=", "at or below")],
    )
    value = models.FloatField()
    unit = models.CharField(max_length=20)
    source = models.CharField(max_length=200)
    to_be_confirmed = models.BooleanField(
        default=True, help_text="a default the town has not yet confirmed"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["town", "parameter"], name="one_threshold_per_parameter_in_town"
            )
        ]
        ordering = ["parameter"]


class ScreeningSetting(models.Model):
    """A number of the town's screening practice (e.g. the dry-weather window), with its source."""

    class Key(models.TextChoices):
        DRY_WEATHER_HOURS = "dry_weather_hours", "Dry-weather window after rain"
        INVESTIGATION_DAYS = (
            "catchment_investigation_days",
            "Catchment investigation open at most",
        )

    town = models.ForeignKey(
        "core.Town", on_delete=models.CASCADE, related_name="screening_settings"
    )
    key = models.CharField(max_length=40, choices=Key.choices)
    value = models.FloatField()
    unit = models.CharField(max_length=20)
    source = models.CharField(max_length=300)
    to_be_confirmed = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["town", "key"], name="one_screening_setting_per_key")
        ]


class CatchmentInvestigation(models.Model):
    """The investigation of an outfall's catchment that screening triggers."""

    town = models.ForeignKey(
        "core.Town", on_delete=models.PROTECT, related_name="catchment_investigations"
    )
    outfall = models.ForeignKey(
        Asset, on_delete=models.PROTECT, related_name="catchment_investigations"
    )
    opened_on = models.DateField()
    reason = models.TextField()
    findings = models.TextField(blank=True)
    closed_on = models.DateField(null=True, blank=True)
    visit = optional_link(ScreeningVisit, models.SET_NULL, related_name="catchment_investigations")
    opened_by = optional_link(settings.AUTH_USER_MODEL, models.PROTECT)

    class Meta:
        ordering = ["-opened_on", "-id"]

    @property
    def number(self) -> str:
        return f"CI-{self.pk}"


class CatchBasinCleaning(models.Model):
    """A catch basin cleaned on a day (the good-housekeeping program's record; MA MS4 General
    Permit (2016), Part 2.3.7)."""

    asset = models.ForeignKey(Asset, on_delete=models.PROTECT, related_name="cleanings")
    cleaned_on = models.DateField()
    note = models.TextField(blank=True, help_text="what was removed, its amount, by whom")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-cleaned_on", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["asset", "cleaned_on"], name="one_cleaning_a_day")
        ]
