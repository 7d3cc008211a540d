"""Forms for intake and review: they check the shape of what was typed (numbers, dates, lines);
the services check it against the law and the views put those errors back on the fields.

Django renders every field with its label, and links help and error text by aria-describedby.
"""

from __future__ import annotations

from decimal import Decimal

from django import forms

from outfall.law.s267_16_applicability import EXEMPTIONS
from outfall.web.apps.kit.forms import AccessibleForm, checkbox, radio, text_area
from outfall.web.apps.permits.models import Application, Fee, Upload

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def _date(label: str, *, required: bool = True, help_text: str = "") -> forms.DateField:
    return forms.DateField(label=label, required=required, widget=DATE, help_text=help_text)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def _pairs(text: str, field: str, first: str, second: str) -> list[dict[str, str]]:
    """Lines "first | second" as dicts; a line without both halves is a form error naming it."""
    out = []
    for n, line in enumerate(_lines(text), start=1):
        left, bar, right = line.partition("|")
        if not bar or not left.strip() or not right.strip():
            raise forms.ValidationError(
                f"Line {n} ({line!r}) must read '{first} | {second}'", code=field
            )
        out.append({first: left.strip(), second: right.strip()})
    return out


def _pair_lines(items, first: str, second: str) -> str:
    return "\n".join(f"{i.get(first, '')} | {i.get(second, '')}" for i in items or [])


def _acres(label: str, *, required: bool = True, help_text: str = "") -> forms.DecimalField:
    """An area in acres, to the thousandth, as the application stores it."""
    return forms.DecimalField(
        label=label,
        min_value=Decimal(0),
        max_digits=9,
        decimal_places=3,
        required=required,
        help_text=help_text,
    )


