"""The Board's rules and regulations (§ 267-17B) through the services: a draft with the fines it
sets checked against the law (§ 267-25D), the hearing advertised at least 7 days before, the
Board's majority vote after the hearing, adoption from an effective date not before the vote,
and an adopted version never changed but superseded by a new one."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.regulations import services
from outfall.web.apps.regulations.selectors import (
    adopted_overrides,
    regulations_in_force,
    town_parameters,
)
from tests.web.permits.test_hearing_services import pdf_text
from tests.web.regulations.conftest import ADVERTISED, EFFECTIVE, FINES, HEARING, D, at

pytestmark = pytest.mark.django_db


def test_a_draft_keeps_the_fine_schedule_it_would_set_and_is_audited_under_267_17b(walk):
    reg = walk.draft()
    assert reg.state == "draft" and reg.number.startswith("REG-NOR-2026-")
    assert reg.settings == [{"name": "s267_25.penalties.noncriminal_ladder", "value": FINES}]
    row = AuditEvent.objects.get(action="regulation.draft")
    assert row.section == "§ 267-17B" and reg.number in row.summary


def test_a_fine_above_the_noncriminal_ceiling_is_refused_naming_the_section(walk):
    with pytest.raises(InputError) as refused:
        walk.draft(fines=[{"offense": 1, "kind": "fine", "fine_usd": 500}])
    assert refused.value.citation == "§ 267-25D" and "$300" in str(refused.value)


def test_scheduling_the_hearing_files_its_legal_notice_in_us_legal_style(walk):
    reg = walk.scheduled()
    assert reg.state == "hearing_scheduled"
    text = pdf_text(reg.notice)
    assert "Wednesday, November 18, 2026, at 7:00 p.m." in text
    assert "§ 267-17B" in text
    # The seventh day before is Veterans Day: the paper must run it by the day before.
    assert "no later than November 10, 2026" in text


def test_an_advertisement_seven_days_ahead_lets_the_hearing_go_on(walk):
    reg = walk.advertised(advertised=D(2026, 11, 10))
    assert reg.state == "advertised" and reg.advertisement["outcome"] is True


def test_an_advertisement_on_veterans_day_seven_days_ahead_is_one_day_late(walk):
    reg = walk.scheduled()
    with pytest.raises(TransitionNotAllowed) as refused:
        services.advertisement_record(
            reg,
            actor=walk.clerk,
            newspaper="The Gazette",
            advertised_on=D(2026, 11, 11),
            today=D(2026, 11, 11),
        )
    assert refused.value.reasons[0].citation == "§ 267-17B"
    assert "too late" in refused.value.reasons[0].text
    reg.refresh_from_db()
    assert reg.state == "hearing_scheduled" and reg.advertised_on is None


def test_a_hearing_set_again_must_be_advertised_again(walk):
    reg = walk.advertised()
    reg = services.hearing_schedule(
        reg, actor=walk.clerk, hearing_at=at(D(2026, 12, 2)), location="Town Hall", today=ADVERTISED
    )
    assert reg.state == "hearing_scheduled" and reg.advertised_on is None and reg.newspaper == ""


def test_the_board_votes_after_the_hearing_not_before(walk):
    reg = walk.advertised()
    with pytest.raises(TransitionNotAllowed) as refused:
        services.vote_record(
            reg,
            actor=walk.clerk,
            voted_on=HEARING - dt.timedelta(days=1),
            present=5,
            recused=0,
            ayes=5,
            nays=0,
            today=HEARING,
        )
    assert "after the public hearing" in refused.value.reasons[0].text


def test_three_ayes_of_five_carry_and_the_count_is_kept_with_its_reasons(walk):
    reg = walk.voted(ayes=3, nays=2)
    assert reg.state == "voted"
    assert reg.vote["outcome"]["carried"] is True
    assert reg.vote["reasons"][0]["citation"] == "§ 267-17B"


def test_two_ayes_of_five_do_not_adopt_and_the_draft_is_not_adopted(walk):
    reg = walk.voted(ayes=2, nays=3)
    assert reg.state == "not_adopted"
    assert "did not carry" in AuditEvent.objects.get(action="regulation.vote").summary


def test_a_vote_that_does_not_add_up_is_refused_naming_the_field(walk):
    reg = walk.advertised()
    with pytest.raises(InputError) as refused:
        services.vote_record(
            reg,
            actor=walk.clerk,
            voted_on=HEARING,
            present=5,
            recused=0,
            ayes=2,
            nays=1,
            today=HEARING,
        )
    assert refused.value.field == "ayes"


def test_adoption_takes_effect_on_the_date_named_but_never_before_the_vote(walk):
    reg = walk.voted()
    with pytest.raises(TransitionNotAllowed) as refused:
        services.regulation_adopt(
            reg, actor=walk.clerk, effective_on=HEARING - dt.timedelta(days=1), today=HEARING
        )
    assert "before the vote" in refused.value.reasons[0].text
    reg = services.regulation_adopt(reg, actor=walk.clerk, effective_on=EFFECTIVE, today=HEARING)
    assert (reg.state, reg.effective_on) == ("adopted", EFFECTIVE)
    assert AuditEvent.objects.get(action="regulation.adopt").public is True


@pytest.mark.parametrize("step", ["hearing", "advertisement", "vote", "adopt"])
def test_an_adopted_version_is_never_changed(walk, step):
    reg = walk.adopted()
    calls = {
        "hearing": lambda: services.hearing_schedule(
            reg, actor=walk.clerk, hearing_at=at(D(2027, 1, 6)), location="Hall", today=EFFECTIVE
        ),
        "advertisement": lambda: services.advertisement_record(
            reg, actor=walk.clerk, newspaper="Paper", advertised_on=EFFECTIVE, today=EFFECTIVE
        ),
        "vote": lambda: services.vote_record(
            reg,
            actor=walk.clerk,
            voted_on=EFFECTIVE,
            present=5,
            recused=0,
            ayes=5,
            nays=0,
            today=EFFECTIVE,
        ),
        "adopt": lambda: services.regulation_adopt(
            reg, actor=walk.clerk, effective_on=EFFECTIVE, today=EFFECTIVE
        ),
    }
    with pytest.raises(TransitionNotAllowed):
        calls[step]()
    reg.refresh_from_db()
    assert (reg.state, reg.effective_on, reg.ayes) == ("adopted", EFFECTIVE, 4)


def test_a_new_version_supersedes_the_old_from_its_own_effective_date(walk):
    first = walk.adopted()
    higher = [{**s, "fine_usd": min(300, s["fine_usd"] * 2)} for s in FINES]
    second = walk.adopted(
        effective=D(2027, 2, 1),
        hearing=D(2027, 1, 13),
        fines=higher,
        supersedes=first,
        title="Noncriminal fine schedule, revised",
    )
    in_force = regulations_in_force(walk.town, on=D(2027, 1, 31))
    assert [(r.regulation, r.until) for r in in_force] == [(first, D(2027, 2, 1))]
    in_force = regulations_in_force(walk.town, on=D(2027, 2, 1))
    assert [(r.regulation, r.until) for r in in_force] == [(second, None)]
    ladder = "s267_25.penalties.noncriminal_ladder"
    params = town_parameters(walk.town)
    assert params.get(ladder, D(2027, 1, 31)).value[1]["fine_usd"] == 100
    assert params.get(ladder, D(2027, 2, 1)).value[1]["fine_usd"] == 200
    assert params.get(ladder, D(2027, 2, 1)).layer == second.layer


def test_only_adopted_versions_are_laid_over_the_towns_parameters(walk):
    walk.voted()
    assert adopted_overrides(walk.town) == []
    walk.adopted()
    (override,) = adopted_overrides(walk.town)
    assert (override.effective, override.citation) == (EFFECTIVE, "§ 267-25D")


def test_a_version_of_another_towns_regulation_is_refused(walk, exampleton, people):
    from django.contrib.auth import get_user_model

    from outfall.web.apps.core.models import Membership

    first = walk.adopted()
    Membership.objects.create(user=people["clerk"], town=exampleton, role="clerk")
    clerk = get_user_model().objects.get(pk=people["clerk"].pk)
    with pytest.raises(InputError) as refused:
        services.regulation_draft(
            town=exampleton,
            actor=clerk,
            title="T",
            text="X",
            supersedes=first,
            today=EFFECTIVE,
        )
    assert refused.value.field == "supersedes"
