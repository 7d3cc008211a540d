"""The one step controller: a form, one service call, then either the success message and the
next page, or the page again with what was typed and every reason the law gives, each with its
section. A service's InputError lands on its field; nothing is half-saved, because each service
is one transaction.

`step_page` renders the page the usual way; `step_attempt` is the same step for a page that
renders itself (a record's page that holds several forms).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render

from outfall.kernel.errors import InputError
from outfall.law.determination import Reason
from outfall.law.errors import LawError
from outfall.web.apps.kit.forms import add_input_error
from outfall.web.apps.kit.refusals import REFUSALS
from outfall.web.apps.kit.versions import FIELD, EditedSince

# What `perform` does: the one service call, returning the success message and the next URL.
Perform = Callable[[dict], tuple[str, str]]


@dataclass
class Attempt:
    """What became of a step: `done` is the redirect after success; otherwise `refusal` holds the
    law's reasons (empty when the form itself was wrong, whose errors the form now carries)."""

    done: HttpResponse | None = None
    refusal: list[Reason] = field(default_factory=list)
    conflict: bool = False
    """Another person saved the record since the form was opened (kit.versions): nothing was
    written; the form says what changed and now carries the current version."""


def _edited_since(form, exc: EditedSince) -> None:
    """Put what changed on the form and hand it the current version, keeping what was typed."""
    for line in exc.messages():
        form.add_error(None, line)
    form.data = form.data.copy()
    form.data[form.add_prefix(FIELD)] = exc.token


def step_attempt(request, form, perform: Perform) -> Attempt:
    """On a valid POST, run `perform(cleaned_data)`; success flashes its message and redirects."""
    if request.method != "POST" or not form.is_valid():
        return Attempt()
    try:
        message, url = perform(form.cleaned_data)
    except InputError as exc:
        add_input_error(form, exc)
    except EditedSince as exc:
        _edited_since(form, exc)
        return Attempt(conflict=True)
    except REFUSALS as exc:
        return Attempt(refusal=list(exc.reasons))
    except LawError as exc:
        form.add_error(None, str(exc))
    else:
        messages.success(request, message)
        return Attempt(done=redirect(url))
    return Attempt()


def step_page(
    request,
    *,
    form,
    perform: Perform,
    template: str = "kit/step.html",
    context: dict | None = None,
    failed_status: int = 400,
    refused_status: int | None = None,
) -> HttpResponse:
    """GET shows the form; POST runs the step. A POST that did not succeed answers
    `failed_status`, or `refused_status` (when given) if the law refused it, or 409 when
    another person saved the record since the form was opened (nothing written).

    `kit/step.html` reads from `context`: title, back (and back_label), subject, section,
    target, intro, notes, blockers (why the step is not possible now) and refusal_heading.
    """
    attempt = step_attempt(request, form, perform)
    if attempt.done is not None:
        return attempt.done
    status = 200
    if attempt.conflict:
        status = 409
    elif request.method == "POST":
        status = (refused_status or failed_status) if attempt.refusal else failed_status
    page = {**(context or {}), "form": form, "refusal": attempt.refusal}
    return render(request, template, page, status=status)


@dataclass(frozen=True)
class RecordSteps:
    """The step pages of one kind of record: how they find it (a 404 when the reader may not see
    it), who may take a step on it (a 403), its own page (where a step goes back to) and the line
    that names it above the form; `action` and `section` are its steps' unless a step names
    its own."""

    get: Callable[[Any, int], Any]
    require: Callable[[Any, str, Any], None]
    url: Callable[[Any], str]
    subject: Callable[[Any], str]
    back_label: Callable[[Any], str] | None = None
    action: str = ""
    section: str = ""

    def step(
        self,
        request,
        pk: int,
        *,
        title: str,
        form_class,
        perform: Callable[..., str],
        form_kwargs: Callable[[Any], dict] | None = None,
        initial: Callable[[Any], dict | None] | None = None,
        target: Callable[[Any], Any] | None = None,
        describe: Callable[[Any], Any] | None = None,
        blockers: Callable[[Any], list[Reason]] | None = None,
        notes: Callable[[Any, Any], list[str]] | None = None,
        action: str = "",
        section: str | Callable[[Any], str] = "",
    ) -> HttpResponse:
        """Step `title` on record `pk`: `perform(record, data, form, target)`
        makes the one service call and returns the success message; the page goes back to the
        record. `target` picks the item of the record the step concerns (`describe` words it);
        `section` may be read from the record."""
        record = self.get(request.user, pk)
        self.require(request.user, action or self.action, record)
        item = target(record) if target else None
        posted = request.method == "POST"
        form = form_class(
            request.POST if posted else None,
            request.FILES if posted else None,
            initial=initial(record) if initial else None,
            **(form_kwargs(record) if form_kwargs else {}),
        )
        back = self.url(record)
        context = {
            "record": record,
            "title": title,
            "back": back,
            "back_label": self.back_label(record) if self.back_label else "Back",
            "subject": self.subject(record),
            "section": (section(record) if callable(section) else section) or self.section,
            "target": describe(item) if describe else item,
            "blockers": blockers(record) if blockers else [],
            "notes": notes(record, item) if notes else [],
        }
        return step_page(
            request,
            form=form,
            perform=lambda d: (perform(record, d, form, item), back),
            context=context,
        )
