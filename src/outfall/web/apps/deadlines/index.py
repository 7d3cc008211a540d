"""The clock index: every open clock of every source stored as a `DueClock` row, so the
dashboard, the home page, the calendar feed, the reminders and the API read only the clocks they
show.

It is kept true from the audit record, its change feed: every write in outfall leaves an audit
row in its own transaction, naming its case, and a town's rows carry a gap-free increasing `seq`
given out under the town's lock (`audit.services`). Each town's `ClockIndexMark` says up to which
row its clocks are laid out. Before any read, `clock_index_refresh` finds the towns with audit
rows past their mark (one query) and, holding the mark's row lock, lays out again the clocks of
each case those rows name, by its source's own layout code (`index_entries`), and moves the mark,
all in one transaction: a write that rolls back leaves no row to follow, and two readers never
lay out a town at once. What a source lays out town by town (`TOWN_CASES`) is laid out again
for the town; a case type no source names (the town itself, its regulations, which set its
parameters) lays out the whole town. The clocks whose dates depend on the day (`DAILY`) are laid
out again when the mark's day is not the reader's; a change of the law's parameters on disk or of
the code (a deploy) changes the town's `town_version`, which lays the town out again.

The index stores no state: days left and state are computed on reading from the date and the
reader's day (`row_clock`). `manage.py refresh_clocks --check` compares it with a full live
computation; a difference is a bug.

Laying out the index is not an act under the bylaw and leaves no audit row (one would be a change
to follow in its turn).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from functools import cache, reduce
from operator import or_

from django.conf import settings
from django.db import transaction
from django.db.models import Q

import outfall
from outfall.law import parameters
from outfall.law.errors import LawError
from outfall.web.apps.assets import clocks as asset_clocks
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.core.models import Town
from outfall.web.apps.deadlines.models import ClockIndexMark, DueClock
from outfall.web.apps.enforcement import clocks as enforcement_clocks
from outfall.web.apps.idde import clocks as idde_clocks
from outfall.web.apps.kit.clocks import PLAIN, CaseClock, IndexEntry, case_clock
from outfall.web.apps.ms4 import clocks as ms4_clocks
from outfall.web.apps.permits import clocks as permit_clocks
from outfall.web.apps.regulations import clocks as regulation_clocks

CLOCK_SOURCES = (
    permit_clocks,
    enforcement_clocks,
    idde_clocks,
    asset_clocks,
    regulation_clocks,
    ms4_clocks,
)

INDEX_VERSION = "1"
"""Raise it when a change of the layout code must lay every town out again at the deploy."""

STATE_RULES = {
    (source.SOURCE, key): rule
    for source in CLOCK_SOURCES
    for key, rule in source.STATE_RULES.items()
}
BY_CASE_TYPE = {t: source for source in CLOCK_SOURCES for t in source.CASE_TYPES}
DAILY_SOURCES = tuple(source for source in CLOCK_SOURCES if source.DAILY)
RISK_KEY = "approval_risk"


@cache
def _parameter_digest(slug: str) -> str:
    try:
        laid = repr(parameters.town(slug))
    except LawError as exc:
        laid = f"no parameter set: {exc}"
    return hashlib.sha256(laid.encode()).hexdigest()


def town_version(town) -> str:
    """What the town's clocks were laid out under: the code's and the index's versions, the
    law's parameter set on disk and the settings the layout reads."""
    parts = (
        INDEX_VERSION,
        outfall.__version__,
        _parameter_digest(town.slug),
        str(idde_clocks.review_days()),
        settings.TIME_ZONE,
    )
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def row_clock(row: DueClock, today: dt.date) -> CaseClock:
    """The stored clock as every page reads it, its days left and state counted from `today`."""
    rule = STATE_RULES.get((row.source, row.key), PLAIN)
    return case_clock(
        today=today,
        due=row.due,
        raw_due=row.raw_due,
        state=rule.state((row.due - today).days),
        source=row.source,
        key=row.key,
        label=row.label,
        ref=row.ref,
        uid=row.uid,
        town_id=row.town_id,
        case_number=row.case_number,
        case_title=row.case_title,
        case_url=row.case_url,
        case_place=row.case_place,
        citation=row.citation,
        explanation=row.explanation,
        moved_because=row.moved_because,
        application_id=row.application_id,
    )


def _row(e: IndexEntry, town) -> DueClock:
    case, c = e.case, e.clock
    if case.town_id != town.pk:
        raise ValueError(f"{case.number}: a clock of town {case.town_id} laid out for {town.pk}")
    row = DueClock(
        town_id=town.pk,
        source=case.source,
        case_type=e.case_type,
        case_id=e.case_id,
        case_pk=int(e.case_id),
        application_id=case.application_id,
        case_number=case.number,
        case_title=case.title,
        case_url=case.url,
        case_place=case.place,
        internal=e.internal,
        risk=e.risk,
        problem=e.problem,
    )
    if c is not None:
        row.key, row.ref, row.label, row.uid = c.key, c.ref, c.label, c.uid
        row.due, row.raw_due, row.citation = c.due, c.raw_due, c.citation
        row.explanation, row.moved_because = c.explanation, c.moved_because
    if e.risk:
        row.key, row.ref = RISK_KEY, "case"
        row.uid = f"{case.uid_stem}-{RISK_KEY}@outfall"
    return row


