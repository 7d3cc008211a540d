"""Stormwater management permits (Article II): an application's whole life as records.

No business logic lives here: writes go through `services`, reads through `selectors`, and the
state changes through `outfall.compliance.lifecycle`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from outfall.compliance.lifecycle import STATE_LABELS, PermitState
from outfall.web.apps.core.files import PrivateName
from outfall.web.apps.kit.fields import optional_link
from outfall.web.apps.kit.snapshots import DeterminationField, DeterminationSnapshot

USER = settings.AUTH_USER_MODEL


class Application(models.Model):
    """A stormwater management permit application and, once issued, the permit file."""

    town = models.ForeignKey("core.Town", on_delete=models.PROTECT, related_name="applications")
    number = models.CharField(max_length=30, unique=True)
    title = models.CharField(max_length=200)
    site_address = models.CharField(max_length=200)
    parcel_id = models.CharField(max_length=60, blank=True, help_text="Assessors' map and lot")
    latitude = models.FloatField(null=True, blank=True)
    longitude = models.FloatField(null=True, blank=True)
    description = models.TextField(blank=True)

    applicant = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="applications")
    applicant_is_owner = models.BooleanField(default=True)
    owner_name = models.CharField(max_length=200)
    owner_address = models.CharField(max_length=300, blank=True)
    owners = models.JSONField(
        default=list, blank=True, help_text="every owner of the site, each of whom signs"
    )
    agent_name = models.CharField(max_length=200, blank=True)
    engineer_name = models.CharField(max_length=200, blank=True)

    disturbance_acres = models.DecimalField(max_digits=9, decimal_places=3)
    common_plan_acres = models.DecimalField(max_digits=9, decimal_places=3, null=True, blank=True)
    previously_developed = models.BooleanField(default=False)
    roadway_maintenance_only = models.BooleanField(default=False)
    widening_lanes = models.DecimalField(max_digits=5, decimal_places=2, default=0)
    critical_area = models.BooleanField(default=False)
    luhppl = models.BooleanField(default=False)
    discharges_to_wetlands = models.BooleanField(default=False)
    exemption_facts = models.JSONField(
        default=dict,
        blank=True,
        help_text="the § 267-16B exemptions claimed, their conditions, and § 267-16A routine "
        "maintenance, as the applicant stated them",
    )

    law_date = models.DateField(help_text="the date whose law governs this case")
    state = models.CharField(
        max_length=30,
        choices=[(s.value, STATE_LABELS[s]) for s in PermitState],
        default=PermitState.DRAFT.value,
        db_index=True,
    )
    permit_required = models.BooleanField(null=True)
    classification = models.CharField(max_length=30, blank=True)

    submitted_on = models.DateField(null=True, blank=True)
    complete_on = models.DateField(null=True, blank=True)
    owner_signatures_complete = models.BooleanField(default=False)
    abutters_certified_on = models.DateField(null=True, blank=True)
    om_plan_provided = models.BooleanField(default=False)
    om_plan = models.JSONField(
        default=dict, blank=True, help_text="the O&M plan's § 267-20A contents as filed"
    )
    underground_drainage = models.BooleanField(default=True)
    construction_started_on = models.DateField(null=True, blank=True)
    construction_completed_on = models.DateField(null=True, blank=True)
    closed_on = models.DateField(null=True, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["town", "state"])]

    def __str__(self) -> str:
        return f"{self.number} {self.title}"

    @property
    def state_label(self) -> str:
        return STATE_LABELS[PermitState(self.state)]

    def get_absolute_url(self) -> str:
        """The case page (every e-mail about the case links to it, `kit.mail`)."""
        return reverse("permits:detail", args=[self.pk])


class DeterminationRecord(DeterminationSnapshot):
    """A snapshot of a determination the law made for this case, reproducible years later."""

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="determinations"
    )


class PlanItem(models.Model):
    """One of the § 267-19A plan items: provided, or explained."""

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="plan_items"
    )
    item_id = models.CharField(max_length=60)
    provided = models.BooleanField(default=False)
    explanation = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["application", "item_id"], name="one_row_per_plan_item")
        ]


class Upload(models.Model):
    """A file the applicant or staff attached, checked for type and size on the way in."""

    class Kind(models.TextChoices):
        PLAN = "plan", "Stormwater management plan"
        OM_PLAN = "om_plan", "Operation and maintenance plan"
        ABUTTERS = "abutters", "Certified abutters list"
        SIGNATURES = "signatures", "Owner signatures"
        SITE_FILE = "site_file", "Site file (hydrology input)"
        AS_BUILT = "as_built", "As-built record drawings"
        PHOTO = "photo", "Inspection photo"
        CORRESPONDENCE = "correspondence", "Correspondence"
        OTHER = "other", "Other"

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="uploads")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    file = models.FileField(upload_to=PrivateName("uploads"))
    original_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    size = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)
    uploaded_by = models.ForeignKey(USER, on_delete=models.PROTECT)
    uploaded_at = models.DateTimeField(auto_now_add=True)
    public = models.BooleanField(default=False)


class OwnerSignature(models.Model):
    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="signatures"
    )
    owner_name = models.CharField(max_length=200)
    signed_on = models.DateField()


class Abutter(models.Model):
    """An abutter from the certified list, for the first-class mailing of § 267-18E."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="abutters")
    parcel_id = models.CharField(max_length=60, blank=True)
    name = models.CharField(max_length=200)
    mailing_address = models.TextField()


