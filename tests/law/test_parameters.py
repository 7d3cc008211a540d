"""The parameter tree: dated, cited values per town; refusals of bad files; named date errors."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from outfall.law import parameters as P
from outfall.law.errors import (
    NotInForce,
    NotInRecord,
    ParameterFileError,
    UnknownParameter,
    UnknownTown,
)

D = dt.date

AMENDMENTS = """- id: "adopted"
  vote_date: 2007-10-23
  effective_date: 2007-10-23
  effective_date_assumed: true
- id: "raised"
  vote_date: 2021-11-09
  effective_date: 2022-01-15
  effective_date_assumed: false
"""

HEARING = """open_within_days:
  description: Days to open the hearing
  unit: days
  values:
    - effective: 2021-11-09
      value: 30
      citation: "§ 267-18E"
      amendment: "raised"
    - effective: 2007-10-23
      value: 45
      citation: "§ 267-18E"
      amendment: "adopted"
notice_days:
  description: Days of notice before the hearing
  unit: days
  values:
    - effective: 2007-10-23
      value: 7
      citation: "§ 267-18E"
"""

STANDARDS = """tss_removal_pct:
  description: TSS removal for new development
  unit: percent
  values:
    - effective: 2007-10-23
      not_in_record: true
      citation: "§ 267-19B"
      note: earlier text not held
    - effective: 2021-11-09
      value: 90
      citation: "§ 267-19B(4)(a)"
retired:
  description: A parameter that was repealed
  values:
    - effective: 2007-10-23
      value: 1
      citation: "§ 267-18E"
    - effective: 2015-01-01
      repealed: true
      citation: "§ 267-18E"
