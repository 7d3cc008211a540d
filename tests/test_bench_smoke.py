"""The benchmark's site builders (bench/sites.py) write valid outfall site files and SWMM input.

No timing here: benchmarks never assert wall-clock time. SWMM itself runs once, on two
subcatchments, where swmm-toolkit is installed.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

from outfall.compliance.sitefile import load_site, site_from_dict
from outfall.eng.runoff import runoff_depth_in

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sites = importlib.import_module("bench.sites")


def _section(inp: str, name: str) -> list[str]:
    body = inp.split(f"[{name}]", 1)[1].split("\n[", 1)[0]
    return [line for line in body.splitlines() if line.strip() and not line.startswith(";;")]


def test_the_runoff_site_is_a_valid_site_file_with_every_subcatchment_in_pre_and_post():
    subs = sites.bench_subcatchments(12)
    site = site_from_dict(sites.runoff_site_file(subs))
    for condition in ("pre", "post"):
        got = site.conditions[condition].subcatchments
        assert [s.name for s in got] == [s.name for s in subs]
        assert [s.area_ac for s in got] == [s.area_ac for s in subs]


def test_the_pond_site_is_a_valid_site_file_routing_the_inflow_table_through_the_pond():
    pond = sites.bench_pond()
    table = sites.inflow_table()
    site = site_from_dict(sites.pond_site_file(pond, table))
    (built,) = site.conditions["post"].ponds
    assert built.storage_table == pond.stage_area
    assert site.conditions["post"].inflows[0].hydrograph == tuple(table)


def test_the_large_example_site_has_20_post_subcatchments_3_ponds_and_3_storms():
    site = load_site(ROOT / "examples/sites/large-site-20-subcatchments.yaml")
    post = site.conditions["post"]
    assert len(post.subcatchments) == 20
    assert len(post.ponds) == 3
    assert sorted(site.rainfall.storms) == [2, 10, 100]
    assert site.bmps and site.recharge is not None


@pytest.mark.parametrize("cn", [60.0, 72.5, 85.0, 98.0])
def test_the_curve_number_without_initial_abstraction_gives_tr55_runoff_at_the_storm_depth(cn):
    p = sites.STORM_DEPTH_IN
    cn0 = sites.curve_number_without_initial_abstraction(cn, p)
    s0 = 1000.0 / cn0 - 10.0
    assert cn0 < cn
    assert p * p / (p + s0) == pytest.approx(float(runoff_depth_in(p, cn)), rel=1e-12)


def test_a_curve_number_giving_no_runoff_has_no_equivalent_without_initial_abstraction():
    with pytest.raises(ValueError, match="no runoff"):
        sites.curve_number_without_initial_abstraction(40.0, 1.0)


def test_the_swmm_runoff_input_lists_every_subcatchment_and_rains_the_storm_depth():
    subs = sites.bench_subcatchments(5)
    inp = sites.swmm_runoff_inp(subs)
    assert "INFILTRATION         CURVE_NUMBER" in inp
    for section in ("SUBCATCHMENTS", "SUBAREAS", "INFILTRATION"):
        assert [line.split()[0] for line in _section(inp, section)] == [s.name for s in subs]
    for line, sub in zip(_section(inp, "INFILTRATION"), subs, strict=True):
        assert float(line.split()[1]) == pytest.approx(
            sites.curve_number_without_initial_abstraction(sub.cn, sites.STORM_DEPTH_IN)
        )
    rain = sum(float(line.split()[2]) for line in _section(inp, "TIMESERIES"))
    assert rain == pytest.approx(sites.STORM_DEPTH_IN, rel=1e-6)


def test_the_swmm_pond_input_has_the_pond_curve_orifice_and_weir_of_the_bench_pond():
    pond = sites.bench_pond()
    inp = sites.swmm_pond_inp(pond, sites.inflow_table())
    curve = _section(inp, "CURVES")
    depths = [float(re.findall(r"[-\d.]+", line)[-2]) for line in curve]
    assert depths == [stage - pond.bottom_ft for stage, _ in pond.stage_area]
    (orifice,) = _section(inp, "ORIFICES")
    (weir,) = _section(inp, "WEIRS")
    assert orifice.split()[3:6] == ["SIDE", "0", f"{pond.orifice_coefficient:g}"]
    assert float(weir.split()[4]) == pond.weir_crest_ft - pond.bottom_ft


def test_swmm_on_two_subcatchments_accounts_for_the_tr55_runoff_volume(tmp_path):
    pytest.importorskip("swmm.toolkit")
    compare = importlib.import_module("bench.swmm_compare")
    subs = sites.bench_subcatchments(2)
    _, report, _ = compare.run_swmm(sites.swmm_runoff_inp(subs), tmp_path, "two")
    continuity = compare.runoff_continuity_af(report)
    tr55_af = sum(s.area_ac * float(runoff_depth_in(sites.STORM_DEPTH_IN, s.cn)) for s in subs)
    swmm_af = continuity["Surface Runoff"] + continuity["Final Storage"]
    assert swmm_af == pytest.approx(tr55_af / 12.0, rel=compare.VOLUME_TOLERANCE)


def test_the_web_bench_sizes_scale_from_issue_13_s_statewide_data_set():
    web = importlib.import_module("bench.web")
    full = web.Sizes.at(1)
    assert (full.towns, full.applications, full.assets, full.audit) == (
        50,
        20_000,
        200_000,
        700_000,
    )
    tiny = web.Sizes.at(0.0001)
    assert tiny.towns == 2 and tiny.applications >= 10


@pytest.mark.django_db
def test_the_web_bench_data_set_is_built_through_the_models_and_every_page_it_times_answers(
    tmp_path, monkeypatch
):
    """The web bench's build at a very small scale, and each page it times read once through
    Django's test client with the bench's sessions (no server, no timing)."""
    from django.test import Client

    from outfall.law import parameters
    from outfall.web.apps.permits.models import Application

    web = importlib.import_module("bench.web")
    sizes = web.Sizes.at(0.001)
    web.write_parameters(tmp_path, web.town_slugs(sizes.towns))
    monkeypatch.setattr(parameters.load_parameter_set, "__defaults__", (tmp_path,))
    parameters.town.cache_clear()
    try:
        made = web.build(sizes)
        assert Application.objects.count() == sizes.applications
        assert {a.state for a in Application.objects.all()} >= {"submitted", "closed"}
        assert made["clerk_all_towns"] == made["towns"] == sizes.towns
        assert made["case_history"] > 0
        for label, path, session in web.pages(made):
            client = Client()
            if session:
                client.cookies["sessionid"] = session
            assert client.get(path).status_code == 200, label
    finally:
        parameters.town.cache_clear()
