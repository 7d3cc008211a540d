"""`python -m bench --only web`: the web app at statewide scale (issue 13).

Builds a synthetic data set on PostgreSQL through the models (`bulk_create`): at `--scale 1`,
50 towns, 20,000 applications spread over every state of the permit lifecycle, 200,000 MS4
structures, 20,000 illicit-discharge reports, 2,000 enforcement cases and 700,000 audit rows —
the sizes issue 13 measured. Serves it with gunicorn (2 workers), drives `--requests` GETs per
page at `--concurrency` from 127.0.0.1 (threads and http.client), and prints, per page, the
median and 95th percentile time, the queries per request (the `X-Bench-Queries` header of
`bench/web_settings.py`) and the answer's size, with the machine's load (`/proc/loadavg`).

The database named by `--database-url` is dropped and made again: give the bench its own.
Nothing is written to the repository; the bench's towns' parameter sets (each inheriting
Norfolk's) go to a temporary directory.
"""

from __future__ import annotations

import datetime as dt
import http.client
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/outfall_bench"
PORT = 8199
FULL = {
    "towns": 50,
    "applications": 20_000,
    "assets": 200_000,
    "reports": 20_000,
    "enforcement": 2_000,
    "audit": 700_000,
}
"""Sizes at scale 1 (issue 13's statewide data set)."""
TOWN_CENTRE = (42.12, -71.33)
STATES = 16
"""The permit lifecycle's states but the draft: the bench has cases in each, in every town."""


@dataclass(frozen=True)
class Sizes:
    towns: int
    applications: int
    assets: int
    reports: int
    enforcement: int
    audit: int

    @classmethod
    def at(cls, scale: float) -> Sizes:
        """The sizes at `scale`: at least two towns, a case in every state in each town and a
        few rows of every other kind."""
        sized = {k: max(10, round(v * scale)) for k, v in FULL.items()}
        sized["towns"] = max(2, round(FULL["towns"] * scale))
        sized["applications"] = max(sized["applications"], STATES * sized["towns"])
        return cls(**sized)