class Fee(models.Model):
    """Application and technical review fees (§ 267-18D): review begins only once paid."""

    class Kind(models.TextChoices):
        APPLICATION = "application", "Application fee"
        TECHNICAL_REVIEW = "technical_review", "Technical review fee"

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="fees")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    paid_on = models.DateField(null=True, blank=True)
    receipt_number = models.CharField(max_length=60, blank=True)


class TownClerkFiling(models.Model):
    """Copies filed with the Town Clerk (§ 267-18A), with the Clerk's receipt."""

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="clerk_filings"
    )
    what = models.CharField(max_length=200)
    filed_on = models.DateField()
    receipt_number = models.CharField(max_length=60, blank=True)


class CompletenessReview(models.Model):
    """The clerk's completeness finding, with the checklist and reasons behind it."""

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="completeness_reviews"
    )
    reviewed_on = models.DateField()
    complete = models.BooleanField()
    missing = models.JSONField(default=list)
    notes = models.TextField(blank=True)
    reviewed_by = models.ForeignKey(USER, on_delete=models.PROTECT)


class Referral(models.Model):
    """A copy sent to another board (§ 267-18C), with its due date and response."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="referrals")
    board = models.CharField(max_length=100)
    sent_on = models.DateField()
    response_due = models.DateField()
    responded_on = models.DateField(null=True, blank=True)
    response = models.TextField(blank=True)


class Hearing(models.Model):
    """The public hearing (§ 267-18E): schedule, notice, sessions, close."""

    application = models.OneToOneField(
        Application, on_delete=models.CASCADE, related_name="hearing"
    )
    scheduled_for = models.DateTimeField()
    location = models.CharField(max_length=200)
    notice_published_on = models.DateField(null=True, blank=True)
    newspaper = models.CharField(max_length=160, blank=True)
    notice_posted_on = models.DateField(null=True, blank=True)
    abutters_mailed_on = models.DateField(null=True, blank=True)
    opened_on = models.DateField(null=True, blank=True)
    closed_on = models.DateField(null=True, blank=True)


class HearingSession(models.Model):
    """One sitting of the hearing; a continued hearing has several."""

    hearing = models.ForeignKey(Hearing, on_delete=models.CASCADE, related_name="sessions")
    held_on = models.DateField()
    continued_to = models.DateTimeField(null=True, blank=True)
    minutes = models.TextField(blank=True)


class WaiverRequest(models.Model):
    """A written waiver request (§ 267-23B), voted at the close of the hearing (§ 267-23C)."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="waivers")
    requirement = models.CharField(max_length=200)
    reasons = models.TextField()
    submitted_on = models.DateField()
    granted = models.BooleanField(null=True)
    voted_on = models.DateField(null=True, blank=True)


class Extension(models.Model):
    """A written agreement extending the time for final action (§ 267-18E)."""

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="extensions"
    )
    agreed_on = models.DateField()
    extended_to = models.DateField()
    signed_by_applicant = models.BooleanField(default=True)


