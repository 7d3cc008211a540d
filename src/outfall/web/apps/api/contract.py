"""The API as a contract: one error envelope for every 4xx under /api/, readable operation ids,
closed sets as enums, bounded pages, and the one way an answer is shaped from a record.

- `ErrorOut`: the one shape of every 4xx answer — `detail` says what went wrong; `problems`
  lists each bad input (400, 422) with its field, value, reason and section; `reasons` lists
  every reason a step or a record is refused (409), each with its section.
- `answers(ok, *codes)`: an operation's documented answers — its success shape and `ErrorOut`
  for each error it may give (400, 401 and 422 always; 429 for the public lists instead of 401).
- `OutfallAPI`: a NinjaAPI whose operation ids are its views' names in lowerCamelCase
  (`list_applications` → `listApplications`), whose validation errors keep the value given,
  and whose every refusal is answered through `ErrorOut` (`install_error_handlers`).
- `one_of` / `any_of`: a closed set as an enum (`any_of` for a filter, where empty means any);
  `field_values`: the set a model field's choices allow.
- `PageIn`: a page's `limit` (1..200) and `offset` (0..10,000,000), the bounds `kit.api.page`
  enforces, in the schema.
- `shaped(schema, obj, **given)`: an answer of `schema`'s fields read from `obj`, but for those
  given.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from ninja import Field, NinjaAPI, Schema
from ninja.errors import HttpError, ValidationError, ValidationErrorContext
from pydantic import BeforeValidator

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.web.apps.assets.geojson import ImportRefused
from outfall.web.apps.kit.api import MAX_OFFSET, REFUSED, reasons_out
from outfall.web.apps.kit.refusals import Refused

# ------------------------------------------------------------------ the error envelope


class ProblemOut(Schema):
    field: str = Field(
        description="the input at fault: a query or path parameter, or a body field as a "
        "dotted path (e.g. conditions.chlorine_ppm); `body` for the body as a whole"
    )
    value: str | None = Field(description="the value given, as text; null when none was given")
    reason: str = Field(description="why it is refused")
    section: str | None = Field(
        description="the section of the bylaw whose rule refuses it, e.g. § 267-9; null for a "
        "rule of form (a number, a date, a required field)"
    )


class ReasonOut(Schema):
    citation: str = Field(description="the section, e.g. § 267-18E")
    text: str


class StepOut(Schema):
    """A lifecycle step open from a record's state."""

    name: str
    label: str
    citation: str = Field(description="the section the step is taken under")
    blockers: list[ReasonOut] = Field(description="why the law does not allow it now")


class PolicyStepOut(StepOut):
    """A step with the policy rule that governs it and whether the caller may take it."""

    action: str = Field(description="the policy action whose rule governs this step")
    permitted: bool = Field(description="whether the caller may take this step")


class ErrorOut(Schema):
    """Every 4xx answer under /api/ has this shape."""

    status: int = Field(description="the HTTP status, repeated for logs")
    detail: str = Field(description="what went wrong, in a sentence")
    problems: list[ProblemOut] = Field(
        description="400 and 422: each bad input with its field, value, reason and section; "
        "empty otherwise"
    )
    reasons: list[ReasonOut] = Field(
        description="409: every reason the law or the record gives, each with its section; "
        "empty otherwise"
    )
    transition: str | None = Field(None, description="409 for a lifecycle step: the step refused")
    state: str | None = Field(None, description="409 for a lifecycle step: the state it was in")


ERROR_TEXT = {
    400: "The request could not be read.",
    401: "Sign in: send `Authorization: Bearer <token>`, or use a signed-in browser session.",
    403: "You may not do this.",
    404: "Not found.",
    405: "This address does not take that method.",
    409: REFUSED,
    422: "Some of the input is not acceptable; each problem is listed.",
    429: "Too many requests: slow down and try again in a minute.",
}


def problem(field: str, value: object, reason: str, section: str | None = None) -> dict:
    """One bad input as `ProblemOut` (a value is shown as text, at most 200 characters)."""
    shown = None if value is None else str(value)
    if shown is not None and len(shown) > 200:
        shown = shown[:199] + "…"
    return {"field": field, "value": shown, "reason": reason, "section": section or None}


def error_body(
    status: int,
    detail: str | None = None,
    *,
    problems: Iterable[dict] = (),
    reasons: Iterable[dict] = (),
    transition: str | None = None,
    state: str | None = None,
) -> dict:
    """The envelope of a 4xx answer."""
    return {
        "status": status,
        "detail": detail or ERROR_TEXT.get(status, "The request was refused."),
        "problems": list(problems),
        "reasons": list(reasons),
        "transition": transition,
        "state": state,
    }


SIGNED_IN = (400, 401, 422)
"""What any operation behind sign-in may answer: unreadable input, no sign-in, bad input."""
PUBLIC = (400, 422, 429)
"""What any public list may answer: unreadable input, bad input, too many requests."""


def answers(ok: dict[int, Any], *errors: int, public: bool = False) -> dict[int, Any]:
    """The documented answers of an operation: `ok` and the envelope for each error status."""
    codes = sorted({*(PUBLIC if public else SIGNED_IN), *errors})
    return {**ok, **dict.fromkeys(codes, ErrorOut)}


# ------------------------------------------------------------------ the API and its handlers