class ApplicationDetailsForm(forms.Form):
    """The site, the owners, and the applicability questions of § 267-16 and § 267-19B."""

    title = forms.CharField(label="Project name", max_length=200)
    site_address = forms.CharField(label="Site address", max_length=200)
    parcel_id = forms.CharField(
        label="Parcel (Assessors' map and lot)", max_length=60, required=False
    )
    description = text_area("Project description", required=False, rows=3)
    applicant_role = radio(
        "You are applying as",
        [("owner", "The owner of the site"), ("agent", "An agent for the owner")],
        help_text="An agent may apply, but the permit is issued to the owner (§ 267-18A).",
    )
    agent_name = forms.CharField(
        label="Agent's name (if you are an agent)", max_length=200, required=False
    )
    owners = text_area(
        "Owners of the site (one per line)",
        help_text="Every owner signs the application form (§ 267-18A).",
        rows=3,
    )
    owner_address = forms.CharField(label="Owners' mailing address", max_length=300, required=False)
    engineer_name = forms.CharField(label="Design engineer", max_length=200, required=False)
    disturbance_acres = _acres(
        "Land disturbed by the project (acres)",
        help_text="Clearing, grading, excavation and the like (§ 267-16A).",
    )
    common_plan_acres = _acres(
        "Total disturbance of the larger common plan it belongs to (acres)",
        required=False,
        help_text="Leave empty if the project is not part of a larger common plan (§ 267-16A).",
    )
    previously_developed = checkbox("The site was developed before (redevelopment, § 267-14)")
    roadway_maintenance_only = checkbox(
        "The work only maintains or improves existing roadways (§ 267-19B(4)(c))"
    )
    widening_lanes = forms.DecimalField(
        label="Lane widths of impervious area the roadway work adds",
        min_value=Decimal(0),
        max_digits=5,
        decimal_places=2,
        required=False,
        initial=Decimal(0),
    )
    critical_area = checkbox("The project discharges to a critical area (§ 267-19B(4)(c))")
    luhppl = checkbox("A land use with higher potential pollutant loads (LUHPPL)")
    discharges_to_wetlands = checkbox(
        "New conveyances discharge to wetlands or waters (§ 267-19B(1))"
    )

    exemptions = forms.MultipleChoiceField(
        label="Exemptions you claim",
        choices=[(e.name, f"{e.citation}: {e.title}") for e in EXEMPTIONS.values()],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="An exemption applies only when every one of its conditions below is shown.",
    )
    routine_maintenance = checkbox(
        "The work is routine maintenance keeping the original line and grade, hydraulic "
        "capacity or purpose of the site (§ 267-16A)"
    )
    agricultural_use_310_cmr_10_04 = checkbox(
        "The land is in agricultural use as 310 CMR 10.04 defines it (§ 267-16B(1))"
    )
    normal_agricultural_maintenance_or_improvement = checkbox(
        "The work is normal maintenance or improvement of that land (§ 267-16B(1))"
    )
    single_family_dwelling = checkbox(
        "The landscaping belongs to a single-family dwelling (§ 267-16B(2))"
    )
    existing_landscaping_maintenance_only = checkbox(
        "The work only keeps up existing landscaping, gardens or lawn (§ 267-16B(2))"
    )
    terrain_drainage_change = forms.ChoiceField(
        label="How much the work changes existing terrain or drainage patterns (§ 267-16B(3), (4))",
        choices=[
            ("unknown", "Not known"),
            ("none", "No change"),
            ("minor", "A minor change"),
            ("substantial", "A substantial change"),
        ],
        required=False,
        initial="unknown",
    )
    utility_includes_drainage = checkbox("The utility work includes drainage (§ 267-16B(4))")
    wholly_within_wetlands_jurisdiction = checkbox(
        "The discharges lie wholly within Wetlands Protection Act jurisdiction (§ 267-16B(5))"
    )
    order_of_conditions_shows_policy_compliance = checkbox(
        "The Conservation Commission's order of conditions shows compliance with the "
        "Massachusetts Stormwater Management Policy (§ 267-16B(5))"
    )

    EXEMPTION_FIELDS = (
        "exemptions",
        "routine_maintenance",
        "agricultural_use_310_cmr_10_04",
        "normal_agricultural_maintenance_or_improvement",
        "single_family_dwelling",
        "existing_landscaping_maintenance_only",
        "terrain_drainage_change",
        "utility_includes_drainage",
        "wholly_within_wetlands_jurisdiction",
        "order_of_conditions_shows_policy_compliance",
    )

    def fieldsets(self) -> list[tuple[str, str, list]]:
        """The questions in groups: legend, an introduction, and the bound fields."""
        visible = {f.name: f for f in self.visible_fields()}
        return [
            ("", "", [f for n, f in visible.items() if n not in self.EXEMPTION_FIELDS]),
            (
                "Exemptions (§ 267-16B)",
                "Optional. Answer only if you claim the work is routine maintenance or exempt.",
                [visible[n] for n in self.EXEMPTION_FIELDS],
            ),
        ]

    def clean_owners(self) -> list[str]:
        return _lines(self.cleaned_data["owners"])

    def service_data(self) -> dict:
        data = dict(self.cleaned_data)
        data["applicant_is_owner"] = data.pop("applicant_role") == "owner"
        facts = {name: data.pop(name) for name in self.EXEMPTION_FIELDS}
        facts["terrain_drainage_change"] = facts["terrain_drainage_change"] or "unknown"
        data["exemption_facts"] = facts
        return data

    @staticmethod
    def initial_for(application: Application) -> dict:
        a = application
        return {
            "title": a.title,
            "site_address": a.site_address,
            "parcel_id": a.parcel_id,
            "description": a.description,
            "applicant_role": "owner" if a.applicant_is_owner else "agent",
            "agent_name": a.agent_name,
            "owners": "\n".join(a.owners or ([a.owner_name] if a.owner_name else [])),
            "owner_address": a.owner_address,
            "engineer_name": a.engineer_name,
            "disturbance_acres": a.disturbance_acres,
            "common_plan_acres": a.common_plan_acres,
            "previously_developed": a.previously_developed,
            "roadway_maintenance_only": a.roadway_maintenance_only,
            "widening_lanes": a.widening_lanes,
            "critical_area": a.critical_area,
            "luhppl": a.luhppl,
            "discharges_to_wetlands": a.discharges_to_wetlands,
            **(a.exemption_facts or {}),
        }


PLAN_STATUS = [
    ("", "Not answered yet"),
    ("provided", "Provided in the plan"),
    ("explained", "Not provided: explained below"),
]


class PlanChecklistForm(forms.Form):
    """The § 267-19A items in force on the law date, each provided or explained."""

    def __init__(self, *args, items: list[dict], entries: dict[str, dict], **kwargs):
        super().__init__(*args, **kwargs)
        self.items = items
        self.fields["all_provided"] = checkbox(
            "Mark every item not yet answered as provided in the plan",
            help_text="Answer the exceptions below first (explained, or provided); the rest are "
            "then marked provided in one go.",
        )
        for item in items:
            entry = entries.get(item["id"])
            status = "" if entry is None else ("provided" if entry["provided"] else "explained")
            label = f"({item['number']}) {item['summary']}"
            self.fields[f"{item['id']}__status"] = forms.ChoiceField(
                label=label,
                choices=PLAN_STATUS,
                required=False,
                initial=status,
                help_text=item["citation"],
            )
            self.fields[f"{item['id']}__explanation"] = forms.CharField(
                label=f"Why item ({item['number']}) is not provided",
                widget=forms.Textarea(attrs={"rows": 2}),
                required=False,
                initial=(entry or {}).get("explanation", ""),
            )

    def rows(self):
        for item in self.items:
            yield item, self[f"{item['id']}__status"], self[f"{item['id']}__explanation"]

    def clean(self):
        data = super().clean()
        for item in self.items:
            status = data.get(f"{item['id']}__status")
            why = (data.get(f"{item['id']}__explanation") or "").strip()
            if status == "explained" and not why:
                self.add_error(
                    f"{item['id']}__explanation",
                    f"Item ({item['number']}) {item['summary']}: say why it is not provided, "
                    f"{item['citation']}",
                )
        return data

    def items_data(self) -> dict[str, dict]:
        """Each answered item; with `all_provided`, every unanswered one as provided."""
        out = {}
        everything = bool(self.cleaned_data.get("all_provided"))
        for item in self.items:
            status = self.cleaned_data.get(f"{item['id']}__status") or (
                "provided" if everything else ""
            )
            if status:
                out[item["id"]] = {
                    "provided": status == "provided",
                    "explanation": self.cleaned_data.get(f"{item['id']}__explanation", ""),
                }
        return out