class Decision(models.Model):
    """The Board's written decision (§ 267-18F): approve, approve with conditions, disapprove.

    Recorded first as the motion put to the Board (`issued_on` empty), with its conditions and
    whether surety is required (§ 267-21); the members' votes on it are `votes`. It issues only
    once the law finds the vote carried; the tally is then counted from the votes, never typed.
    """

    class Kind(models.TextChoices):
        APPROVE = "approve", "Approved"
        APPROVE_WITH_CONDITIONS = "approve_with_conditions", "Approved with conditions"
        DISAPPROVE = "disapprove", "Disapproved"

    application = models.OneToOneField(
        Application, on_delete=models.CASCADE, related_name="decision"
    )
    kind = models.CharField(max_length=30, choices=Kind.choices)
    voted_on = models.DateField(help_text="the day the Board meets to vote the decision")
    votes_for = models.PositiveSmallIntegerField(default=0)
    votes_against = models.PositiveSmallIntegerField(default=0)
    votes_abstaining = models.PositiveSmallIntegerField(default=0)
    findings = models.TextField(blank=True)
    surety_required = models.BooleanField(default=False)
    surety_amount = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    issued_on = models.DateField(null=True, blank=True)
    vote_determination = DeterminationField(help_text="the law's finding that the vote carried")
    filed_with_town_clerk_on = models.DateField(null=True, blank=True)

    @property
    def issued(self) -> bool:
        return self.issued_on is not None


class BoardAttendance(models.Model):
    """A member present at a meeting of the Board on the case, and whether they stepped aside
    (a recused member is present but does not sit, § 267-18F; the reading in legal-readings)."""

    class Meeting(models.TextChoices):
        HEARING_CLOSE = "hearing_close", "Close of the public hearing"
        DECISION = "decision", "Decision meeting"

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="board_attendance"
    )
    meeting = models.CharField(max_length=20, choices=Meeting.choices)
    member = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    recused = models.BooleanField(default=False)
    recusal_reason = models.TextField(blank=True)
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["application", "meeting", "member"], name="present_once_per_meeting"
            )
        ]


class BoardVote(models.Model):
    """A member's vote on the decision (§ 267-18F) or on a waiver request at the close of the
    hearing (§ 267-23C); `recorded_by` is the member, or the clerk who recorded it for them."""

    class Vote(models.TextChoices):
        YES = "yes", "Yes"
        NO = "no", "No"
        ABSTAIN = "abstain", "Abstain"

    decision = optional_link(Decision, models.CASCADE, related_name="votes")
    waiver = optional_link("WaiverRequest", models.CASCADE, related_name="votes")
    member = models.ForeignKey(USER, on_delete=models.PROTECT)
    vote = models.CharField(max_length=10, choices=Vote.choices)
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(decision__isnull=False, waiver__isnull=True)
                | models.Q(decision__isnull=True, waiver__isnull=False),
                name="vote_on_one_matter",
            ),
            models.UniqueConstraint(
                fields=["decision", "member"],
                condition=models.Q(decision__isnull=False),
                name="one_vote_per_member_on_decision",
            ),
            models.UniqueConstraint(
                fields=["waiver", "member"],
                condition=models.Q(waiver__isnull=False),
                name="one_vote_per_member_on_waiver",
            ),
        ]

    @property
    def for_member(self) -> bool:
        """Whether the clerk recorded this vote on the member's behalf."""
        return self.recorded_by_id != self.member_id


class ConstructiveApproval(models.Model):
    """The Town Clerk's certification that the Board's time ran out (§ 267-18G)."""

    application = models.OneToOneField(
        Application, on_delete=models.CASCADE, related_name="constructive_approval"
    )
    certified_on = models.DateField()
    certified_by = models.ForeignKey(USER, on_delete=models.PROTECT)
    deadline_missed = models.DateField()


class Permit(models.Model):
    application = models.OneToOneField(Application, on_delete=models.CASCADE, related_name="permit")
    number = models.CharField(max_length=30, unique=True)
    issued_on = models.DateField()


class PermitCondition(models.Model):
    """A numbered condition of the permit, tracked until met: set by the Board's decision
    (§ 267-18F(2)) or added after it, each applying before construction, during it, or for the
    life of the system (with the O&M plan, § 267-20)."""

    class Phase(models.TextChoices):
        BEFORE_CONSTRUCTION = "before_construction", "Before construction"
        DURING_CONSTRUCTION = "during_construction", "During construction"
        PERPETUAL = "perpetual", "Perpetual (for the life of the system)"

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="conditions"
    )
    decision = optional_link(Decision, models.CASCADE, related_name="conditions")
    number = models.PositiveSmallIntegerField()
    phase = models.CharField(max_length=24, choices=Phase.choices)
    text = models.TextField()
    met_on = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["application", "number"], name="condition_numbered_once"
            )
        ]


