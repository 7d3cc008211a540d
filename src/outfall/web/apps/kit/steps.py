"""The one step controller: a form, one service call, then either the success message and the
next page, or the page again with what was typed and every reason the law gives, each with its
section. A service's InputError lands on its field; nothing is half-saved, because each service
is one transaction.

`step_page` renders the page the usual way; `step_attempt` is the same step for a page that
renders itself (a record's page that holds several forms). The step pages of one kind of record
are each declared once as a `Step`; `RecordSteps` makes their views and URLs (and the record's
own pages and stored PDF), and `NewRecords` those of the pages that record a new one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_GET, require_POST

from outfall.kernel.errors import InputError
from outfall.law.determination import Reason
from outfall.law.errors import LawError
from outfall.web.apps.core.files import stored_file_response
from outfall.web.apps.kit.forms import add_input_error, as_bool
from outfall.web.apps.kit.refusals import REFUSALS
from outfall.web.apps.kit.selectors import row_or_404
from outfall.web.apps.kit.versions import FIELD, EditedSince


@dataclass(frozen=True)
class Offer:
    """A step a page offers, the one way every page lists next steps: a step the record's state
    does not lead to is not offered at all; one it leads to is a link (`url`) when nothing stands
    against it now, and otherwise is shown without a link as "Not yet:" with every reason and its
    section (`kit/_offer.html`)."""

    key: str
    label: str
    section: str
    url: str | None = None
    reasons: tuple[Reason, ...] = ()

    @property
    def open(self) -> bool:
        return not self.reasons


def offer(
    machine,
    name: str,
    state: str,
    facts: Any,
    *,
    url: str,
    label: str = "",
    given: Callable[[Any], Any] | None = None,
) -> Offer | None:
    """The offer of lifecycle step `name` of `machine` from `state` (None: the state does not
    lead to it), its guard asked with the recorded `facts`; `given(facts)` adds what the step's
    own form supplies (a hearing date to schedule, the waivers voted at the close), so a guard
    on the form's own input does not hold back the page that asks for it."""
    reasons = machine.open_now(name, state, given(facts) if given else facts)
    if reasons is None:
        return None
    step = machine.step(name)
    section = step.section_for(machine.variant(facts))
    return Offer(name, label or step.label, section, None if reasons else url, tuple(reasons))


def offer_if(key: str, label: str, section: str, url: str, reasons=()) -> Offer:
    """The offer of a step the lifecycle does not declare (a cost, a consent), its window and
    reasons decided by the caller."""
    reasons = tuple(reasons)
    return Offer(key, label, section, None if reasons else url, reasons)


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

    `kit/step.html` reads from `context`: title, button (its label; the title if none), back (and back_label), subject, section,
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
class Step:
    """One step page of a kind of record, declared once: `RecordSteps.urls` makes its view and
    its URL (`name`, and `route` below the record's; a step on one item of the record names it
    `<int:item>` there, and `target(record, item)` finds it, a 404 when it is not the record's).

    The step is one service call on its subject, the item when there is one, else the record:
    `call(subject, actor=user, **keywords)`, the keywords being the form's cleaned data unless
    `keywords(subject, data, form)` makes them. `done` is the success message, or
    `done(subject, result)` words it from what the service returned.

    `title`, `action` and `section` are its page's heading, the policy action asked and the
    section shown (the heading and the section may be read from the record); `key` names the
    step in the app's own table of steps (what may stand in its way). A step may have its own
    `template`, and `context(user, record, item)` adds what that page shows; `form_kwargs(record)`
    and, on an item, `item_form_kwargs(record, item)` are given to its form; a page that every
    reader of the record may open (`shown_to`, an action) asks `action` only of a POST. A step
    whose form stands on the record's own page names it there (`form_name`): it is posted from
    that page, and a failure shows that page again with the form as typed and every reason
    (`RecordSteps.shown`)."""

    name: str
    route: str
    form_class: type
    call: Callable[..., Any]
    done: str | Callable[[Any, Any], str]
    title: str | Callable[[Any], str] = ""
    action: str = ""
    section: str | Callable[[Any], str] = ""
    key: str = ""
    keywords: Callable[[Any, dict, Any], dict] | None = None
    target: Callable[[Any, int], Any] | None = None
    form_kwargs: Callable[[Any], dict] | None = None
    item_form_kwargs: Callable[[Any, Any], dict] | None = None
    initial: Callable[[Any], dict | None] | None = None
    notes: Callable[[Any, Any], list[str]] | None = None
    form_name: str = ""
    template: str = ""
    context: Callable[[Any, Any, Any], dict] | None = None
    shown_to: str = ""

    def keywords_for(self, subject, data: dict, form) -> dict:
        """The keywords of the service call (besides `actor`)."""
        return self.keywords(subject, data, form) if self.keywords else data

    def message(self, subject, result) -> str:
        """The success message."""
        return self.done(subject, result) if callable(self.done) else self.done


