"""The demo loader: `manage.py demo_data` walks fictional cases through the real services, so the
demo shows every state of the permit lifecycle with live clocks, real PDFs, site-review snapshots
and an audit timeline, and the DPW's Article I work (the storm drain system, reports,
investigations, § 267-7 permits and notices, spills, a suspension and enforcement cases) the same
way; a second run changes nothing.

The load runs once per module inside a transaction that is rolled back at the end.
"""

from __future__ import annotations

import contextlib
import io
import os
import sqlite3
import tempfile
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection, connections, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Q
from django.utils import timezone
from pypdf import PdfReader

from outfall.compliance.lifecycle import PermitState
from outfall.web.apps.assets.models import (
    Asset,
    CatchmentInvestigation,
    SampleResult,
    ScreeningRound,
    ScreeningVisit,
)
from outfall.web.apps.audit.append_only import guard_installed
from outfall.web.apps.audit.backups import referenced_files
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.audit.services import audit_record
from outfall.web.apps.core.models import Membership, Town
from outfall.web.apps.core.roles import Role
from outfall.web.apps.deadlines.selectors import ClockState, clock_list_for_application
from outfall.web.apps.demo.article1 import STATUS_LINK_FILE, STRUCTURES
from outfall.web.apps.demo.management.commands.demo_data import Command
from outfall.web.apps.demo.permits import USERNAMES
from outfall.web.apps.enforcement import clocks as enforcement_clocks
from outfall.web.apps.enforcement.models import (
    EnforcementCase,
    EnforcementDocument,
    EntryConsent,
    Lien,
    Offence,
    Order,
    Payment,
    Protest,
)
from outfall.web.apps.enforcement.selectors.ledger import cost_balance
from outfall.web.apps.idde import clocks as idde_clocks
from outfall.web.apps.idde.models import (
    DischargeDetermination,
    DischargeNotice,
    DischargePermit,
    EmergencySuspension,
    Investigation,
    Report,
    Spill,
)
from outfall.web.apps.permits.models import (
    Application,
    DeterminationRecord,
    GeneratedDocument,
    OMObligation,
    SiteReviewRun,
    Upload,
)
from tests.pdf_papers import legal_style_problems, pdf_text, pdf_ua_problems
from tests.web.audit.installation import (
    assert_restored,
    emptied,
    file_digests,
    table_contents,
)
from tests.web.audit.owner import checks_done
from tests.web.demo.loaded import PASSWORD
from tests.web.identifiers import raw_identifiers_in

# Norfolk, Massachusetts lies within these bounds (town boundary, rounded outwards).
NORFOLK_LAT = (42.08, 42.16)
NORFOLK_LON = (-71.39, -71.27)


pytestmark = pytest.mark.django_db


def _cases():
    return Application.objects.select_related("town").order_by("pk")


def _case(state: PermitState, town: str = "norfolk") -> Application:
    return _cases().filter(state=state.value, town__slug=town).first()


# Every Article I record the demo makes is one of these; each must carry audit events.
ARTICLE_I_RECORDS = (
    Asset,
    ScreeningRound,
    ScreeningVisit,
    CatchmentInvestigation,
    Report,
    Investigation,
    DischargePermit,
    DischargeNotice,
    Spill,
    EmergencySuspension,
    EnforcementCase,
)


def _snapshot() -> dict:
    models = (
        Town,
        Membership,
        get_user_model(),
        Application,
        AuditEvent,
        GeneratedDocument,
        SiteReviewRun,
        DeterminationRecord,
        Upload,
        OMObligation,
        *ARTICLE_I_RECORDS,
        SampleResult,
        DischargeDetermination,
        Order,
        Offence,
        Payment,
        Lien,
        EnforcementDocument,
    )
    counts = {m.__name__: m.objects.count() for m in models}
    counts["states"] = sorted(_cases().values_list("number", "state"))
    return counts


def test_the_demo_holds_a_norfolk_case_in_every_state_of_the_permit_lifecycle(demo):
    states = set(_cases().filter(town__slug="norfolk").values_list("state", flat=True))
    assert states == {s.value for s in PermitState}


def test_norfolk_is_the_real_town_and_exampleton_says_it_is_fictional(demo):
    norfolk = Town.objects.get(slug="norfolk")
    assert norfolk.name == "Town of Norfolk"
    assert norfolk.registry_of_deeds == "Norfolk County Registry of Deeds"
    assert "fictional" in Town.objects.get(slug="exampleton").name
    assert Application.objects.filter(town__slug="exampleton").exists()