class OMPlanForm(forms.Form):
    """The O&M plan's contents as § 267-20A lists them."""

    owners = text_area(
        "Owners of the stormwater system (one per line)",
        required=False,
        help_text="§ 267-20A(1)",
        rows=3,
    )
    operation_responsible = text_area(
        "Responsible for operation and maintenance (one per line: name | address)",
        required=False,
        help_text="§ 267-20A(2)",
        rows=3,
    )
    financing_responsible = text_area(
        "Responsible for paying for maintenance and emergency repairs "
        "(one per line: name | address)",
        required=False,
        help_text="§ 267-20A(2)",
        rows=3,
    )
    maintenance_schedule = text_area(
        "Maintenance schedule for every drainage structure",
        required=False,
        help_text="§ 267-20A(2)",
        rows=5,
    )
    easements = text_area(
        "Easements (one per line: purpose | location)",
        required=False,
        help_text="§ 267-20A(2), § 267-20B",
        rows=3,
    )
    no_easements = checkbox("The plan needs no easements")
    offsite_control = checkbox(
        "Stormwater is controlled off the site (an easement is then needed, § 267-20B)"
    )
    owner_signatures = text_area(
        "Owners who signed the maintenance agreement (one per line)",
        required=False,
        help_text="§ 267-20A(2)",
        rows=3,
    )

    def clean_operation_responsible(self):
        return _pairs(self.cleaned_data["operation_responsible"], "operation", "name", "address")

    def clean_financing_responsible(self):
        return _pairs(self.cleaned_data["financing_responsible"], "financing", "name", "address")

    def clean_easements(self):
        return _pairs(self.cleaned_data["easements"], "easements", "purpose", "location")

    def plan_data(self) -> dict:
        d = self.cleaned_data
        easements = d["easements"] or ([] if d["no_easements"] else None)
        return {
            "owners": _lines(d["owners"]),
            "operation_responsible": d["operation_responsible"],
            "financing_responsible": d["financing_responsible"],
            "maintenance_schedule": d["maintenance_schedule"].strip(),
            "easements": easements,
            "owner_signatures": _lines(d["owner_signatures"]),
            "offsite_control": d["offsite_control"],
        }

    @staticmethod
    def initial_for(application: Application) -> dict:
        plan = application.om_plan or {}
        owners = plan.get("owners") or application.owners or []
        return {
            "owners": "\n".join(owners),
            "operation_responsible": _pair_lines(
                plan.get("operation_responsible"), "name", "address"
            ),
            "financing_responsible": _pair_lines(
                plan.get("financing_responsible"), "name", "address"
            ),
            "maintenance_schedule": plan.get("maintenance_schedule", ""),
            "easements": _pair_lines(plan.get("easements"), "purpose", "location"),
            "no_easements": plan.get("easements") == [],
            "offsite_control": plan.get("offsite_control", False),
            "owner_signatures": "\n".join(plan.get("owner_signatures") or []),
        }


