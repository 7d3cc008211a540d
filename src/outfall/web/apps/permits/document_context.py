"""What each generated document may read: its variables, their fields, and the plain values
they are turned into before any template sees them.

A document template — the project's default or a town's own — never receives a model
instance, a manager or a queryset: `document_context_plain` copies the declared fields of each
variable into plain namespaces (strings, numbers, dates, booleans and lists of those), so a
template cannot walk from `application` to the town's members, a password hash or a file's path
on the server. The declarations below are also what the template editor shows a clerk.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import SimpleNamespace

from outfall.web.apps.permits.models import DocumentTemplate

Kind = DocumentTemplate.Kind

PLAIN_SCALARS = (str, int, float, bool, Decimal, dt.date, dt.datetime, dt.time)

# A field spec: a name, or (name, nested fields) for a field that is itself a record.
Field = str | tuple[str, tuple["Field", ...]]


@dataclass(frozen=True)
class Variable:
    """One name a document template may use, what it holds, and the fields it exposes (empty
    for a plain value). `many`: a list of records with those fields."""

    name: str
    what: str
    fields: tuple[Field, ...] = ()
    many: bool = False

    @property
    def attributes(self) -> str:
        """The fields as the template editor lists them."""
        text = ", ".join(_field_text(f) for f in self.fields)
        return f"each: {text}" if self.many and text else text


def _field_text(spec: Field) -> str:
    if isinstance(spec, str):
        return spec
    name, nested = spec
    return f"{name} ({', '.join(_field_text(f) for f in nested)})"


@dataclass(frozen=True)
class DocumentKind:
    """A kind of generated document, the section it serves and the variables it receives."""

    kind: str
    label: str
    section: str
    variables: tuple[Variable, ...] = field(default=())

    @property
    def all_variables(self) -> tuple[Variable, ...]:
        return COMMON_VARIABLES + self.variables


COMMON_VARIABLES = (
    Variable(
        "application",
        "the case",
        (
            "number",
            "title",
            "site_address",
            "parcel_id",
            "description",
            "owner_name",
            "owner_address",
            "applicant_is_owner",
            "agent_name",
            "engineer_name",
            "submitted_on",
            "complete_on",
            "construction_started_on",
            "construction_completed_on",
            "law_date",
        ),
    ),
    Variable(
        "town", "the town", ("name", "planning_board_address", "registry_of_deeds", "newspaper")
    ),
    Variable("today", "the date the document is produced (a date)"),
    Variable(
        "law",
        "the town's periods under § 267-18E in the case's law (numbers of days)",
        ("hearing_open_within_days", "decision_within_days", "notice_days_before"),
    ),
)
_HEARING = Variable(
    "hearing",
    "the public hearing",
    (
        "scheduled_for",
        "location",
        "newspaper",
        "notice_published_on",
        "notice_posted_on",
        "abutters_mailed_on",
        "opened_on",
        "closed_on",
    ),
)
_HEARING_AT = Variable("hearing_at", "the hearing's date and time in the town's time zone")
_NOTICE_BY = Variable(
    "notice_by",
    "the last day to publish, post and mail the notice, or nothing before completeness",
    ("due", "raw_due", "citation", "explanation", "moved_because"),
)
_REASONS = Variable(
    "reasons", "the law's reasons for the step (a list)", ("citation", "text"), many=True
)
_PERMIT = Variable("permit", "the permit, once issued (else nothing)", ("number", "issued_on"))

DOCUMENT_KINDS: dict[str, DocumentKind] = {
    d.kind: d
    for d in (
        DocumentKind(
            Kind.HEARING_NOTICE.value,
            Kind.HEARING_NOTICE.label,
            "§ 267-18E",
            (_HEARING, _HEARING_AT, _NOTICE_BY),
        ),
        DocumentKind(
            Kind.ABUTTER_LETTER.value,
            Kind.ABUTTER_LETTER.label,
            "§ 267-18E",
            (
                _HEARING,
                _HEARING_AT,
                _NOTICE_BY,
                Variable(
                    "abutters",
                    "the certified abutters (a list; one letter each)",
                    ("name", "mailing_address", "parcel_id"),
                    many=True,
                ),
            ),
        ),
        DocumentKind(
            Kind.INCOMPLETENESS_NOTICE.value,
            Kind.INCOMPLETENESS_NOTICE.label,
            "§ 267-18A",
            (
                Variable(
                    "missing",
                    "what is missing (a list)",
                    ("key", "label", "citation", "detail", "blocking"),
                    many=True,
                ),
                Variable(
                    "review",
                    "the completeness review",
                    ("reviewed_on", "notes", ("reviewed_by", ("get_full_name", "username"))),
                ),
                Variable("notes", "the reviewer's notes (text)"),
            ),
        ),
        DocumentKind(
            Kind.DECISION.value,
            Kind.DECISION.label,
            "§ 267-18F",
            (
                Variable(
                    "decision",
                    "the Board's written decision (nothing after approval by failure to act)",
                    (
                        "kind",
                        "get_kind_display",
                        "voted_on",
                        "votes_for",
                        "votes_against",
                        "votes_abstaining",
                        "findings",
                        "surety_required",
                        "surety_amount",
                        "filed_with_town_clerk_on",
                    ),
                ),
                Variable(
                    "conditions",
                    "the decision's numbered conditions (a list)",
                    ("number", "phase", "text"),
                    many=True,
                ),
                Variable(
                    "members_present",
                    "the members present at the decision meeting (a list); a recused member "
                    "has the reason",
                    ("name", "recused", "recusal_reason"),
                    many=True,
                ),
                Variable(
                    "member_votes",
                    "each sitting member's vote on the decision (a list); recorded_for_member "
                    "when the clerk recorded it for them",
                    ("name", "vote", "recorded_for_member"),
                    many=True,
                ),
                Variable(
                    "close_present",
                    "the members present at the close of the hearing (a list)",
                    ("name", "recused", "recusal_reason"),
                    many=True,
                ),
                _PERMIT,
                Variable(
                    "hearing",
                    "the public hearing (or nothing)",
                    ("location", "opened_on", "closed_on"),
                ),
                Variable(
                    "waivers",
                    "the waivers voted at the close of the hearing (a list); votes names each "
                    "member's vote, tally counts them",
                    ("requirement", "reasons", "granted", "voted_on", "votes", "tally"),
                    many=True,
                ),
                Variable(
                    "constructive",
                    "the Town Clerk's certification of approval by failure to act (or nothing)",
                    ("certified_on", "deadline_missed"),
                ),
                Variable("citation", "the section the decision rests on, e.g. § 267-18F(2)"),
            ),
        ),
        DocumentKind(
            Kind.CERTIFICATE.value,
            Kind.CERTIFICATE.label,
            "§ 267-24",
            (
                Variable(
                    "certificate",
                    "the certificate",
                    ("issued_on", ("issued_by", ("get_full_name",))),
                ),
                Variable(
                    "final_inspection", "the passed final inspection", ("done_on", "findings")
                ),
                Variable(
                    "as_built",
                    "the accepted as-built drawings",
                    ("received_on", "engineer_name", "pe_license", "deviations"),
                ),
                Variable(
                    "easements",
                    "the recorded easements (a list)",
                    ("purpose", "location", "recorded_on", "book", "page"),
                    many=True,
                ),
                _REASONS,
                _PERMIT,
            ),
        ),
        DocumentKind(
            Kind.SURETY_RELEASE.value,
            Kind.SURETY_RELEASE.label,
            "§ 267-21",
            (
                Variable(
                    "surety",
                    "the security posted",
                    ("form", "get_form_display", "amount", "posted_on", "instrument_reference"),
                ),
                Variable(
                    "release",
                    "this release",
                    ("kind", "amount", "released_on", "phase"),
                ),
                Variable("held_before", "the amount held before this release (dollars)"),
                Variable("held_after", "the amount still held after it (dollars)"),
                _REASONS,
            ),
        ),
    )
}


def document_kind_get(kind: str) -> DocumentKind | None:
    return DOCUMENT_KINDS.get(kind)


def _read(record, name: str):
    """One field of a record (a mapping or an object); a method such as get_kind_display is
    called, as the template engine would."""
    value = record.get(name) if isinstance(record, Mapping) else getattr(record, name, None)
    if callable(value) and not isinstance(value, PLAIN_SCALARS):
        value = value()
    return value


def plain_value(value):
    """A value a template may hold: scalars as they are, anything else as its text."""
    if value is None or isinstance(value, PLAIN_SCALARS):
        return value
    return str(value)


def plain_record(record, fields: Iterable[Field]) -> SimpleNamespace | None:
    """The declared fields of a record, copied into a namespace of plain values."""
    if record is None:
        return None
    values = {}
    for spec in fields:
        if isinstance(spec, str):
            values[spec] = plain_value(_read(record, spec))
        else:
            name, nested = spec
            values[name] = plain_record(_read(record, name), nested)
    return SimpleNamespace(**values)


def _plain_variable(variable: Variable, value):
    if not variable.fields:
        return plain_value(value)
    if variable.many:
        return [plain_record(item, variable.fields) for item in (value or ())]
    return plain_record(value, variable.fields)


def document_context_plain(kind: str, context: Mapping) -> dict:
    """The context a document of this kind is rendered with: each declared variable present in
    `context`, as plain values; anything undeclared is dropped."""
    declared = DOCUMENT_KINDS[kind].all_variables
    return {v.name: _plain_variable(v, context[v.name]) for v in declared if v.name in context}