def test_every_case_street_parcel_and_owner_is_marked_as_an_example(demo):
    for a in _cases():
        assert "(fictional)" in a.site_address, a.site_address
        assert "(example)" in a.title, a.title
        assert a.parcel_id.startswith(("EX-", "XT-")), a.parcel_id
        assert all("(fictional)" in owner for owner in a.owners), a.owners


def test_every_case_has_an_audit_timeline_that_begins_when_it_was_started(demo):
    for a in _cases():
        events = AuditEvent.objects.filter(case_type="permits.Application", case_id=str(a.pk))
        assert events.exists(), a.number
        assert events.order_by("at", "id").first().action == "application.create"
        assert all(e.section.startswith("§ 267-") for e in events), a.number


def test_every_case_keeps_snapshots_of_the_law_and_of_its_site_review(demo):
    for a in _cases():
        assert a.determinations.exists(), a.number
        run = a.site_reviews.order_by("pk").first()
        assert run is not None, a.number
        assert run.upload.original_name.endswith(".yaml")
        assert run.result and run.verdict


def test_only_the_case_filed_with_the_wrong_site_file_shows_a_mismatch(demo):
    """Each case's site file is its own project (name, disturbed area, facts: § 267-19B); one
    case, the incomplete barn, was filed with the Maple Street example on purpose and says so."""
    differing = {}
    for a in _cases():
        run = a.site_reviews.order_by("-pk").first()
        outcome = run.application_match["outcome"]
        assert outcome in ("agrees", "differs"), (a.number, outcome)
        if outcome == "differs":
            differing[a.title] = run
    [(title, run)] = differing.items()
    assert title.startswith("Specimen Hill Road barn")
    assert "site file by mistake" in run.application.description
    fields = [d["field"] for d in run.application_match["details"]["differences"]]
    assert "disturbance_acres" in fields and "name" in fields


def test_the_incomplete_case_carries_its_incompleteness_notice_as_a_real_pdf(demo):
    a = _case(PermitState.INCOMPLETE)
    notice = a.documents.get(kind="incompleteness_notice")
    with notice.file.open("rb") as fh:
        assert fh.read(5) == b"%PDF-"
    review = a.completeness_reviews.get()
    assert not review.complete
    assert {m["key"] for m in review.missing} >= {"om_document", "technical_review_fee"}


def test_the_scheduled_hearing_has_its_notice_letters_and_every_notice_given(demo):
    a = _case(PermitState.HEARING_SCHEDULED)
    assert {d.kind for d in a.documents.all()} >= {"hearing_notice", "abutter_letter"}
    h = a.hearing
    assert h.notice_published_on and h.notice_posted_on and h.abutters_mailed_on
    assert timezone.localtime(h.scheduled_for).date() > timezone.localdate()


def test_the_hearing_left_open_was_continued_to_a_later_night(demo):
    sessions = _case(PermitState.HEARING_OPEN).hearing.sessions.all()
    assert any(s.continued_to is not None for s in sessions)


def test_one_complete_case_nears_approval_by_failure_to_act_and_warns_on_the_dashboard(demo):
    warned = [
        c
        for a in _cases().filter(state=PermitState.COMPLETE.value)
        for c in clock_list_for_application(a)
        if c.key == "constructive_approval_on" and c.state == ClockState.WARNING
    ]
    assert warned


def test_the_closed_file_keeps_its_o_and_m_tasks_running_and_one_is_overdue(demo):
    a = _case(PermitState.CLOSED)
    assert a.om_obligations.filter(active=True).count() >= 2
    overdue = [
        c
        for c in clock_list_for_application(a)
        if c.key == "om_task_due" and c.state == ClockState.OVERDUE
    ]
    assert len(overdue) == 1
    assert a.responsible_parties.filter(until__isnull=False).exists()


def test_the_constructive_approval_is_certified_by_the_town_clerk(demo):
    record = _case(PermitState.CONSTRUCTIVELY_APPROVED).constructive_approval
    assert record.certified_by.memberships.filter(role=Role.TOWN_CLERK.value).exists()
    assert record.certified_on > record.deadline_missed