"""


def make_town(root: Path, slug: str = "testtown", inherits: str | None = None, **files: str):
    """Write a town tree under `root`: town.yaml, amendments.yaml and the given files."""
    town = root / slug
    town.mkdir(parents=True, exist_ok=True)
    parent = f"inherits: {inherits}\n" if inherits else "inherits: null\n"
    (town / "town.yaml").write_text(f"slug: {slug}\nname: Test {slug}\n{parent}")
    for rel, body in files.items():
        path = town / rel.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
    return town


@pytest.fixture
def tree(tmp_path):
    make_town(
        tmp_path,
        **{
            "amendments.yaml": AMENDMENTS,
            "s267_18__hearing.yaml": HEARING,
            "s267_19__water.yaml": STANDARDS,
        },
    )
    return tmp_path


def load(root: Path, slug: str = "testtown") -> P.ParameterSet:
    return P.load_parameter_set(slug, root)


# ---------------------------------------------------------------- names and dates


def test_a_parameter_is_named_by_its_file_path_and_keys(tree):
    assert load(tree).names() == [
        "s267_18.hearing.notice_days",
        "s267_18.hearing.open_within_days",
        "s267_19.water.retired",
        "s267_19.water.tss_removal_pct",
    ]


def test_values_are_keyed_by_effective_date_whatever_order_the_file_lists_them(tree):
    params = load(tree)
    name = "s267_18.hearing.open_within_days"
    assert [v.effective for v in params.definition(name).values] == [
        D(2007, 10, 23),
        D(2021, 11, 9),
    ]
    assert params.value(name, D(2021, 11, 8)) == 45
    assert params.value(name, D(2021, 11, 9)) == 30
    assert params.get(name, D(2030, 1, 1)).amendment == "raised"
    assert params.get(name, D(2010, 1, 1)).version == f"{name}@2007-10-23"


def test_a_value_asked_for_before_its_first_effective_date_is_not_in_force(tree):
    with pytest.raises(NotInForce) as caught:
        load(tree).get("s267_18.hearing.notice_days", D(2007, 10, 22))
    assert caught.value.citation == "§ 267-18E"
    assert caught.value.as_of == D(2007, 10, 22)


def test_a_value_whose_text_we_do_not_hold_is_not_in_record_until_the_next_value(tree):
    params = load(tree)
    with pytest.raises(NotInRecord, match="before 2021-11-09"):
        params.get("s267_19.water.tss_removal_pct", D(2015, 6, 1))
    assert params.value("s267_19.water.tss_removal_pct", D(2021, 11, 9)) == 90


def test_a_repealed_value_is_not_in_force_from_its_repeal(tree):
    params = load(tree)
    assert params.value("s267_19.water.retired", D(2014, 12, 31)) == 1
    with pytest.raises(NotInForce, match="repealed"):
        params.get("s267_19.water.retired", D(2015, 1, 1))


def test_an_unknown_parameter_and_an_unknown_town_are_named_errors(tree):
    with pytest.raises(UnknownParameter):
        load(tree).get("s267_18.hearing.close_within_days", D(2020, 1, 1))
    with pytest.raises(UnknownTown, match="testtown"):
        load(tree, "atlantis")


# ---------------------------------------------------------------- the loader refuses bad files


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (
            ('      citation: "§ 267-18E"\n      amendment: "raised"', '      amendment: "raised"'),
            "without a citation",
        ),
        (
            (
                '      citation: "§ 267-18E"\n      amendment: "raised"',
                '      citation: "  "\n      amendment: "raised"',
            ),
            "without a citation",
        ),
        (("effective: 2021-11-09", "effective: 2021-13-09"), "malformed date"),
        (("effective: 2021-11-09", "effective: 11/9/2021"), "malformed date"),
        (("effective: 2021-11-09", "effective: 2021-11-09T10:00:00"), "date and time"),
        (('amendment: "raised"', 'amendment: "11-9-2031 STM Art. 99"'), "unknown amendment"),
        (("effective: 2021-11-09", "effective: 2007-10-23"), "share an effective date"),
        (("      value: 30\n", ""), "value missing"),
        (("      value: 30\n", "      value: 30\n      colour: red\n"), "unknown keys"),
    ],
)
def test_the_loader_refuses_a_malformed_value(tmp_path, change, complaint):
    assert change[0] in HEARING
    make_town(
        tmp_path,
        **{"amendments.yaml": AMENDMENTS, "s267_18__hearing.yaml": HEARING.replace(*change)},
    )
    with pytest.raises(ParameterFileError, match=complaint):
        load(tmp_path)


def test_the_loader_refuses_a_parameter_with_no_values(tmp_path):
    make_town(tmp_path, **{"s267_18__hearing.yaml": "open_within_days:\n  values: []\n"})
    with pytest.raises(ParameterFileError, match="non-empty"):
        load(tmp_path)


def test_the_loader_refuses_an_amendment_that_does_not_say_whether_its_date_is_assumed(tmp_path):
    body = AMENDMENTS.replace("  effective_date_assumed: false\n", "")
    make_town(tmp_path, **{"amendments.yaml": body, "s267_18__hearing.yaml": HEARING})
    with pytest.raises(ParameterFileError, match="effective_date_assumed"):
        load(tmp_path)


def test_an_amendment_keeps_its_vote_date_and_its_effective_date_apart(tree):
    raised = load(tree).amendments["raised"]
    assert raised.vote_date == D(2021, 11, 9)
    assert raised.effective_date == D(2022, 1, 15)
    assert raised.effective_date_assumed is False


# ---------------------------------------------------------------- inheritance


def test_a_town_inherits_its_parents_parameters_and_overrides_by_name(tree):
    override = (
        HEARING.split("notice_days:")[0]
        .replace("value: 30", "value: 21")
        .replace("value: 45", "value: 40")
    )
    make_town(tree, "childtown", inherits="testtown", **{"s267_18__hearing.yaml": override})
    child, parent = load(tree, "childtown"), load(tree)
    assert child.names() == parent.names()
    assert child.value("s267_18.hearing.open_within_days", D(2010, 1, 1)) == 40
    assert parent.value("s267_18.hearing.open_within_days", D(2010, 1, 1)) == 45
    assert child.value("s267_18.hearing.notice_days", D(2010, 1, 1)) == 7
    assert child.amendments.keys() == parent.amendments.keys()


def test_exampleton_inherits_every_norfolk_parameter_and_overrides_only_its_own_files():
    norfolk, exampleton = P.load_parameter_set("norfolk"), P.load_parameter_set("exampleton")
    assert exampleton.meta["inherits"] == "norfolk" and exampleton.fictional
    assert set(norfolk.names()) <= set(exampleton.names())
    own_files = {
        str(path.relative_to(P.ROOT))
        for path in (P.ROOT / "exampleton").rglob("*.yaml")
        if path.name not in P.META_FILES
    }
    for name in norfolk.names():
        mine = exampleton.definition(name)
        if mine.source_file in own_files:
            assert mine.source_file.startswith("exampleton/")
        else:
            assert mine == norfolk.definition(name), name
    assert exampleton.amendments == norfolk.amendments


# ---------------------------------------------------------------- the shipped trees


@pytest.mark.parametrize("slug", ["norfolk", "exampleton"])
def test_every_shipped_parameter_loads_and_every_value_has_a_citation(slug):
    params = P.load_parameter_set(slug)
    assert params.names(), f"{slug} holds no parameters"
    for name in params.names():
        for value in params.definition(name).values:
            assert value.citation.strip(), value.version
            assert value.amendment is None or value.amendment in params.amendments, value.version


@pytest.mark.parametrize("slug", ["norfolk", "exampleton"])
def test_no_shipped_parameter_is_in_force_before_its_article_was_adopted(slug):
    params = P.load_parameter_set(slug)
    first_adoption = min(a.effective_date for a in params.amendments.values())
    for name in params.names():
        assert params.definition(name).values[0].effective >= first_adoption, name


def test_norfolks_amendments_keep_vote_and_effective_dates_and_flag_the_assumed_ones():
    amendments = P.load_parameter_set("norfolk").amendments
    assert set(amendments) == {
        "10-24-2006 TM (Art. I adopted)",
        "10-23-2007 TM (Art. II adopted)",
        "11-9-2021 STM Art. 13",
        "5-10-2022 ATM Art. 18",
    }
    for amendment in amendments.values():
        assert amendment.effective_date >= amendment.vote_date
        if amendment.effective_date_assumed:
            assert amendment.effective_date == amendment.vote_date
    raw = (P.ROOT / "norfolk" / "amendments.yaml").read_text()
    assert raw.count("effective_date_assumed:") == len(amendments)
    assert raw.count("vote_date:") == raw.count("effective_date:") == len(amendments)


def test_the_default_town_is_norfolk_and_a_loaded_set_passes_through():
    norfolk = P.as_parameter_set(None)
    assert norfolk.slug == "norfolk"
    assert P.as_parameter_set(norfolk) is norfolk
    assert P.as_parameter_set("exampleton").slug == "exampleton"


def test_the_loader_refuses_an_impossible_date_in_the_amendments(tmp_path):
    body = AMENDMENTS.replace("vote_date: 2021-11-09", "vote_date: 2021-02-30")
    make_town(tmp_path, **{"amendments.yaml": body, "s267_18__hearing.yaml": HEARING})
    with pytest.raises(ParameterFileError, match="malformed"):
        load(tmp_path)


# The override layer: what the town adopted or confirmed after its files were written.

REGULATION = "Planning Board Stormwater Regulations § 4, adopted 2026-05-14 (§ 267-17B)"


def _override(name="s267_17.regulations.notice_days_before", value=14, **kw):
    return P.ParameterOverride(
        name=name,
        effective=kw.pop("effective", D(2026, 6, 1)),
        value=value,
        citation=kw.pop("citation", REGULATION),
        layer=kw.pop("layer", "an adopted Planning Board regulation"),
        **kw,
    )


def test_an_override_takes_effect_on_its_date_and_answers_with_its_own_citation():
    from outfall.law.s267_17_administration import regulations_hearing_notice_by

    norfolk = P.town("norfolk").with_overrides([_override()])
    before = regulations_hearing_notice_by(D(2026, 5, 28), as_of=D(2026, 5, 1), town=norfolk)
    after = regulations_hearing_notice_by(D(2026, 6, 25), as_of=D(2026, 6, 2), town=norfolk)
    assert before.outcome.raw_due == D(2026, 5, 21)
    assert after.outcome.raw_due == D(2026, 6, 11)
    used = {u.name: u for u in after.parameters}["s267_17.regulations.notice_days_before"]
    assert used.citation == REGULATION
    assert used.as_dict()["layer"] == "an adopted Planning Board regulation"
    assert REGULATION in after.citations


def test_the_cached_town_is_unchanged_by_an_override_laid_over_it():
    P.town("norfolk").with_overrides([_override()])
    assert P.town("norfolk").value("s267_17.regulations.notice_days_before", D(2026, 7, 1)) == 7


def test_an_override_dated_like_a_file_value_replaces_it_from_that_date():
    first = P.town("norfolk").get("s267_17.regulations.notice_days_before", D(2026, 1, 1))
    replaced = P.town("norfolk").with_overrides([_override(effective=first.effective)])
    assert replaced.get("s267_17.regulations.notice_days_before", D(2026, 1, 1)).value == 14


@pytest.mark.parametrize(
    ("override", "complaint"),
    [
        (_override(name="s267_17.regulations.no_such_thing"), "no parameter named"),
        (_override(value="fourteen"), "not of the kind"),
        (_override(value=True), "not of the kind"),
        (_override(citation="  "), "needs a citation"),
    ],
)
def test_an_override_is_refused_by_name_when_it_cannot_stand(override, complaint):
    with pytest.raises(ParameterFileError) as err:
        P.town("norfolk").with_overrides([override])
    assert complaint in str(err.value)
    assert override.name in str(err.value)


def test_an_installation_serving_many_towns_loads_each_town_s_parameters_once(monkeypatch):
    """Deadlines of towns asked in turn (a clerk of two towns, a statewide login) never reload a
    town's parameter files because others were asked for since: one load per town served."""
    loads: list[str] = []
    real = P.load_parameter_set

    def counted(slug, *args, **kwargs):
        loads.append(slug)
        return real("norfolk")

    served = [f"town-{n:02d}" for n in range(40)]
    P.town.cache_clear()
    monkeypatch.setattr(P, "load_parameter_set", counted)
    try:
        for _ in range(5):
            for slug in served:
                assert P.town(slug).slug == "norfolk"
    finally:
        P.town.cache_clear()
    assert sorted(loads) == served


