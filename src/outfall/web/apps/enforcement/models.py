"""The enforcement ledger both articles share: cases, orders, abatement, costs, liens, fines."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from outfall.compliance.lifecycle.enforcement import STATE_LABELS, EnforcementState
from outfall.law import s267_10_enforcement, s267_25_enforcement
from outfall.web.apps.core.files import PrivateName
from outfall.web.apps.kit.fields import optional_link
from outfall.web.apps.kit.snapshots import DeterminationField

USER = settings.AUTH_USER_MODEL


class EnforcementCase(models.Model):
    """A violation being enforced, under Article I (DPW) or Article II (Planning Board)."""

    town = models.ForeignKey(
        "core.Town", on_delete=models.PROTECT, related_name="enforcement_cases"
    )
    number = models.CharField(max_length=30, unique=True)
    article = models.CharField(max_length=2, choices=[("I", "Article I"), ("II", "Article II")])
    application = optional_link(
        "permits.Application", models.PROTECT, related_name="enforcement_cases"
    )
    investigation = optional_link(
        "idde.Investigation", models.PROTECT, related_name="enforcement_cases"
    )
    violator_name = models.CharField(max_length=200)
    violator_address = models.CharField(max_length=300)
    owner_name = models.CharField(max_length=200, blank=True)
    owner_address = models.CharField(max_length=300, blank=True)
    property_address = models.CharField(max_length=200)
    parcel_id = models.CharField(max_length=60, blank=True)
    description = models.TextField()
    opened_on = models.DateField()
    state = models.CharField(max_length=30, default="open", db_index=True)
    law_date = models.DateField()
    closed_on = models.DateField(null=True, blank=True)
    opened_by = optional_link(USER, models.PROTECT, related_name="+")

    @property
    def state_label(self) -> str:
        try:
            return STATE_LABELS[EnforcementState(self.state)]
        except ValueError:
            return self.state

    def __str__(self) -> str:
        return f"{self.number} (Article {self.article})"


ORDER_CATALOGS = {
    "I": s267_10_enforcement.ORDER_TYPES,
    "II": s267_25_enforcement.ORDER_TYPES,
}


class Order(models.Model):
    """A notice of violation or a written order with its deadline (§ 267-10C, § 267-25B)."""

    case = models.ForeignKey(EnforcementCase, on_delete=models.CASCADE, related_name="orders")
    kind = models.CharField(max_length=40)
    order_types = models.JSONField(default=list)
    issued_on = models.DateField()
    deadline = models.DateField(null=True, blank=True)
    abatement_required = models.BooleanField(default=False)
    text = models.TextField()
    complied_on = models.DateField(null=True, blank=True)
    escalated_on = models.DateField(null=True, blank=True)
    issued_by = models.ForeignKey(USER, on_delete=models.PROTECT)
    determination = DeterminationField(help_text="the law's assessment of the order, as made")

    @property
    def is_notice(self) -> bool:
        return self.kind == "notice_of_violation"

    @property
    def order_type_labels(self) -> list[str]:
        """What the order requires, in the words of its article's catalog (§ 267-10C(1),
        § 267-25B), each with its section; an unknown key is shown as stored."""
        catalog = ORDER_CATALOGS.get(self.case.article, ())
        words = {t.key: f"{t.summary[:1].upper()}{t.summary[1:]} ({t.citation})" for t in catalog}
        return [words.get(key, key) for key in self.order_types]

    def __str__(self) -> str:
        what = "notice of violation" if self.is_notice else "order"
        return f"the {what} of {self.issued_on.isoformat()}"


class FollowUpInspection(models.Model):
    """A follow-up visit checking an order: scheduled first, then its finding recorded."""

    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="follow_ups")
    scheduled_for = models.DateField(null=True, blank=True)
    inspected_on = models.DateField(null=True, blank=True)
    complied = models.BooleanField(null=True)
    findings = models.TextField(blank=True)
    inspector = optional_link(USER, models.PROTECT, related_name="+")


class EntryConsent(models.Model):
    """Consent to enter private property to inspect or sample (§ 267-10F; § 267-18B)."""

    case = optional_link(EnforcementCase, models.CASCADE, related_name="entry_consents")
    investigation = optional_link(
        "idde.Investigation", models.CASCADE, related_name="entry_consents"
    )
    property_address = models.CharField(max_length=200)
    given_by = models.CharField(max_length=200)
    given_on = models.DateField()
    scope = models.TextField()
    refused = models.BooleanField(default=False)
    capacity = models.CharField(
        max_length=60, blank=True, help_text="owner, tenant, or other person in control"
    )
    valid_until = models.DateField(null=True, blank=True)
    recorded_by = optional_link(USER, models.PROTECT, related_name="+")


class AbatementWork(models.Model):
    """Work the town did itself when the deadline passed (§ 267-10C(2))."""

    case = models.OneToOneField(EnforcementCase, on_delete=models.CASCADE, related_name="abatement")
    started_on = models.DateField()
    completed_on = models.DateField(null=True, blank=True)
    description = models.TextField()


class CostItem(models.Model):
    class Category(models.TextChoices):
        LABOUR = "labour", "Labour"
        EQUIPMENT = "equipment", "Equipment"
        CONTRACTOR = "contractor", "Contractors"
        ADMINISTRATIVE = "administrative", "Administrative costs"

    work = models.ForeignKey(AbatementWork, on_delete=models.CASCADE, related_name="costs")
    category = models.CharField(max_length=20, choices=Category.choices)
    description = models.CharField(max_length=200)
    amount = models.DecimalField(max_digits=12, decimal_places=2)


class CostNotice(models.Model):
    """The notice of costs to the violator and owner (§ 267-10C(3))."""

    case = models.OneToOneField(
        EnforcementCase, on_delete=models.CASCADE, related_name="cost_notice"
    )
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    sent_on = models.DateField()
    received_on = models.DateField(null=True, blank=True)
    notice_by = models.DateField(
        null=True, blank=True, help_text="the day the law wanted the notice by, as computed"
    )

    @property
    def late(self) -> bool:
        return self.notice_by is not None and self.sent_on > self.notice_by


class Protest(models.Model):
    case = models.OneToOneField(EnforcementCase, on_delete=models.CASCADE, related_name="protest")
    filed_on = models.DateField()
    grounds = models.TextField()
    decided_on = models.DateField(null=True, blank=True)
    decision = models.CharField(
        max_length=10, blank=True, choices=[("affirm", "Affirmed"), ("reduce", "Reduced")]
    )
    decided_amount = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    decided_by = optional_link(USER, models.PROTECT, related_name="+")
    decision_reasons = models.TextField(blank=True)
    votes_for = models.PositiveSmallIntegerField(null=True, blank=True)
    votes_against = models.PositiveSmallIntegerField(null=True, blank=True)


class Lien(models.Model):
    """Unpaid costs certified to the Collector as a special assessment and lien."""

    case = models.OneToOneField(EnforcementCase, on_delete=models.CASCADE, related_name="lien")
    effective_on = models.DateField()
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    sent_to_collector_on = models.DateField(null=True, blank=True)
    released_on = models.DateField(null=True, blank=True)
    interest_at_request = models.DecimalField(
        max_digits=12, decimal_places=2, null=True, blank=True
    )
    requested_by = optional_link(USER, models.PROTECT, related_name="+")


class Payment(models.Model):
    case = models.ForeignKey(EnforcementCase, on_delete=models.CASCADE, related_name="payments")
    paid_on = models.DateField()
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    applies_to = models.CharField(
        max_length=20, choices=[("costs", "Abatement costs"), ("fine", "Fine")]
    )
    reference = models.CharField(max_length=60, blank=True)
    offence = optional_link("Offence", models.PROTECT, related_name="payments")
    recorded_by = optional_link(USER, models.PROTECT, related_name="+")


class Offence(models.Model):
    """One day's offence in the penalty ledger (each day a separate offence)."""

    case = models.ForeignKey(EnforcementCase, on_delete=models.CASCADE, related_name="offences")
    on = models.DateField()
    number = models.PositiveIntegerField()
    disposition = models.CharField(
        max_length=20,
        blank=True,
        default="",
        choices=[
            ("", "Not yet decided"),
            ("noncriminal", "Noncriminal (MGL c. 40 § 21D)"),
            ("criminal", "Criminal"),
        ],
    )
    kind = models.CharField(max_length=10, blank=True)
    description = models.CharField(max_length=300, blank=True)
    determination = DeterminationField(help_text="the law's penalty for the offence, as made")
    issued_by = optional_link(USER, models.PROTECT, related_name="+")
    fine = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    ticket_number = models.CharField(max_length=30, blank=True)
    issued_on = models.DateField(null=True, blank=True)
    paid_on = models.DateField(null=True, blank=True)
    appealed_on = models.DateField(null=True, blank=True)
    court = models.CharField(max_length=120, blank=True)
    court_outcome = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["case", "on"], name="one_offence_per_day")]

    def __str__(self) -> str:
        return f"offence {self.number}, the violation of {self.on.isoformat()}"


DOCUMENT_KIND_LABELS = {
    "notice_of_violation": "Notice of violation",
    "order": "Enforcement order",
    "cost_notice": "Notice of costs",
    "lien_request": "Lien request to the Collector",
    "ticket": "Noncriminal ticket (MGL c. 40 § 21D)",
}


class EnforcementDocument(models.Model):
    """A PDF the enforcement machinery produced (notice, order, cost notice, lien request, ticket)."""

    case = models.ForeignKey(EnforcementCase, on_delete=models.CASCADE, related_name="documents")
    kind = models.CharField(max_length=30)
    file = models.FileField(upload_to=PrivateName("enforcement"))
    generated_at = models.DateTimeField(auto_now_add=True)
    generated_by = models.ForeignKey(USER, on_delete=models.PROTECT)
    about = models.CharField(max_length=120, blank=True, help_text="the record it concerns")

    @property
    def kind_label(self) -> str:
        return DOCUMENT_KIND_LABELS.get(self.kind, self.kind.replace("_", " ").capitalize())