def test_the_case_under_construction_has_its_inspections_and_an_open_deficiency(demo):
    a = _case(PermitState.UNDER_CONSTRUCTION)
    assert set(a.inspections.values_list("stage", flat=True)) >= {
        "initial_site",
        "erosion_control",
        "bury",
    }
    open_deficiencies = [
        d for i in a.inspections.all() for d in i.deficiencies.filter(corrected_on=None)
    ]
    assert len(open_deficiencies) == 1
    assert a.inspections.filter(photos__isnull=False).exists()


def test_the_certified_and_closed_cases_hold_their_certificate_and_surety_release_pdfs(demo):
    for state in (PermitState.CERTIFIED, PermitState.CLOSED):
        kinds = set(_case(state).documents.values_list("kind", flat=True))
        assert {"decision", "certificate", "surety_release"} <= kinds


def _papers() -> dict[str, bytes]:
    """One PDF of each kind of paper the demo files: the permit documents, the enforcement
    documents, the § 267-7 permit and the § 267-8 suspension order (the newest of each kind)."""
    found = {}
    sources = [
        *((f"permit {d.kind}", d.file) for d in GeneratedDocument.objects.order_by("-pk")),
        *((f"enforcement {d.kind}", d.file) for d in EnforcementDocument.objects.order_by("-pk")),
        *(("discharge permit", p.document) for p in DischargePermit.objects.exclude(document="")),
        *(("suspension order", s.document) for s in EmergencySuspension.objects.all()),
    ]
    for label, file in sources:
        if label not in found and file:
            with file.open("rb") as fh:
                found[label] = fh.read()
    return found


def test_every_paper_the_demo_files_is_tagged_pdf_ua_in_us_legal_style(demo):
    """Issue 11: every generated PDF is tagged PDF/UA (structure tree, marked, PDF/UA-1 in its
    XMP, a language and a title shown by the viewer), and none writes an ISO date or a 24-hour
    time — across every kind the demo makes."""
    papers = _papers()
    permit_kinds = {"decision", "certificate", "surety_release", "hearing_notice"}
    permit_kinds |= {"abutter_letter", "incompleteness_notice"}
    enforcement_kinds = {"notice_of_violation", "order", "cost_notice", "lien_request", "ticket"}
    assert {f"permit {k}" for k in permit_kinds} <= set(papers)
    assert {f"enforcement {k}" for k in enforcement_kinds} <= set(papers)
    assert {"discharge permit", "suspension order"} <= set(papers)
    for label, pdf in papers.items():
        assert pdf_ua_problems(pdf) == [], label
        assert legal_style_problems(pdf_text(pdf)) == [], label


def test_the_certificate_keeps_each_easement_row_whole_on_one_page(demo):
    """A row of the easements table never splits across a page (issue 11)."""
    certificate = GeneratedDocument.objects.filter(kind="certificate").order_by("-pk").first()
    with certificate.file.open("rb") as fh:
        pages = [p.extract_text() for p in PdfReader(fh).pages]
    easements = list(certificate.application.easements.all())
    assert easements
    for e in easements:
        first_cell = [n for n, text in enumerate(pages) if e.purpose.split()[0] in text]
        last_cell = [n for n, text in enumerate(pages) if f"{e.book} /" in text]
        assert first_cell == last_cell and len(first_cell) == 1, e.purpose


def test_the_enforcement_order_is_signed_by_the_dpw_director_by_name(demo):
    """An Article I order is signed by the town's DPW Director, named from their membership,
    under the Department's letterhead and address (issue 11)."""
    director = Membership.objects.get(town__slug="norfolk", role=Role.DPW_DIRECTOR).user
    order = EnforcementDocument.objects.filter(kind="order", case__article="I").first()
    with order.file.open("rb") as fh:
        text = pdf_text(fh.read())
    assert director.get_full_name() in text and "Department of Public Works" in text
    assert order.case.town.dpw_address.split(",")[0] in text


def test_nothing_the_demo_records_happened_after_today(demo):
    today = timezone.localdate()
    for a in _cases():
        for day in (a.submitted_on, a.complete_on, a.construction_started_on, a.closed_on):
            assert day is None or day <= today, a.number
    latest = _cases().exclude(submitted_on=None).order_by("-submitted_on").first()
    assert (today - latest.submitted_on).days <= 7