# ---------------------------------------------------------------- parsed once per installation


def unparsable(monkeypatch) -> None:
    """From here on a set can only come from the cache: reading YAML fails."""

    def refuse(text):
        raise AssertionError("parsed the YAML again")

    monkeypatch.setattr(P, "_load_yaml", refuse)


def test_a_parsed_set_is_served_from_the_cache_until_any_file_it_came_from_changes(
    tree, tmp_path, monkeypatch
):
    make_town(tree, "childtown", inherits="testtown")
    cache = tmp_path / "cache"
    parsed = P.load_parameter_set("childtown", tree, cache=cache)
    with monkeypatch.context() as m:
        unparsable(m)
        assert P.load_parameter_set("childtown", tree, cache=cache) == parsed
    hearing = tree / "testtown" / "s267_18" / "hearing.yaml"
    hearing.write_text(HEARING.replace("value: 45", "value: 44"))  # the parent's, same size
    changed = P.load_parameter_set("childtown", tree, cache=cache)
    assert changed.value("s267_18.hearing.open_within_days", D(2010, 1, 1)) == 44
    unparsable(monkeypatch)
    assert P.load_parameter_set("childtown", tree, cache=cache) == changed


def test_a_cache_that_cannot_be_written_or_read_is_passed_over(tree, tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert P.load_parameter_set("testtown", tree, cache=blocked / "cache") == load(tree)
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "parameters-testtown.pickle").write_bytes(b"not a pickle")
    assert P.load_parameter_set("testtown", tree, cache=cache) == load(tree)