def _last_seq(town) -> int:
    last = (
        AuditEvent.objects.filter(town=town, seq__isnull=False)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    return last or 0


def _plan(events, *, day_changed: bool):
    """source -> the case ids to lay out again (None: all of the town's); None for the whole
    town."""
    plan: dict = dict.fromkeys(DAILY_SOURCES) if day_changed else {}
    for case_type, case_id in events:
        source = BY_CASE_TYPE.get(case_type)
        if source is not None:
            ids = plan.get(source, set())
            if ids is not None:
                ids.add(case_id)
                plan[source] = ids
            continue
        whole = [s for s in CLOCK_SOURCES if case_type.startswith(s.TOWN_CASES)]
        if not whole:
            return None
        plan.update(dict.fromkeys(whole))
    return plan


def _refresh_town(town, today: dt.date, *, full: bool) -> None:
    with transaction.atomic():
        ClockIndexMark.objects.bulk_create([ClockIndexMark(town=town)], ignore_conflicts=True)
        mark = ClockIndexMark.objects.select_for_update().get(town=town)
        version = town_version(town)
        plan = None
        if not (full or mark.version != version or mark.day is None):
            events = list(
                AuditEvent.objects.filter(town=town, seq__gt=mark.seq)
                .order_by("seq")
                .values_list("seq", "case_type", "case_id")
            )
            last = events[-1][0] if events else mark.seq
            plan = _plan([(t, i) for _, t, i in events], day_changed=mark.day != today)
            if plan is not None and not plan and last == mark.seq and mark.day == today:
                return  # another reader laid it out while this one waited for the lock
        if plan is None:
            last = _last_seq(town)
            DueClock.objects.filter(town=town).delete()
            plan = dict.fromkeys(CLOCK_SOURCES)
        for source, ids in plan.items():
            if ids is None:
                DueClock.objects.filter(town=town, source=source.SOURCE).delete()
            else:
                DueClock.objects.filter(
                    source=source.SOURCE, case_type__in=source.CASE_TYPES, case_id__in=ids
                ).delete()
            entries = source.index_entries(town, today=today, case_ids=ids)
            DueClock.objects.bulk_create([_row(e, town) for e in entries], batch_size=500)
        mark.seq, mark.day, mark.version = last, today, version
        mark.save()


def clock_index_refresh(*, today: dt.date, town_ids=None, full: bool = False) -> list[int]:
    """Bring the index of every town (or of `town_ids`) up to its audit record, `today` and its
    version; `full` lays each out again whole. The towns laid out, by id."""
    towns = Town.objects.select_related("clock_mark").order_by("pk")
    if town_ids is not None:
        towns = towns.filter(pk__in=list(town_ids))
    stale, marked = [], {}
    for town in towns:
        mark = getattr(town, "clock_mark", None)
        if full or mark is None or mark.version != town_version(town) or mark.day != today:
            stale.append(town)
        else:
            marked[town.pk] = (town, mark.seq)
    if marked:
        later = reduce(or_, (Q(town_id=pk, seq__gt=seq) for pk, (_, seq) in marked.items()))
        moved = set(
            AuditEvent.objects.filter(later).order_by().values_list("town_id", flat=True).distinct()
        )
        stale += [town for pk, (town, _) in marked.items() if pk in moved]
    for town in sorted(stale, key=lambda t: t.pk):
        _refresh_town(town, today, full=full)
    return [t.pk for t in stale]


FIELDS = (
    "town_id",
    "source",
    "key",
    "ref",
    "case_type",
    "case_id",
    "application_id",
    "due",
    "raw_due",
    "label",
    "citation",
    "explanation",
    "moved_because",
    "case_number",
    "case_title",
    "case_url",
    "case_place",
    "internal",
    "risk",
    "problem",
)


def clock_index_differences(*, today: dt.date, town_ids=None) -> list[str]:
    """Each difference between the stored index and a full live layout of the towns (or of
    `town_ids`) on `today`, in words; none when the index is true. Read only: run after a
    refresh, a difference is a clock the index lost, kept or changed (a bug)."""
    towns = Town.objects.order_by("pk")
    if town_ids is not None:
        towns = towns.filter(pk__in=list(town_ids))
    out = []
    for town in towns:
        live = {
            r.uid: r
            for source in CLOCK_SOURCES
            for r in (_row(e, town) for e in source.index_entries(town, today=today))
        }
        stored = {r.uid: r for r in DueClock.objects.filter(town=town)}
        for uid in sorted(live.keys() - stored.keys()):
            out.append(f"{town.slug}: missing from the index: {uid} ({live[uid].due})")
        for uid in sorted(stored.keys() - live.keys()):
            out.append(f"{town.slug}: in the index but not running: {uid} ({stored[uid].due})")
        for uid in sorted(live.keys() & stored.keys()):
            changed = [
                f"{f} {getattr(stored[uid], f)!r} should be {getattr(live[uid], f)!r}"
                for f in FIELDS
                if getattr(stored[uid], f) != getattr(live[uid], f)
            ]
            if changed:
                out.append(f"{town.slug}: {uid}: " + "; ".join(changed))
    return out