def test_the_demo_sites_lie_inside_norfolk_for_the_map(demo):
    for a in _cases().filter(town__slug="norfolk"):
        assert NORFOLK_LAT[0] < a.latitude < NORFOLK_LAT[1], a.number
        assert NORFOLK_LON[0] < a.longitude < NORFOLK_LON[1], a.number


def test_the_exampleton_library_needs_a_permit_only_under_exampletons_lower_threshold(demo):
    library = _cases().get(town__slug="exampleton", title__startswith="Exampleton Common library")
    assert library.disturbance_acres < 1
    assert library.permit_required is True


def test_every_role_has_a_login_with_the_demo_password_and_the_logins_are_printed(demo):
    users = get_user_model().objects.filter(username__in=USERNAMES)
    assert users.count() == len(USERNAMES)
    held = set(Membership.objects.filter(user__in=users).values_list("role", flat=True))
    assert held == {r.value for r in Role}
    assert Membership.objects.filter(role=Role.BOARD.value).count() == 3  # a quorum of five
    assert all(u.check_password(PASSWORD) for u in users)
    logins = demo[demo.index("Demo logins") :]
    for name in USERNAMES:
        assert f"  {name} " in logins
    assert PASSWORD in logins


def test_the_summary_lists_each_case_with_its_state(demo):
    for a in _cases():
        assert a.number in demo and a.state_label in demo


# ---------------------------------------------------------------- Article I


def _user(name: str):
    return get_user_model().objects.get(username=name)


def test_every_article_i_area_of_the_dpw_holds_demo_records(demo):
    for model in ARTICLE_I_RECORDS:
        assert model.objects.exists(), model.__name__
    assert set(Asset.objects.values_list("kind", flat=True)) == set(Asset.Kind.values)
    assert 20 <= Asset.objects.count() <= 30
    assert set(Report.objects.values_list("state", flat=True)) == {
        "received",
        "triaged",
        "investigating",
        "closed",
        "duplicate",
    }
    assert {"prohibited", "exempt_if", "exempt"} <= set(
        Investigation.objects.values_list("verdict", flat=True)
    )
    assert set(DischargePermit.objects.values_list("state", flat=True)) == {"issued", "applied"}
    assert set(DischargeNotice.objects.values_list("kind", flat=True)) >= {
        "dye_test",
        "pool_draining",
    }
    assert EntryConsent.objects.exists()


def test_every_article_i_record_has_audit_events_under_a_section(demo):
    for model in ARTICLE_I_RECORDS:
        label = model._meta.label
        for pk in model.objects.values_list("pk", flat=True):
            events = AuditEvent.objects.filter(
                Q(object_type=label, object_id=str(pk)) | Q(case_type=label, case_id=str(pk))
            )
            assert events.exists(), f"{label} {pk}"
            assert all(e.section.startswith("§ 267-") for e in events), f"{label} {pk}"


def test_no_audit_row_of_the_demo_has_an_empty_section(demo):
    """Every audited write names the section it acts under — of the bylaw, or of the town's MS4
    permit for the program the bylaw exists to keep (issue 12) — or says that none governs it (a
    login, keeping the record); two write actions once left it empty (issue 10)."""
    rows = list(AuditEvent.objects.all())
    assert len(rows) > 500  # every write the demo makes, in every town and the installation
    assert [(e.pk, e.action) for e in rows if not e.section.strip()] == []
    named = ("§ 267-", "MA MS4 General Permit (2016), Part ", "none: ")
    assert sorted({(e.action, e.section) for e in rows if not e.section.startswith(named)}) == []


def test_the_structures_are_fictional_inside_norfolk_and_drain_to_its_real_rivers(demo):
    for asset in Asset.objects.all():
        assert asset.asset_id.startswith("EX-") and "(fictional)" in asset.name, asset.asset_id
        assert NORFOLK_LAT[0] < asset.latitude < NORFOLK_LAT[1], asset.asset_id
        assert NORFOLK_LON[0] < asset.longitude < NORFOLK_LON[1], asset.asset_id
        assert asset.receiving_water in {"Stop River", "Mill River", "Charles River"}
    assert Asset.objects.count() == len(STRUCTURES)
    assert AuditEvent.objects.filter(action="asset.condition").exists()