def answered(*names: str) -> Callable[[Any, dict, Any], dict]:
    """A step's `keywords`: the form's cleaned data, each yes/no answer in `names` read as the
    service's True or False (`kit.forms.as_bool`)."""

    def keywords(subject, data: dict, form) -> dict:
        return {**data, **{name: as_bool(data[name]) for name in names}}

    return keywords


def fields(*names: str) -> Callable[[Any, dict, Any], dict]:
    """A step's `keywords`: only the fields `names` of the form's cleaned data (a form may ask
    more, such as a confirmation, than the service takes)."""

    def keywords(subject, data: dict, form) -> dict:
        return {name: data[name] for name in names}

    return keywords


def item_of(related: str, missing: str = "No such record") -> Callable[[Any, int], Any]:
    """A step's `target`: row `item` of the record's `related` rows (a 404 when it is not one)."""

    def target(record, item: int):
        return row_or_404(getattr(record, related), item, missing)

    return target


@dataclass(frozen=True)
class RecordSteps:
    """The pages of one kind of record and the steps taken on it: how they find it (a 404 when
    the reader may not see it), who may take a step on it (a 403), its own page (where a step
    goes back to) and the line that names it above the form; `action` and `section` are its
    steps' unless a step names its own (`section` may be read from the record and the step's
    action). `shown(request, record, status=, refusal=, **forms)` renders the record's own page
    for the steps whose forms stand on it. The step pages render `template` (unless a step has
    its own) with `context(record, step)` added, the record's own words for the page, and
    answer a POST that did not succeed `failed_status` (`refused_status` when the law refused
    it)."""

    get: Callable[[Any, int], Any]
    require: Callable[[Any, str, Any], None]
    url: Callable[[Any], str]
    subject: Callable[[Any], str] | None = None
    back_label: Callable[[Any], str] | None = None
    action: str = ""
    section: str | Callable[[Any, str], str] = ""
    describe: Callable[[Any], Any] | None = None
    blockers: Callable[[Any, Step], list[Reason]] | None = None
    shown: Callable[..., HttpResponse] | None = None
    template: str = "kit/step.html"
    context: Callable[[Any, Step], dict] | None = None
    failed_status: int = 400
    refused_status: int | None = None

    def view(
        self,
        template: str,
        parts: Callable[..., dict],
        *,
        action: str = "",
        get_only: bool = False,
    ):
        """The view of a page of one record of this kind: the record (a 404 when the reader may
        not see it), `action` asked of it (a 403), and what `parts(user, record, **url_parts)`
        shows of it (`get_only`: a GET alone is answered, once the reader is logged in)."""

        def view(request, pk: int, **url_parts):
            record = self.get(request.user, pk)
            self.require(request.user, action or self.action, record)
            return render(request, template, parts(request.user, record, **url_parts))

        return login_required(require_GET(view) if get_only else view)

    def pdf(
        self,
        document: Callable[[Any], Any],
        name: Callable[[Any], str],
        *,
        missing: str,
        action: str = "",
    ):
        """The view of a record's stored PDF, `document(record)`, for whoever may take `action`
        on the record, under the file name `name(record)`; none on file is a 404 (`missing`)."""

        def view(request, pk: int):
            record = self.get(request.user, pk)
            self.require(request.user, action or self.action, record)
            stored = document(record)
            if not stored:
                raise Http404(missing)
            return stored_file_response(
                stored, filename=name(record), content_type="application/pdf"
            )

        return login_required(view)

    def step(self, request, pk: int, step: Step, item=None) -> HttpResponse:
        """`step` on record `pk` (on its item `item`, which the step's `target` finds): the page
        names the record and the item, says what stands in the way, and goes back to the
        record; a success makes the step's one service call as the reader."""
        record = self.get(request.user, pk)
        action = step.action or self.action
        posted = request.method == "POST"
        self.require(request.user, step.shown_to or action, record)
        if step.shown_to and posted:
            self.require(request.user, action, record)
        found = step.target(record, item) if step.target else None
        subject = found if step.target else record
        form = step.form_class(
            request.POST if posted else None,
            request.FILES if posted else None,
            initial=step.initial(record) if step.initial else None,
            **(step.form_kwargs(record) if step.form_kwargs else {}),
            **(step.item_form_kwargs(record, found) if step.item_form_kwargs else {}),
        )
        back = self.url(record)
        section = step.section(record) if callable(step.section) else step.section
        if not section:
            section = self.section(record, action) if callable(self.section) else self.section
        context = {
            "record": record,
            "title": step.title(record) if callable(step.title) else step.title,
            "back": back,
            "back_label": self.back_label(record) if self.back_label else "Back",
            "subject": self.subject(record) if self.subject else "",
            "section": section,
            "target": self.describe(found) if self.describe else found,
            "blockers": self.blockers(record, step) if self.blockers else [],
            "notes": step.notes(record, found) if step.notes else [],
            **(self.context(record, step) if self.context else {}),
            **(step.context(request.user, record, found) if step.context else {}),
        }
        return step_page(
            request,
            form=form,
            perform=self._perform(request, step, subject, form, back),
            template=step.template or self.template,
            context=context,
            failed_status=self.failed_status,
            refused_status=self.refused_status,
        )

    def posted(self, request, pk: int, step: Step) -> HttpResponse:
        """`step` posted from record `pk`'s own page: a success goes back to it; a failure
        shows it again (400) with the form as typed and every reason."""
        record = self.get(request.user, pk)
        self.require(request.user, step.action or self.action, record)
        form = step.form_class(request.POST, request.FILES)
        attempt = step_attempt(
            request, form, self._perform(request, step, record, form, self.url(record))
        )
        return attempt.done or self.shown(
            request, record, status=400, refusal=attempt.refusal, **{step.form_name: form}
        )

    @staticmethod
    def _perform(request, step: Step, subject, form, back: str) -> Perform:
        def perform(data: dict) -> tuple[str, str]:
            keywords = step.keywords_for(subject, data, form)
            result = step.call(subject, actor=request.user, **keywords)
            return step.message(subject, result), back

        return perform

    def page(self, step: Step):
        """The view of `step`: login first, then `RecordSteps.step`, or `RecordSteps.posted`
        (POST only) for a step whose form stands on the record's own page."""

        @login_required
        def view(request, pk: int, item: int | None = None):
            return self.step(request, pk, step, item)

        @login_required
        @require_POST
        def view_posted(request, pk: int):
            return self.posted(request, pk, step)

        chosen = view_posted if step.form_name else view
        chosen.__name__ = step.name
        return chosen

    def urls(self, prefix: str, steps) -> list:
        """The URL of each step: `prefix` (the record's, with its `<int:pk>`) and its route."""
        return [path(prefix + step.route, self.page(step), name=step.name) for step in steps]