def camel(name: str) -> str:
    """`list_applications` → `listApplications`."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _field_of(loc: Iterable) -> str:
    """A validation error's location as a field: the parameter's name, or a dotted body path
    (`payload` and the source — query, path, body — are left out)."""
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("query", "path", "body", "form", "file", "header", "cookie"):
        parts = parts[1:]
    if parts and parts[0] in ("payload", "filters"):
        parts = parts[1:]
    return ".".join(parts) or "body"


class OutfallAPI(NinjaAPI):
    """NinjaAPI with readable operation ids and validation errors that keep the value given."""

    def get_openapi_operation_id(self, operation) -> str:
        return camel(operation.view_func.__name__)

    def validation_error_from_error_contexts(
        self, error_contexts: list[ValidationErrorContext]
    ) -> ValidationError:
        errors = []
        for context in error_contexts:
            model = context.model
            for e in context.pydantic_validation_error.errors(include_url=False):
                inner = model.__ninja_flatten_map_reverse__.get(e["loc"], e["loc"])
                loc = (model.__ninja_param_source__, *inner)
                errors.append(
                    {"loc": loc, "type": e["type"], "msg": e["msg"], "input": e.get("input")}
                )
        return ValidationError(errors)


def _validation_problems(errors: list[dict]) -> list[dict]:
    """Each framework validation error as a problem (a missing field has no value)."""
    return [
        problem(
            _field_of(e.get("loc", ())),
            None if e.get("type") == "missing" else e.get("input"),
            e.get("msg", "not acceptable"),
        )
        for e in errors
    ]


def install_error_handlers(api: NinjaAPI) -> None:
    """Answer every refusal under /api/ through `ErrorOut` (lock contention's 409 and a NUL
    character's 400 come from `core.middleware`, in the same envelope)."""

    def respond(request: HttpRequest, body: dict) -> HttpResponse:
        return api.create_response(request, body, status=body["status"])

    @api.exception_handler(ValidationError)
    def _invalid(request, exc: ValidationError):
        return respond(request, error_body(422, problems=_validation_problems(exc.errors)))

    @api.exception_handler(InputError)
    def _bad_input(request, exc: InputError):
        body = error_body(422, problems=[problem(exc.field, exc.value, exc.why, exc.citation)])
        return respond(request, body)

    @api.exception_handler(HttpError)
    def _http_error(request, exc: HttpError):
        status = exc.status_code
        if status == 400:
            why = "not readable as JSON" if exc.__cause__ else str(exc)
            return respond(request, error_body(400, problems=[problem("body", None, why)]))
        # A 401 says how to sign in, or why the token sent cannot (revoked, expired).
        default = status == 401 and str(exc) in ("", "Unauthorized")
        detail = ERROR_TEXT[401] if default else str(exc)
        return respond(request, error_body(status, detail))

    @api.exception_handler(RequestDataTooBig)
    def _too_big(request, exc):
        why = "larger than this server accepts"
        return respond(request, error_body(400, problems=[problem("body", None, why)]))

    @api.exception_handler(Http404)
    def _not_found(request, exc):
        return respond(request, error_body(404, str(exc) or None))

    @api.exception_handler(PermissionDenied)
    def _forbidden(request, exc):
        return respond(request, error_body(403, str(exc) or None))

    @api.exception_handler(TransitionNotAllowed)
    def _step_refused(request, exc: TransitionNotAllowed):
        body = error_body(
            409, reasons=reasons_out(exc.reasons), transition=exc.transition, state=exc.state
        )
        return respond(request, body)

    @api.exception_handler(ImportRefused)
    def _not_imported(request, exc: ImportRefused):
        field = "file" if request.content_type == "multipart/form-data" else "body"
        problems = [problem(field, None, error) for error in exc.errors]
        return respond(request, error_body(422, "Nothing was imported.", problems=problems))

    @api.exception_handler(Refused)
    def _refused(request, exc: Refused):
        return respond(request, error_body(409, reasons=reasons_out(exc.reasons)))


def not_found_body(path: str) -> dict:
    return error_body(404, f"No part of the API answers at {path}.")


# ------------------------------------------------------------------ closed sets and pages


def one_of(values: Iterable[str]) -> Any:
    """A closed set as an enum in the schema (a `Literal` of `values`, in their order)."""
    return Literal[tuple(str(v) for v in values)]


def field_values(model, name: str) -> list[str]:
    """The values a model field's choices allow (with the empty value, where it may be blank)."""
    field = model._meta.get_field(name)
    values = [str(value) for value, _label in field.choices]
    return ["", *values] if field.blank and "" not in values else values


def _empty_is_none(value):
    return None if value == "" else value


def any_of(values: Iterable[str]) -> Any:
    """A filter on a closed set: one of `values`, or none (empty or left out) for any."""
    return Annotated[one_of(values) | None, BeforeValidator(_empty_is_none)]


TEXT_MAX = 20_000
"""The longest free text (a description, an order's text) the API takes."""

DEFAULT_LIMIT = 50
MOST = 200


class PageIn(Schema):
    limit: int = Field(DEFAULT_LIMIT, ge=1, le=MOST, description="how many rows, 1 to 200")
    offset: int = Field(
        0, ge=0, le=MAX_OFFSET, description="how many rows to skip, 0 to 10,000,000"
    )


def shaped(schema: type[Schema], obj: object, **given: Any) -> dict:
    """An answer of `schema`: each field `given`, else read from `obj` under its own name."""
    return {
        name: given[name] if name in given else getattr(obj, name) for name in schema.model_fields
    }