def test_a_dry_weather_flow_over_the_ammonia_threshold_led_to_a_catchment_investigation(demo):
    ammonia = SampleResult.objects.get(parameter="ammonia", exceeds_threshold=True)
    visit = ammonia.visit
    assert visit.weather == "dry" and visit.flow != "none" and visit.follow_up_needed
    ci = CatchmentInvestigation.objects.get(visit=visit)
    linked = Investigation.objects.get(catchment_investigation=ci)
    case = EnforcementCase.objects.get(investigation=linked)
    assert linked.state == "referred" and case.article == "I"


def test_the_exempt_if_and_exempt_investigations_wait_and_close_as_the_law_says(demo):
    waiting = Investigation.objects.get(verdict="exempt_if")
    assert waiting.state == "awaiting_conditions"
    unknown = waiting.determinations.get().details["unknown_conditions"]
    assert "dpw_permit_before_discharge" in unknown
    assert DischargePermit.objects.filter(
        state="applied", property_address=waiting.property_address
    ).exists()
    exempt = Investigation.objects.get(verdict="exempt")
    assert exempt.state == "closed" and exempt.report.state == "closed"


def test_the_oil_spill_told_fire_and_police_and_the_other_waits_for_its_written_confirmation(
    demo,
):
    oil = Spill.objects.get(material="oil")
    assert oil.fire_police_notified_at and oil.written_confirmation_on
    waiting = Spill.objects.get(material="nonhazardous")
    assert waiting.written_confirmation_on is None
    clocks = [
        c
        for c in idde_clocks.spill_and_permit_clocks(_user("dpw"), today=timezone.localdate())
        if c.case_number == waiting.number
    ]
    assert [c.key for c in clocks] == ["written_confirmation_by"]
    assert clocks[0].state != ClockState.OVERDUE


def test_the_suspension_was_ignored_and_the_steps_taken_are_recorded(demo):
    suspension = EmergencySuspension.objects.get()
    assert suspension.complied is False and suspension.steps_taken
    assert suspension.reinstated_at is None
    with suspension.document.open("rb") as fh:
        assert fh.read(5) == b"%PDF-"


def test_the_enforcement_cases_stand_in_every_step_of_the_ledger(demo):
    article_i = set(EnforcementCase.objects.filter(article="I").values_list("state", flat=True))
    assert article_i >= {"order_issued", "escalated", "town_abatement", "costs_noticed", "lien"}
    warned = [
        c
        for c in enforcement_clocks.clock_list_visible_to(_user("dpw"))
        if c.key == "order_deadline" and c.state == ClockState.WARNING
    ]
    assert warned
    noticed = EnforcementCase.objects.get(state="costs_noticed")
    window = [c for c in enforcement_clocks.clock_list_for_case(noticed) if c.key == "protest_by"]
    assert window and window[0].days_left >= 0
    lien = EnforcementCase.objects.get(state="lien")
    assert Protest.objects.get(case=lien).decision == "reduce"
    assert cost_balance(lien, on=timezone.localdate()).unpaid_interest > 0
    kinds = {d.kind for d in EnforcementDocument.objects.all()}
    assert kinds >= {"notice_of_violation", "order", "cost_notice", "lien_request", "ticket"}


def test_the_penalty_ledger_holds_a_warning_then_100_and_300_dollar_tickets(demo):
    tickets = Offence.objects.filter(disposition="noncriminal").order_by("number")
    assert [(t.kind, t.fine) for t in tickets] == [
        ("warning", 0),
        ("fine", 100),
        ("fine", 300),
    ]
    assert all(t.issued_by.username == "dpwdirector" for t in tickets)
    assert tickets[1].paid_on is not None and tickets[2].appealed_on is not None


def test_the_article_ii_case_orders_the_permits_stormwater_system_repaired_per_its_o_and_m(demo):
    case = EnforcementCase.objects.get(article="II")
    assert case.application.state == PermitState.CLOSED.value
    order = case.orders.get()
    assert order.order_types == ["repair_maintain_replace"] and order.deadline
    assert order.issued_by.username == "clerk"


def test_the_summary_lists_every_article_i_record_and_a_status_page_that_opens(demo, client):
    for model in (Report, Investigation, DischargePermit, Spill, EnforcementCase):
        for number in model.objects.values_list(
            "tracking_number" if model is Report else "number", flat=True
        ):
            assert number in demo, number
    for case in EnforcementCase.objects.all():
        assert f"{case.number}  " in demo and case.state_label in demo
    assert not raw_identifiers_in(demo), "the summary is read by people: labels only"
    link = next(line for line in demo.splitlines() if "Public status page" in line)
    path = "/report/" + link.split("/report/", 1)[1].strip()
    page = client.get(path)
    assert page.status_code == 200
    assert Report.objects.get(state="investigating").tracking_number in page.content.decode()