class Surety(models.Model):
    """Security posted before land disturbance (§ 267-21)."""

    class Form(models.TextChoices):
        BOND = "bond", "Surety bond"
        LETTER_OF_CREDIT = "letter_of_credit", "Irrevocable letter of credit"
        CASH = "cash", "Cash"
        OTHER = "other", "Other acceptable security"

    application = models.OneToOneField(Application, on_delete=models.CASCADE, related_name="surety")
    form = models.CharField(max_length=20, choices=Form.choices)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    posted_on = models.DateField()
    approved_by_town_counsel_on = models.DateField(null=True, blank=True)
    instrument_reference = models.CharField(max_length=120, blank=True)


class SuretyRelease(models.Model):
    surety = models.ForeignKey(Surety, on_delete=models.CASCADE, related_name="releases")
    kind = models.CharField(max_length=10, choices=[("partial", "Partial"), ("full", "Full")])
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    released_on = models.DateField()
    phase = models.CharField(max_length=120, blank=True)
    letter = optional_link("GeneratedDocument", models.PROTECT, related_name="+")


class Inspection(models.Model):
    """One of the four inspections of § 267-22, in order."""

    class Stage(models.TextChoices):
        INITIAL_SITE = "initial_site", "Initial site inspection"
        EROSION_CONTROL = "erosion_control", "Erosion control inspection"
        BURY = "bury", "Bury inspection"
        FINAL = "final", "Final inspection"

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="inspections"
    )
    stage = models.CharField(max_length=20, choices=Stage.choices)
    scheduled_for = models.DateField(null=True, blank=True)
    done_on = models.DateField(null=True, blank=True)
    inspector = optional_link(USER, models.PROTECT)
    passed = models.BooleanField(null=True)
    checklist = models.JSONField(default=dict, blank=True)
    findings = models.TextField(blank=True)
    inadequacies = models.JSONField(default=list, blank=True)
    photos = models.ManyToManyField(Upload, blank=True, related_name="inspections")


class Deficiency(models.Model):
    inspection = models.ForeignKey(
        Inspection, on_delete=models.CASCADE, related_name="deficiencies"
    )
    description = models.TextField()
    correct_by = models.DateField()
    corrected_on = models.DateField(null=True, blank=True)


class AsBuilt(models.Model):
    """PE-certified as-built record drawings (§ 267-18I)."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="as_builts")
    received_on = models.DateField()
    engineer_name = models.CharField(max_length=200)
    pe_license = models.CharField(max_length=40)
    deviations = models.TextField(blank=True)
    upload = optional_link(Upload, models.PROTECT)
    accepted = models.BooleanField(null=True)


class Easement(models.Model):
    """A stormwater easement (§ 267-20B), recorded before the certificate."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="easements")
    purpose = models.CharField(max_length=200)
    location = models.CharField(max_length=200)
    recorded_on = models.DateField(null=True, blank=True)
    book = models.CharField(max_length=20, blank=True)
    page = models.CharField(max_length=20, blank=True)


class Certificate(models.Model):
    """The certificate of completion (§ 267-24)."""

    application = models.OneToOneField(
        Application, on_delete=models.CASCADE, related_name="certificate"
    )
    issued_on = models.DateField()
    issued_by = models.ForeignKey(USER, on_delete=models.PROTECT)


class ChangeNotice(models.Model):
    """A permittee's notice of a change before making it (§ 267-18H)."""

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="change_notices"
    )
    description = models.TextField()
    submitted_on = models.DateField()
    significant = models.BooleanField(null=True)
    decided_on = models.DateField(null=True, blank=True)
    interim_measures = models.TextField(blank=True)
    planned_for = models.DateField(null=True, blank=True)
    amended_application_on = models.DateField(null=True, blank=True)
    amendment_hearing_on = models.DateField(null=True, blank=True)
    amendment_outcome = models.CharField(
        max_length=30,
        blank=True,
        choices=[
            ("approved", "Amendment approved"),
            ("approved_with_conditions", "Amendment approved with conditions"),
            ("disapproved", "Amendment disapproved"),
            ("withdrawn", "Change withdrawn"),
        ],
    )


class ResponsibleParty(models.Model):
    """A party responsible under the O&M plan (§ 267-20A(2), C)."""

    class Responsibility(models.TextChoices):
        OWNER = "owner", "Owner"
        FINANCIAL = "financial", "Financially responsible"
        OPERATIONAL = "operational", "Operationally responsible"

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="responsible_parties"
    )
    name = models.CharField(max_length=200)
    address = models.CharField(max_length=300)
    responsibility = models.CharField(max_length=20, choices=Responsibility.choices)
    since = models.DateField()
    until = models.DateField(null=True, blank=True)
    email = models.EmailField(blank=True)


