"""The step kit (kit.steps): a step page declared once as a `Step` makes its view and its URL;
its service is called on the item the step concerns or else the record, with the form's data as
keywords (yes/no answers read as True/False, or only the fields the service takes), and the page
keeps the public address it always had."""

from __future__ import annotations

import pytest
from django.http import Http404
from django.urls import reverse

from outfall.web.apps.kit.search import map_config, query_of, status_of
from outfall.web.apps.kit.steps import RecordSteps, Step, answered, fields, item_of


class Rows:
    """A stand-in for a query set of the rows a reader may see."""

    def __init__(self, *pks):
        self.pks = pks

    def filter(self, pk):
        return Rows(*[p for p in self.pks if p == pk])

    def first(self):
        return self.pks[0] if self.pks else None


class Case:
    pk = 7
    orders = Rows(3, 4)


def done(subject, result) -> str:
    return f"{subject} gave {result}"


def test_a_yes_or_no_answer_reaches_the_service_as_true_or_false():
    keywords = answered("complied", "passed")
    data = {"complied": "yes", "passed": "no", "findings": "all clear"}
    assert keywords(Case(), data, None) == {
        "complied": True,
        "passed": False,
        "findings": "all clear",
    }


def test_a_form_that_asks_more_than_the_service_takes_passes_only_what_it_takes():
    data = {"description": "new outlet", "planned_for": "2026-07-01", "not_yet_made": True}
    assert fields("description", "planned_for")(Case(), data, None) == {
        "description": "new outlet",
        "planned_for": "2026-07-01",
    }


def test_the_item_a_step_concerns_is_one_of_the_records_own_or_a_404():
    target = item_of("orders")
    assert target(Case(), 4) == 4
    with pytest.raises(Http404):
        target(Case(), 9)


def test_the_success_message_is_the_steps_words_or_made_from_what_the_service_returned():
    plain = Step("s", "s/", object, print, "Saved.")
    worded = Step("s", "s/", object, print, done)
    assert plain.message("case", 1) == "Saved."
    assert worded.message("case", 1) == "case gave 1"
    assert plain.keywords_for("case", {"a": 1}, None) == {"a": 1}


def test_each_declared_step_gets_its_url_below_the_records_own():
    steps = (
        Step("order_new", "orders/new/", object, print, "Issued."),
        Step("follow_up", "orders/<int:item>/follow-up/", object, print, "Recorded."),
    )
    pages = RecordSteps(get=lambda user, pk: Case(), require=print, url=str)
    patterns = pages.urls("cases/<int:pk>/", steps)
    assert [(p.name, str(p.pattern)) for p in patterns] == [
        ("order_new", "cases/<int:pk>/orders/new/"),
        ("follow_up", "cases/<int:pk>/orders/<int:item>/follow-up/"),
    ]
    assert [p.callback.__name__ for p in patterns] == ["order_new", "follow_up"]


# Every step page now declared in a table keeps the address it had before (templates, the API's
# links and people's bookmarks use them).
ADDRESSES = {
    ("enforcement:order_new", (1,)): "/dpw/enforcement/1/orders/new/",
    ("enforcement:follow_up_schedule", (1, 2)): "/dpw/enforcement/1/orders/2/follow-up/schedule/",
    ("enforcement:follow_up_record", (1, 2)): "/dpw/enforcement/1/orders/2/follow-up/",
    ("enforcement:ticket", (1, 2)): "/dpw/enforcement/1/offences/2/ticket/",
    ("enforcement:close", (1,)): "/dpw/enforcement/1/close/",
    ("permits:construction_condition_met", (1, 2)): "/permits/1/construction/conditions/2/met/",
    ("permits:construction_inspection", (1, "pre")): "/permits/1/construction/inspections/pre/new/",
    ("permits:construction_close", (1,)): "/permits/1/construction/close/",
    ("permits:om_report_add", (1, 2)): "/permits/1/om/obligations/2/report/",
    ("permits:intake_details", (1,)): "/permits/1/intake/details/",
    ("permits:intake_referral_response", (1, 2)): "/permits/1/intake/referrals/2/response/",
    ("permits:intake_comment_reply", (1, 2)): "/permits/1/intake/comments/2/reply/",
    ("permits:intake_withdraw", (1,)): "/permits/1/intake/withdraw/",
    ("permits:hearing_record", (1,)): "/permits/1/hearing/record/",
    ("permits:public_notices", ()): "/permits/public/notices/",
    ("idde:discharge_permit_apply", ()): "/dpw/idde/discharge-permits/new/",
    ("idde:discharge_permit_inspect", (1,)): "/dpw/idde/discharge-permits/1/inspect/",
    ("idde:notice_advance_approval_decide", (1,)): "/dpw/idde/notices/1/decide/",
    ("idde:spill_close", (1,)): "/dpw/idde/spills/1/close/",
    ("idde:suspension_new", ()): "/dpw/idde/suspensions/new/",
    ("idde:report_triage", (1,)): "/dpw/idde/reports/1/triage/",
    ("idde:investigation_refer", (1,)): "/dpw/idde/investigations/1/refer/",
    ("idde_public:open311_request", ("NFK-1", "json")): "/open311/v2/requests/NFK-1.json",
    ("assets:edit", (1,)): "/dpw/assets/1/edit/",
    ("assets:sample_new", (1,)): "/dpw/assets/screening/visits/1/results/new/",
    ("assets:catchment_close", (1,)): "/dpw/assets/catchments/1/close/",
}


@pytest.mark.parametrize(("name", "args"), list(ADDRESSES))
def test_a_step_page_keeps_its_public_address(name, args):
    assert reverse(name, args=args) == ADDRESSES[(name, args)]


class Criteria:
    def as_query(self):
        return {"kind": "outfall", "q": "brook"}


class Town:
    map_center_lat, map_center_lon = 42.1, -71.3


def test_a_search_with_wrong_filters_repeats_nothing_and_answers_400():
    assert (query_of(None), status_of(None)) == ("", 400)
    assert (query_of(Criteria()), status_of(Criteria())) == ("kind=outfall&q=brook", 200)


def test_a_maps_markers_are_narrowed_by_the_pages_filters_and_it_opens_on_the_town(settings):
    settings.OUTFALL_MAP_TILES = "https://tiles.example/{z}/{x}/{y}.png"
    config = map_config(Town(), ("sites", "/permits/map/sites.geojson"), Criteria())
    assert config["sites"] == "/permits/map/sites.geojson?kind=outfall&q=brook"
    assert config["center"] == [42.1, -71.3]
    assert config["tiles"] == "https://tiles.example/{z}/{x}/{y}.png"
    assert map_config(None, ("sites", "/m"), None)["sites"] == "/m"