def test_a_second_run_without_reset_changes_nothing_and_says_so(demo):
    before = _snapshot()
    out = io.StringIO()
    call_command("demo_data", stdout=out)
    assert _snapshot() == before
    assert "already exists: nothing loaded" in out.getvalue()
    assert "Demo logins" in out.getvalue()


def test_the_demo_backed_up_and_restored_onto_an_empty_installation_is_the_same(
    demo, settings, tmp_path
):
    """A backup of the demo restored onto an empty installation gives back every table's rows
    and every stored file's SHA-256, and every audit chain verifies (then the demo is put back:
    the test's savepoint is rolled back). The files compared are the ones the rows point at: the
    test workers share one media root, where others' files come and go."""
    rows, names = table_contents(), referenced_files("default")
    files = {name: digest for name, digest in file_digests().items() if name in names}
    assert rows["audit.AuditEvent"] and files and len(files) == len(names)
    call_command("backup", "--to", str(tmp_path / "demo.tar.gz"), stdout=io.StringIO())
    with transaction.atomic():
        emptied(settings, tmp_path / "restored-media")
        out = io.StringIO()
        call_command("restore", "--from", str(tmp_path / "demo.tar.gz"), stdout=out)
        assert_restored(table_contents(), rows)
        restored = file_digests()
        assert {name: restored.get(name) for name in names} == files
        assert "BROKEN" not in out.getvalue()
        assert out.getvalue().count("the chain holds") == 3  # Norfolk, Exampleton, installation
        transaction.set_rollback(True)


def test_reset_refuses_to_wipe_a_town_holding_an_application_a_demo_login_did_not_make(demo):
    stranger = get_user_model().objects.create_user("resident", password="x" * 12)
    template = _case(PermitState.SUBMITTED)
    Application.objects.create(
        town=template.town,
        number="SMP-REAL-0001",
        title="A real application",
        site_address="1 Real Street",
        applicant=stranger,
        owner_name="A. Resident",
        disturbance_acres=template.disturbance_acres,
        law_date=template.law_date,
    )
    before = _snapshot()
    with pytest.raises(CommandError, match="not made by a demo login"):
        call_command("demo_data", "--reset", stdout=io.StringIO())
    assert _snapshot() == before


def test_reset_refuses_to_wipe_a_town_where_someone_other_than_a_demo_login_recorded_work(demo):
    stranger = get_user_model().objects.create_user("inspector", password="x" * 12)
    spill = Spill.objects.first()
    with transaction.atomic():
        audit_record(
            actor=stranger,
            town=spill.town,
            action="spill.notifications",
            section="§ 267-9",
            summary="A real notice recorded",
            obj=spill,
        )
    before = _snapshot()
    with pytest.raises(CommandError, match="someone other than a demo login"):
        call_command("demo_data", "--reset", stdout=io.StringIO())
    assert _snapshot() == before


def test_reset_refused_by_a_town_beyond_the_demo_keeps_everything_and_says_why(demo):
    """The reset recreates the whole database: with a town there that is not the demo's (a demo
    login's application in it), it is refused before anything or any stored file is deleted."""
    other = Town.objects.create(slug="otherville", name="Town of Otherville")
    template = _case(PermitState.SUBMITTED)
    Application.objects.create(
        town=other,
        number="SMP-OTH-0001",
        title="Elsewhere",
        site_address="1 Other Street",
        applicant=template.applicant,
        owner_name="A. Owner",
        disturbance_acres=template.disturbance_acres,
        law_date=template.law_date,
    )
    files = [
        d.file.path for d in GeneratedDocument.objects.filter(application__town__slug="norfolk")
    ]
    files += [d.file.path for d in EnforcementDocument.objects.all()]
    before = _snapshot()
    with pytest.raises(CommandError, match="still used by town\\(s\\) otherville"):
        call_command("demo_data", "--reset", stdout=io.StringIO())
    assert _snapshot() == before
    assert files and all(os.path.exists(f) for f in files)