class OMObligation(models.Model):
    """A recurring O&M task that keeps running after the permit file is closed (§ 267-20)."""

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="om_obligations"
    )
    component = models.CharField(max_length=200)
    task = models.CharField(max_length=200)
    every_months = models.PositiveSmallIntegerField()
    next_due = models.DateField()
    active = models.BooleanField(default=True)


class OMReport(models.Model):
    obligation = models.ForeignKey(OMObligation, on_delete=models.CASCADE, related_name="reports")
    performed_on = models.DateField()
    submitted_by = models.ForeignKey(USER, on_delete=models.PROTECT)
    findings = models.TextField()
    satisfactory = models.BooleanField(default=True)


class OMPlanAmendment(models.Model):
    """A written amendment to the maintenance schedule, signed by every responsible party."""

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="om_amendments"
    )
    description = models.TextField()
    agreed_on = models.DateField()
    signers = models.JSONField(default=list)


class SiteReviewRun(models.Model):
    """A snapshot of outfall's site review of a submitted site file, kept for every revision."""

    application = models.ForeignKey(
        Application, on_delete=models.CASCADE, related_name="site_reviews"
    )
    upload = optional_link(Upload, models.PROTECT)
    run_at = models.DateTimeField(auto_now_add=True)
    run_by = models.ForeignKey(USER, on_delete=models.PROTECT)
    as_of = models.DateField()
    verdict = models.CharField(max_length=30)
    site_file = models.JSONField()
    result = models.JSONField()
    report_html = models.TextField(blank=True)
    application_match = DeterminationField(
        help_text="the site file against the application as it stood at the run (§ 267-19B)"
    )
    figures_html = models.TextField(
        blank=True, help_text="the report's hydrograph figures, as the review page shows them"
    )
    report_pdf = models.FileField(upload_to=PrivateName("site-reviews"), blank=True)


class ReviewComment(models.Model):
    """A reviewer's or clerk's comment or request to the applicant."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(USER, on_delete=models.PROTECT)
    created_at = models.DateTimeField(auto_now_add=True)
    body = models.TextField()
    request_to_applicant = models.BooleanField(default=False)
    resolved_on = models.DateField(null=True, blank=True)
    visible_to_applicant = models.BooleanField(default=True)
    in_reply_to = optional_link("self", models.CASCADE, related_name="replies")


class DocumentTemplate(models.Model):
    """A town-editable template for a generated document (Django template syntax)."""

    class Kind(models.TextChoices):
        HEARING_NOTICE = "hearing_notice", "Legal notice of public hearing"
        ABUTTER_LETTER = "abutter_letter", "Abutter notice letter"
        INCOMPLETENESS_NOTICE = "incompleteness_notice", "Notice of incomplete application"
        DECISION = "decision", "Decision and permit"
        CERTIFICATE = "certificate", "Certificate of completion"
        SURETY_RELEASE = "surety_release", "Surety release letter"

    town = models.ForeignKey("core.Town", on_delete=models.CASCADE, related_name="templates")
    kind = models.CharField(max_length=30, choices=Kind.choices)
    body = models.TextField(help_text="Django template; see docs for the context variables")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["town", "kind"], name="one_template_per_kind")
        ]


class GeneratedDocument(models.Model):
    """A PDF the system produced, kept as filed."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="documents")
    kind = models.CharField(max_length=30, choices=DocumentTemplate.Kind.choices)
    file = models.FileField(upload_to=PrivateName("documents"))
    generated_at = models.DateTimeField(auto_now_add=True)
    generated_by = models.ForeignKey(USER, on_delete=models.PROTECT)
    public = models.BooleanField(default=False)


class BoardPacket(models.Model):
    """The Board packet as one PDF to read offline (§ 267-18E): a contents page, then the
    generated documents and the uploaded PDFs merged by the worker; `contents` keeps what went in
    and what did not, and why."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="packets")
    file = models.FileField(upload_to=PrivateName("packets"), blank=True)
    requested_at = models.DateTimeField(auto_now_add=True)
    requested_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    contents = models.JSONField(default=list, blank=True)
    pages = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = "Board packet"

    def __str__(self) -> str:
        return f"{self.application.number} packet of {self.requested_at:%Y-%m-%d}"