def _env(database_url: str, parameters: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "bench.web_settings",
        "OUTFALL_BENCH_PARAMETERS": str(parameters),
        "OUTFALL_SECRET_KEY": "bench-only-not-secret",
        "OUTFALL_INSECURE_COOKIES": "1",
        "OUTFALL_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "OUTFALL_PUBLIC_API_RATE": "100000/m",
        "PYTHONPATH": os.pathsep.join(
            [str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")]
        ),
    }


def town_slugs(n: int) -> list[str]:
    return [f"bench-{i:02d}" for i in range(n)]


def write_parameters(directory: Path, slugs: list[str]) -> None:
    """Each bench town a parameter set inheriting Norfolk's, beside links to the real towns."""
    from outfall.law.parameters import ROOT as LAW_ROOT

    for real in LAW_ROOT.iterdir():
        if (real / "town.yaml").exists():
            (directory / real.name).symlink_to(real)
    for slug in slugs:
        (directory / slug).mkdir()
        (directory / slug / "town.yaml").write_text(
            f"slug: {slug}\nname: Bench town {slug[-2:]} (synthetic)\nstate: MA\n"
            "fictional: true\ninherits: norfolk\n",
            encoding="utf-8",
        )


def recreate_database(database_url: str) -> None:
    import psycopg

    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


# ------------------------------------------------------------------ the synthetic data set


def build(sizes: Sizes, *, seed: int = 13) -> dict:
    """Write the data set through the models in one transaction; return what the load reads
    (users' sessions, the case page's case). Runs inside a configured Django."""
    from django.db import connection, transaction

    with transaction.atomic():
        made = _build(sizes, seed)
    if connection.vendor == "postgresql":
        # The planner's statistics, as after any bulk load (PostgreSQL's advice after a
        # restore); autovacuum would gather them later on a live server.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return made


def _build(sizes: Sizes, seed: int) -> dict:
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone

    from outfall.compliance.lifecycle import PermitState
    from outfall.web.apps.assets.models import Asset
    from outfall.web.apps.audit.models import AuditEvent
    from outfall.web.apps.core.models import Membership, Town
    from outfall.web.apps.deadlines.index import clock_index_refresh
    from outfall.web.apps.enforcement.models import EnforcementCase
    from outfall.web.apps.idde.models import Report
    from outfall.web.apps.permits.models import Application, Decision, Hearing, OMObligation

    rng = random.Random(seed)
    started = time.perf_counter()

    def progress(what: str) -> None:
        print(f"   {time.perf_counter() - started:6.1f} s  {what}", file=sys.stderr, flush=True)

    today = timezone.localdate()
    User = get_user_model()
    towns = Town.objects.bulk_create(
        Town(
            slug=slug,
            name=f"Bench town {slug[-2:]}",
            map_center_lat=TOWN_CENTRE[0],
            map_center_lon=TOWN_CENTRE[1],
        )
        for slug in town_slugs(sizes.towns)
    )
    clerk_one = User.objects.create_user("bench-clerk", password=None)
    clerk_all = User.objects.create_user("bench-clerk-all", password=None)
    dpw = User.objects.create_user("bench-dpw", password=None)
    applicant = User.objects.create_user("bench-applicant", password=None)
    Membership.objects.bulk_create(
        [Membership(user=clerk_one, town=towns[0], role="clerk")]
        + [Membership(user=clerk_all, town=t, role="clerk") for t in towns]
        + [Membership(user=dpw, town=towns[0], role="dpw_staff")]
    )
    states = [s for s in PermitState if s is not PermitState.DRAFT]
    apps = []
    for i in range(sizes.applications):
        town = towns[i % len(towns)]
        state = states[(i // len(towns)) % len(states)]
        submitted = today - dt.timedelta(days=rng.randint(20, 3000))
        later = state not in (PermitState.SUBMITTED, PermitState.INCOMPLETE, PermitState.WITHDRAWN)
        built = state in (
            PermitState.CONSTRUCTION_COMPLETE,
            PermitState.CERTIFIED,
            PermitState.CLOSED,
        )
        apps.append(
            Application(
                town=town,
                number=f"SMP-{town.slug[-2:]}-{i:06d}",
                title=f"Site {i} on {rng.choice(['Main', 'Park', 'Mill', 'Pond'])} Street",
                site_address=f"{i % 900 + 1} {rng.choice(['Main', 'Park', 'Mill', 'Pond'])} St",
                applicant=applicant,
                owner_name=f"Owner {i}",
                disturbance_acres=Decimal("1.500"),
                law_date=submitted,
                state=state.value,
                submitted_on=submitted,
                complete_on=submitted + dt.timedelta(days=10) if later else None,
                construction_completed_on=submitted + dt.timedelta(days=400) if built else None,
                latitude=TOWN_CENTRE[0] + rng.uniform(-0.05, 0.05),
                longitude=TOWN_CENTRE[1] + rng.uniform(-0.05, 0.05),
            )
        )
    apps = Application.objects.bulk_create(apps, batch_size=5000)
    progress(f"{len(apps):,} applications")
    heard = {s.value for s in states[states.index(PermitState.HEARING_SCHEDULED) :]}
    heard.discard(PermitState.WITHDRAWN.value)
    decided = heard - {
        PermitState.HEARING_SCHEDULED.value,
        PermitState.HEARING_OPEN.value,
        PermitState.HEARING_CLOSED.value,
        PermitState.CONSTRUCTIVELY_APPROVED.value,
    }
    hearings, decisions, om = [], [], []
    for a in apps:
        if a.state not in heard:
            continue
        on = a.complete_on + dt.timedelta(days=40)
        hearings.append(
            Hearing(
                application=a,
                scheduled_for=timezone.make_aware(dt.datetime.combine(on, dt.time(19))),
                location="Town Hall",
                notice_published_on=on - dt.timedelta(days=20),
                notice_posted_on=on - dt.timedelta(days=20),
                abutters_mailed_on=on - dt.timedelta(days=20),
                opened_on=on if a.state != PermitState.HEARING_SCHEDULED.value else None,
                closed_on=on + dt.timedelta(days=7) if a.state in decided else None,
            )
        )
        if a.state in decided:
            decisions.append(
                Decision(
                    application=a,
                    kind="disapprove" if a.state == PermitState.DISAPPROVED.value else "approve",
                    voted_on=on + dt.timedelta(days=14),
                    issued_on=on + dt.timedelta(days=16),
                )
            )
        if a.construction_completed_on:
            om.append(
                OMObligation(
                    application=a,
                    component="Infiltration basin",
                    task="Inspect and clean",
                    every_months=12,
                    next_due=today + dt.timedelta(days=rng.randint(-30, 365)),
                )
            )
    Hearing.objects.bulk_create(hearings, batch_size=5000)
    Decision.objects.bulk_create(decisions, batch_size=5000)
    OMObligation.objects.bulk_create(om, batch_size=5000)
    progress(f"{len(hearings):,} hearings, {len(decisions):,} decisions, {len(om):,} O&M tasks")
    kinds = [k for k, _ in Asset.Kind.choices]
    Asset.objects.bulk_create(
        (
            Asset(
                town=towns[i % len(towns)],
                kind=kinds[i % len(kinds)],
                asset_id=f"A-{i:07d}",
                latitude=TOWN_CENTRE[0] + rng.uniform(-0.06, 0.06),
                longitude=TOWN_CENTRE[1] + rng.uniform(-0.06, 0.06),
            )
            for i in range(sizes.assets)
        ),
        batch_size=5000,
    )
    progress(f"{sizes.assets:,} assets")
    now = timezone.now()
    Report.objects.bulk_create(
        (
            Report(
                town=towns[i % len(towns)],
                tracking_number=f"R-{i:08d}",
                submitted_at=now - dt.timedelta(hours=i),
                description="Cloudy water at the outfall",
                latitude=TOWN_CENTRE[0],
                longitude=TOWN_CENTRE[1],
            )
            for i in range(sizes.reports)
        ),
        batch_size=5000,
    )
    progress(f"{sizes.reports:,} reports")
    EnforcementCase.objects.bulk_create(
        (
            EnforcementCase(
                town=towns[i % len(towns)],
                number=f"ENF-{i:06d}",
                article="I",
                violator_name=f"Violator {i}",
                violator_address="1 Main St",
                property_address="1 Main St",
                description="Illicit connection",
                opened_on=today - dt.timedelta(days=i % 700),
                law_date=today - dt.timedelta(days=i % 700),
            )
            for i in range(sizes.enforcement)
        ),
        batch_size=5000,
    )
    progress(f"{sizes.enforcement:,} enforcement cases")
    seq = {t.pk: 0 for t in towns}
    case_label = Application._meta.label

    def audit_row(i: int):
        a = apps[i % len(apps)]
        seq[a.town_id] += 1
        return AuditEvent(
            town_id=a.town_id,
            actor=clerk_all,
            actor_label="Bench clerk",
            at=now - dt.timedelta(minutes=i),
            action="application.update",
            section="§ 267-18",
            summary="a synthetic change",
            object_type=case_label,
            object_id=str(a.pk),
            case_type=case_label,
            case_id=str(a.pk),
            seq=seq[a.town_id],
        )

    AuditEvent.objects.bulk_create((audit_row(i) for i in range(sizes.audit)), batch_size=10000)
    progress(f"{sizes.audit:,} audit rows")
    # bulk_create bypasses the services: lay the clock index out whole, as the daily run does.
    clock_index_refresh(today=today, full=True)
    progress("the clock index laid out")

    def session(user, town) -> str:
        s = SessionStore()
        s[SESSION_KEY] = str(user.pk)
        s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        s[HASH_SESSION_KEY] = user.get_session_auth_hash()
        s["town"] = town.slug
        s.create()
        return s.session_key

    richest = max(
        (
            a
            for a in apps
            if a.town_id == towns[0].pk and a.state == PermitState.UNDER_CONSTRUCTION.value
        ),
        key=lambda a: a.pk,
    )
    return {
        "towns": len(towns),
        "clerk_all_towns": Membership.objects.filter(user=clerk_all).count(),
        "case_history": AuditEvent.objects.filter(
            case_type=case_label, case_id=str(richest.pk)
        ).count(),
        "clerk": session(clerk_one, towns[0]),
        "clerk_all": session(clerk_all, towns[0]),
        "dpw": session(dpw, towns[0]),
        "case": richest.pk,
        "cases_in_first_town": sum(1 for a in apps if a.town_id == towns[0].pk),
    }


# ------------------------------------------------------------------ serving and the load


def pages(made: dict) -> list[tuple[str, str, str | None]]:
    """(label, path, session) of each page the bench times."""
    box = "-71.34,42.11,-71.32,42.13"
    return [
        ("deadlines dashboard, clerk of one town", "/deadlines/", made["clerk"]),
        ("deadlines dashboard, clerk of every town", "/deadlines/", made["clerk_all"]),
        ("home page, clerk", "/", made["clerk"]),
        (
            f"case page (its audit history {made['case_history']} rows)",
            f"/permits/{made['case']}/",
            made["clerk"],
        ),
        ("search, clerk", "/search/?q=Main", made["clerk"]),
        ("search, clerk, permits page 2", "/search/?q=Main&kind=permits&page=2", made["clerk"]),
        ("search, DPW staff", "/search/?q=Outfall", made["dpw"]),
        ("/permits/ list, clerk of one town", "/permits/", made["clerk"]),
        ("/permits/ list, every town", "/permits/?towns=all", made["clerk_all"]),
        (
            "MS4 asset map GeoJSON, one town",
            f"/dpw/assets/map/assets.geojson?bbox={box}",
            made["dpw"],
        ),
        ("home page and worklist, DPW staff", "/", made["dpw"]),
        ("DPW index", "/dpw/", made["dpw"]),
        ("IDDE report list", "/dpw/idde/reports/", made["dpw"]),
        ("IDDE investigation list", "/dpw/idde/investigations/", made["dpw"]),
        ("enforcement list", "/dpw/enforcement/", made["dpw"]),
        ("asset list", "/dpw/assets/", made["dpw"]),
        ("MS4 annual report", "/dpw/ms4/annual-report/", made["dpw"]),
        ("API IDDE reports", "/api/dpw/idde/reports", made["dpw"]),
        ("API enforcement cases", "/api/dpw/enforcement/cases", made["dpw"]),
        ("public report list", "/report/recent/", None),
        ("public API hearings", "/api/public/hearings", None),
        ("public API decisions", "/api/public/decisions", None),
        ("Open311 services", "/open311/v2/services.json", None),
        (
            "Open311 requests by id",
            "/open311/v2/requests.json?service_request_id="
            + ",".join(f"R-{i:08d}" for i in range(0, 10)),
            None,
        ),
    ]


def _get(path: str, session: str | None) -> tuple[float, int, int, int]:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=120)
    headers = {"Host": "127.0.0.1"}
    if session:
        headers["Cookie"] = f"sessionid={session}"
    start = time.perf_counter()
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    took = time.perf_counter() - start
    queries = int(response.getheader("X-Bench-Queries") or -1)
    conn.close()
    return took, response.status, queries, len(body)


def drive(path: str, session: str | None, requests: int, concurrency: int) -> dict:
    """`requests` GETs of `path` at `concurrency`, after one warm-up request."""
    _get(path, session)
    with ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(lambda _: _get(path, session), range(requests)))
    times = sorted(r[0] for r in results)
    return {
        "p50": statistics.median(times),
        "p95": times[min(len(times) - 1, int(0.95 * len(times)))],
        "statuses": sorted({r[1] for r in results}),
        "queries": max(r[2] for r in results),
        "bytes": max(r[3] for r in results),
    }


def _wait_for_server(proc) -> None:
    for _ in range(120):
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited before serving")
        try:
            http.client.HTTPConnection("127.0.0.1", PORT, timeout=2).request("GET", "/login/")
            return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError("gunicorn did not answer in 60 s")


def _loadavg() -> str:
    try:
        return Path("/proc/loadavg").read_text().strip()
    except OSError:
        return "unknown"


def run(scale: float, requests: int, concurrency: int, database_url: str) -> list[dict]:
    sizes = Sizes.at(scale)
    print(
        f"web at scale {scale:g}: {sizes.towns} towns, {sizes.applications:,} applications, "
        f"{sizes.assets:,} assets, {sizes.reports:,} reports, {sizes.enforcement:,} enforcement "
        f"cases, {sizes.audit:,} audit rows; {requests} requests per page at concurrency "
        f"{concurrency}"
    )
    with tempfile.TemporaryDirectory(prefix="outfall-bench-") as tmp:
        parameters = Path(tmp)
        write_parameters(parameters, town_slugs(sizes.towns))
        env = _env(database_url, parameters)
        recreate_database(database_url)
        manage = [sys.executable, str(ROOT / "manage.py")]
        subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, check=True)
        subprocess.run([*manage, "createcachetable"], env=env, check=True)
        started = time.perf_counter()
        made = _build_in(env, sizes)
        print(f"   built in {time.perf_counter() - started:.1f} s; load before: {_loadavg()}")
        print(
            f"   the clerk of every town holds a role in {made['clerk_all_towns']} of "
            f"{made['towns']} towns"
        )
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "outfall.web.config.wsgi",
                "--bind",
                f"127.0.0.1:{PORT}",
                "--workers",
                "2",
                "--timeout",
                "120",
                "--log-level",
                "warning",
            ],
            env=env,
            cwd=ROOT,
        )
        try:
            _wait_for_server(server)
            rows = []
            print(f"   {'page':<44} {'p50 ms':>8} {'p95 ms':>8} {'queries':>8} {'kB':>8}  status")
            for label, path, session in pages(made):
                r = drive(path, session, requests, concurrency)
                rows.append({"page": label, "path": path, **r})
                print(
                    f"   {label:<44} {1000 * r['p50']:>8.1f} {1000 * r['p95']:>8.1f} "
                    f"{r['queries']:>8} {r['bytes'] / 1000:>8.1f}  {r['statuses']}"
                )
            print(f"   load after: {_loadavg()} ({os.cpu_count()} CPUs)")
            return rows
        finally:
            server.terminate()
            server.wait(timeout=30)


def _build_in(env: dict, sizes: Sizes) -> dict:
    """Build the data set in a child process configured like the server."""
    code = (
        "import django, json, sys; django.setup(); from bench import web; "
        f"print(json.dumps(web.build(web.Sizes(**{sizes.__dict__!r}))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, stdout=subprocess.PIPE, text=True
    )
    import json

    return json.loads(out.stdout.strip().splitlines()[-1])