class SignatureForm(forms.Form):
    owner_name = forms.ChoiceField(label="Owner")
    signed_on = _date("Signed on")
    attest = forms.BooleanField(
        label="This owner signed the application form; the original signature is filed with the "
        "Board (§ 267-18A)",
    )

    def __init__(self, *args, owners: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["owner_name"].choices = [(o, o) for o in owners]


class AbuttersForm(forms.Form):
    certified_on = _date(
        "Date the Assessors certified the list",
        help_text="The list is flagged when older than the town's validity period.",
    )
    file = forms.FileField(
        label="Abutters list (CSV)",
        help_text="A header row with the columns parcel, name, mailing_address; one abutter a row.",
    )


class UploadForm(forms.Form):
    kind = forms.ChoiceField(label="What the file is")
    file = forms.FileField(
        label="File",
        help_text="Plans and letters as PDF; a site file as YAML or JSON (see the site-file "
        "reference).",
    )

    def __init__(self, *args, kinds, **kwargs):
        super().__init__(*args, **kwargs)
        labels = dict(Upload.Kind.choices)
        self.fields["kind"].choices = [(k, labels[k]) for k in kinds]


class ReasonForm(forms.Form):
    reason = text_area("Reason (optional)", required=False, rows=3)


class ConfirmForm(forms.Form):
    """A step with nothing to type: the button is the whole form."""


class SubmitForm(AccessibleForm):
    """Submitting or resubmitting: when completeness items are missing, the applicant confirms
    submitting without them (lawful; the Board's staff then find it incomplete, § 267-18A)."""

    def __init__(self, *args, missing: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.missing = missing
        if missing:
            self.fields["confirm_missing"] = checkbox(
                f"I submit the application without the {len(missing)} missing item(s) listed above",
                help_text="The Board's staff will then find it incomplete and tell you what to "
                "add (§ 267-18A).",
            )
            self.describe_help()

    def clean(self):
        data = super().clean()
        if self.missing and not data.get("confirm_missing"):
            self.add_error(
                "confirm_missing",
                f"{len(self.missing)} item(s) are missing: add them first, or confirm that you "
                "submit without them (§ 267-18A)",
            )
        return data


class CompletenessForm(forms.Form):
    decision = radio(
        "Finding", [("complete", "Complete: the clock starts"), ("incomplete", "Incomplete")]
    )
    received_complete_on = _date(
        "Received complete on (if complete)",
        required=False,
        help_text="The § 267-18E clock runs from the day the complete application was received; "
        "default: the last submission.",
    )
    missing = forms.MultipleChoiceField(
        label="What is missing (if incomplete)",
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    other_reasons = text_area("Anything else missing (one per line)", required=False, rows=3)
    notes = text_area("Notes for the file", required=False, rows=3)

    def __init__(self, *args, checklist, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["missing"].choices = [
            (i.key, f"{i.label} ({i.citation}): {i.detail}") for i in checklist
        ]
        self.fields["missing"].initial = [i.key for i in checklist if i.blocking and not i.met]

    def clean_other_reasons(self) -> list[str]:
        return _lines(self.cleaned_data["other_reasons"])


class FeeForm(forms.Form):
    kind = forms.ChoiceField(label="Fee", choices=Fee.Kind.choices)
    amount = forms.DecimalField(label="Amount (US$)", max_digits=10, decimal_places=2)
    paid_on = _date("Paid on", required=False, help_text="Leave empty while the fee is due.")
    receipt_number = forms.CharField(label="Receipt number", max_length=60, required=False)


class FilingForm(forms.Form):
    what = forms.ChoiceField(label="What was filed with the Town Clerk")
    filed_on = _date("Filed on")
    receipt_number = forms.CharField(label="Town Clerk's receipt number", max_length=60)

    def __init__(self, *args, items: list[dict], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["what"].choices = [(i["summary"], i["summary"]) for i in items]


class ReferralForm(forms.Form):
    boards = forms.MultipleChoiceField(
        label="Boards to receive a copy (§ 267-18C)",
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    other_board = forms.CharField(label="Another board", max_length=100, required=False)
    sent_on = _date("Sent on")
    response_due = _date(
        "Response due by", help_text="Set by the Board's staff; the bylaw fixes no period."
    )

    def __init__(self, *args, boards: list[str], pending: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["boards"].choices = [(b, b) for b in boards]
        self.fields["boards"].initial = pending

    def board_list(self) -> list[str]:
        extra = (self.cleaned_data.get("other_board") or "").strip()
        return list(self.cleaned_data["boards"]) + ([extra] if extra else [])


class ReferralResponseForm(forms.Form):
    responded_on = _date("Response received on")
    response = text_area("What the board said", rows=3)


class CommentForm(forms.Form):
    body = text_area("Comment")
    request_to_applicant = checkbox(
        "This is a request to the applicant (they are e-mailed and can reply)"
    )
    visible_to_applicant = checkbox("The applicant may read it", initial=True)


class ReplyForm(forms.Form):
    body = text_area("Your reply")


class WaiverForm(forms.Form):
    requirement = forms.CharField(
        label="Requirement to be waived",
        max_length=200,
        help_text="e.g. the section and the standard, as in § 267-19B(2)",
    )
    reasons = text_area(
        "Reasons, showing why strict compliance would not serve the bylaw's purposes",
        required=False,
        help_text="A waiver request must be written and give its reasons (§ 267-23B).",
        rows=5,
    )