def test_reset_refused_by_a_login_beyond_the_demo(demo):
    get_user_model().objects.create_user("town-admin", password="x" * 12)
    before = _snapshot()
    with pytest.raises(CommandError, match="login\\(s\\) town-admin"):
        call_command("demo_data", "--reset", stdout=io.StringIO())
    assert _snapshot() == before


def test_reset_recreates_the_database_instead_of_deleting_audit_rows(demo):
    """`--reset` is this wipe followed by the same load as the first run. No audit row is
    deleted (the record refuses it): the database is built again from its migrations, with the
    audit record's guard in place, and only then are the stored files deleted."""
    files = [d.file.path for d in GeneratedDocument.objects.all()]
    files += [d.file.path for d in EnforcementDocument.objects.all()]
    assert files and AuditEvent.objects.exists()
    with scratch_database() as using:
        assert AuditEvent.objects.using(using).count() == AuditEvent.objects.count()
        Command(stdout=io.StringIO()).wipe(using=using)
        for model in (Town, get_user_model(), Application, AuditEvent, *ARTICLE_I_RECORDS):
            assert not model.objects.using(using).exists(), model.__name__
        assert guard_installed(connections[using])
        assert not MigrationExecutor(connections[using]).migration_plan(
            MigrationExecutor(connections[using]).loader.graph.leaf_nodes()
        )
    assert not any(os.path.exists(f) for f in files)
    assert not (settings.VAR_DIR / STATUS_LINK_FILE).exists()


@contextlib.contextmanager
def scratch_database():
    """The database the reset may recreate. PostgreSQL: the test database itself, in a savepoint
    rolled back afterwards (its tables are dropped and migrated again in the reset's own
    transaction). SQLite: the test database is in memory, so a file copy of it, schema and rows,
    under its own alias."""
    if connection.vendor == "postgresql":
        checks_done()
        with transaction.atomic():
            yield "default"
            transaction.set_rollback(True)
        return
    path = Path(tempfile.mkdtemp(prefix="outfall-reset-")) / "outfall.sqlite3"
    copy = sqlite3.connect(path)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
            "AND name NOT LIKE 'sqlite_%' ORDER BY type = 'table' DESC"
        )
        schema = cursor.fetchall()
        for kind, name, sql in schema:
            copy.execute(sql)
            if kind == "table":
                cursor.execute(f'SELECT * FROM "{name}"')
                rows = cursor.fetchall()
                if rows:
                    marks = ", ".join("?" * len(rows[0]))
                    copy.executemany(f'INSERT INTO "{name}" VALUES ({marks})', rows)
    copy.commit()
    copy.close()
    default = connections["default"]
    connections["scratch"] = type(default)({**default.settings_dict, "NAME": str(path)}, "scratch")
    try:
        yield "scratch"
    finally:
        connections["scratch"].close()
        del connections["scratch"]


def test_the_demos_ms4_annual_report_counts_the_records_each_figure_links_to(demo, client):
    """The annual report of the demo's permit year is counted from its records: the screening
    round, the investigations and the permit cases show in it, and every figure's page lists
    exactly as many records as the figure says (MA MS4 General Permit (2016), Part 4.4)."""
    from outfall.law.ms4_permit import permit_year
    from outfall.web.apps.ms4.selectors import annual_report_get

    norfolk = Town.objects.get(slug="norfolk")
    year = permit_year(timezone.localdate(), town="norfolk").outcome.end.year
    report = annual_report_get(norfolk, year)
    for key in (
        "outfalls_inventoried",
        "outfalls_screened_dry_weather",
        "construction_inspections",
        "catch_basins_cleaned",
        "illicit_discharge_flow_removed_gpd",
    ):
        assert report.figure(key).cumulative > 0, key
    assert [n.section for n in report.narratives if n.text] == [
        "public_education",
        "good_housekeeping",
    ]
    client.force_login(get_user_model().objects.get(username="dpw"))
    for figure in report.figures:
        for span in ("", "?span=cumulative"):
            page = client.get(f"/dpw/ms4/annual-report/{year}/{figure.measure.key}/{span}")
            whole = span and not figure.measure.inventory
            ids = figure.cumulative_ids if whole else figure.ids
            assert sorted(r.pk for r in page.context["page"].object_list) == ids[:50]
            expected = figure.cumulative if whole else figure.count
            assert page.context["page"].paginator.count == expected, figure.measure.key
