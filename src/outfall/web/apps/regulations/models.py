"""A regulation of the Planning Board (§ 267-17B): one version, from its draft through the
advertised hearing and the Board's vote to its adoption. An adopted version is never changed
(the lifecycle has no step from it); a new version names the one it `supersedes`, which stays
in force until the new one's effective date."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models

from outfall.compliance.lifecycle.regulation import STATE_LABELS, RegulationState
from outfall.web.apps.core.files import PrivateName
from outfall.web.apps.core.models import Town
from outfall.web.apps.kit.fields import optional_link
from outfall.web.apps.kit.snapshots import DeterminationField


class Regulation(models.Model):
    town = models.ForeignKey(Town, on_delete=models.PROTECT, related_name="regulations")
    number = models.CharField(max_length=30, unique=True)
    title = models.CharField(max_length=200)
    text = models.TextField(help_text="the regulation as the Board would adopt it")
    settings = models.JSONField(
        default=list,
        blank=True,
        help_text="the values it sets for the law: [{name, value}] (s267_17_administration.REGULATED)",
    )
    supersedes = optional_link("self", models.PROTECT, related_name="superseded_by")
    state = models.CharField(
        max_length=30,
        choices=[(s.value, STATE_LABELS[s]) for s in RegulationState],
        default=RegulationState.DRAFT.value,
        db_index=True,
    )
    hearing_at = models.DateTimeField(null=True, blank=True)
    hearing_location = models.CharField(max_length=300, blank=True)
    notice = models.FileField(upload_to=PrivateName("regulations"), null=True, blank=True)
    newspaper = models.CharField(max_length=200, blank=True)
    advertised_on = models.DateField(null=True, blank=True)
    advertisement = DeterminationField(help_text="the law's check of the advertisement, as made")
    voted_on = models.DateField(null=True, blank=True)
    present = models.PositiveSmallIntegerField(null=True, blank=True)
    recused = models.PositiveSmallIntegerField(null=True, blank=True)
    ayes = models.PositiveSmallIntegerField(null=True, blank=True)
    nays = models.PositiveSmallIntegerField(null=True, blank=True)
    abstaining = models.PositiveSmallIntegerField(null=True, blank=True)
    vote = DeterminationField(help_text="the law's count of the Board's vote, as made")
    effective_on = models.DateField(null=True, blank=True)
    adopted_on = models.DateField(null=True, blank=True, help_text="the day adoption was recorded")
    drafted_by = optional_link(django_settings.AUTH_USER_MODEL, models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.number} — {self.title}"

    @property
    def state_label(self) -> str:
        return STATE_LABELS[RegulationState(self.state)]

    @property
    def layer(self) -> str:
        """How the override layer names this version in every determination that reads it."""
        return (
            f"Planning Board regulation {self.number} ({self.title}), adopted "
            f"{self.voted_on.isoformat() if self.voted_on else 'not yet'}"
        )


class DataConfirmation(models.Model):
    """A figure of the engineering tables a reviewer checked against its source and confirmed
    for the town (`compliance.provenance`): laid over the town's parameters as a dated, cited
    override (`selectors.confirmed_overrides`), so later site reviews read it and name it as the
    value's layer. A later confirmation of the same figure replaces it; none is ever changed."""

    town = models.ForeignKey(Town, on_delete=models.PROTECT, related_name="data_confirmations")
    figure = models.CharField(max_length=100, help_text="the figure confirmed (its provenance ref)")
    value = models.FloatField()
    source = models.CharField(
        max_length=300, help_text="where the value was read: document, edition, table, page"
    )
    confirmed_on = models.DateField()
    confirmed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-confirmed_on", "-pk"]

    def __str__(self) -> str:
        return f"{self.figure} = {self.value:g}"

    @property
    def value_text(self) -> str:
        return f"{self.value:g}"

    @property
    def layer(self) -> str:
        """How the override layer names this confirmation in every review that reads it."""
        who = self.confirmed_by.get_full_name() or self.confirmed_by.get_username()
        day = self.confirmed_on
        return f"value confirmed by {who} on {day:%B} {day.day}, {day.year}"