@dataclass(frozen=True)
class NewRecords:
    """The pages that record a new record of one kind in the reader's town: who may (a 403), the
    page they go back to (`back`, a URL name) and the new record's own page, where a success
    goes. Each page is a `Step` (no `target`) whose service is called
    `call(town=town, actor=user, **keywords)` and returns the new record; its `form_kwargs`
    and `done` are given the town."""

    require: Callable[[Any, str, Any], None]
    url: Callable[[Any], str]
    back: str
    action: str = ""
    section: str = ""

    def page(self, step: Step):
        """The view of `step`: login, the policy, the form, then the one service call."""

        @login_required
        def view(request):
            town = request.town
            self.require(request.user, step.action or self.action, town)
            posted = request.method == "POST"
            form = step.form_class(
                request.POST if posted else None,
                request.FILES if posted else None,
                **(step.form_kwargs(town) if step.form_kwargs else {}),
            )

            def perform(data: dict) -> tuple[str, str]:
                keywords = step.keywords_for(town, data, form)
                record = step.call(town=town, actor=request.user, **keywords)
                return step.message(town, record), self.url(record)

            context = {
                "title": step.title,
                "section": step.section or self.section,
                "back": reverse(self.back),
            }
            return step_page(request, form=form, perform=perform, context=context)

        view.__name__ = step.name
        return view

    def urls(self, prefix: str, steps) -> list:
        """The URL of each page: `prefix` and its route."""
        return [path(prefix + step.route, self.page(step), name=step.name) for step in steps]
