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

from outfall.kernel.legal_style import legal_date, legal_day_of
from outfall.web.apps.kit.documents import Signature
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
    Variable("agent", "the Board's clerk or agent producing the document", ("name", "title")),
    Variable(
        "signatures",
        "the document's signature blocks, shown with {% signatures signatures %} (a list)",
        ("heading", "attest", "for_body", "name", "title", "signed_on"),
        many=True,
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

DERIVED_VARIABLES = frozenset({"signatures"})
"""Variables made from the others when the context does not give them (`document_signatures`)."""
OPTIONAL_VARIABLES = frozenset({"signers"})
"""Variables a service may leave out (the decision prints blank lines for the Board)."""

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
                    ("certified_on", "deadline_missed", ("certified_by", ("get_full_name",))),
                ),
                Variable("citation", "the section the decision rests on, e.g. § 267-18F(2)"),
                Variable(
                    "signers",
                    "the Board members who sign the decision (a list; blank lines without it)",
                    ("name", "title"),
                    many=True,
                ),
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
    `context`, as plain values; anything undeclared is dropped. The signature blocks are made
    from the context when it does not give them (`document_signatures`)."""
    declared = DOCUMENT_KINDS[kind].all_variables
    plain = {v.name: _plain_variable(v, context[v.name]) for v in declared if v.name in context}
    if "signatures" not in context:
        signatures = next(v for v in declared if v.name == "signatures")
        plain["signatures"] = _plain_variable(signatures, document_signatures(kind, plain))
    return plain


BOARD = "For the Planning Board"
MEMBER = "Member, Planning Board"
AGENT = "Agent of the Planning Board"
BLANK_BOARD_LINES = 5
"""Signature lines printed for the Board when the decision names no signers: five, the size of
most Massachusetts planning boards (the project's layout, not a rule of the bylaw); the
decision's own list of members replaces them."""


def _name(person) -> str:
    return (_read(person, "get_full_name") or _read(person, "username") or "") if person else ""


def _agent(plain: Mapping, person=None, *, signed_on=None) -> Signature:
    """The Board's clerk or agent signing for the Board: the person named, else the one
    producing the document."""
    agent = plain.get("agent")
    name = _name(person) or (agent.name if agent else "")
    title = agent.title if agent and agent.name == name else AGENT
    return Signature(for_body=BOARD, name=name, title=title or AGENT, signed_on=signed_on)


def _decision_signatures(plain: Mapping) -> list[Signature]:
    signers = plain.get("signers") or ()
    lines = [Signature(name=s.name, title=s.title or MEMBER) for s in signers] or [
        Signature(title=MEMBER) for _ in range(BLANK_BOARD_LINES)
    ]
    lines[0] = Signature(heading=BOARD, name=lines[0].name, title=lines[0].title)
    decision, constructive = plain.get("decision"), plain.get("constructive")
    if decision is not None:
        filed = decision.filed_with_town_clerk_on
        attest = (
            f"Received and filed in the office of the Town Clerk on {legal_day_of(filed)}."
            if filed
            else "Received and filed in the office of the Town Clerk on the date below."
        )
        lines.append(
            Signature(heading="Town Clerk", attest=attest, title="Town Clerk", signed_on=filed)
        )
    elif constructive is not None:
        attest = (
            "I certify that the Planning Board took no final action on this application by "
            f"{legal_date(constructive.deadline_missed)}, and that the application therefore "
            f"stands approved (§ 267-18G). Certified {legal_day_of(constructive.certified_on)}."
        )
        lines = [
            Signature(
                heading="Town Clerk's certification",
                attest=attest,
                name=_name(constructive.certified_by),
                title="Town Clerk",
                signed_on=constructive.certified_on,
            ),
            Signature(for_body=BOARD, title=AGENT),
        ]
    return lines


def document_signatures(kind: str, plain: Mapping) -> list[Signature]:
    """Who signs a document of this kind, from its plain context: the Board (each member, or
    blank lines) and the Town Clerk's filing stamp on the decision; the Board's clerk or agent
    on the notices, the certificate and the surety release letter."""
    if kind == Kind.DECISION:
        return _decision_signatures(plain)
    if kind == Kind.INCOMPLETENESS_NOTICE:
        review = plain.get("review")
        return [
            _agent(plain, review and review.reviewed_by, signed_on=review and review.reviewed_on)
        ]
    if kind == Kind.CERTIFICATE:
        certificate = plain.get("certificate")
        return [
            _agent(
                plain,
                certificate and certificate.issued_by,
                signed_on=certificate and certificate.issued_on,
            )
        ]
    if kind == Kind.SURETY_RELEASE:
        release = plain.get("release")
        return [_agent(plain, signed_on=release and release.released_on)]
    return [_agent(plain, signed_on=plain.get("today"))]
