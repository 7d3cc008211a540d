"""Outlet devices against the orifice, weir and HDS-5 culvert equations worked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from outfall.eng.outlets import (
    BROAD_CRESTED_CRITICAL_DEPTH_COEFFICIENT,
    G_FT_S2,
    BroadCrestedWeir,
    CircularOrifice,
    Culvert,
    Exfiltration,
    OutletStructure,
    RectangularOrifice,
    SharpCrestedWeir,
    StageDischargeTable,
    VNotchWeir,
    in_parallel,
    through,
)
from outfall.eng.storage import StageStorage
from outfall.kernel.errors import InputError

SQRT_2G = math.sqrt(2 * 32.174)


def test_a_rectangular_orifice_below_its_soffit_is_a_weir_meeting_the_orifice_at_the_soffit():
    """SWMM 5's side orifice: Q = C A sqrt(2g h/2) f^1.5 while the soffit is dry (f = H/h)."""
    orifice = RectangularOrifice(invert_ft=100.0, width_ft=2.0, height_ft=1.0, coefficient=0.6)
    at_soffit = 0.6 * 2.0 * math.sqrt(2 * 32.174 * 0.5)  # the orifice equation at the soffit
    assert orifice.discharge_cfs(100.5) == pytest.approx(at_soffit * 0.5**1.5)
    assert orifice.discharge_cfs(100.5) == pytest.approx(2.407, abs=0.001)
    assert orifice.discharge_cfs(101.0) == pytest.approx(at_soffit)


def test_a_submerged_rectangular_orifice_passes_c_a_root_2gh_to_its_centroid():
    orifice = RectangularOrifice(invert_ft=0.0, width_ft=1.0, height_ft=1.0, coefficient=0.6)
    centroid = 0.6 * 1.0 * math.sqrt(2 * 32.174 * 2.5)  # Q = C A sqrt(2 g h), h to the centroid
    assert orifice.discharge_cfs(3.0) == pytest.approx(centroid)


def test_a_circular_orifice_under_head_passes_c_a_root_2gh():
    orifice = CircularOrifice(invert_ft=100.0, diameter_ft=1.0, coefficient=0.6)
    head = 105.0 - 100.5
    assert orifice.discharge_cfs(105.0) == pytest.approx(
        0.6 * math.pi / 4 * math.sqrt(2 * 32.174 * head)
    )


def test_a_half_full_circular_orifice_flows_as_swmm_rates_it():
    """Half full: f = 0.5, Q = C A sqrt(2g D/2) 0.5^1.5 — SWMM 5's 0.343 cfs for the bench's
    8-in orifice (C 0.6) at 100.33 ft, where the strip-integrated opening gave 0.296."""
    d = 8.0 / 12.0
    orifice = CircularOrifice(invert_ft=100.0, diameter_ft=d, coefficient=0.6)
    expected = 0.6 * math.pi * d * d / 4 * math.sqrt(2 * 32.174 * d / 2) * 0.5**1.5
    assert orifice.discharge_cfs(100.0 + d / 2) == pytest.approx(expected)
    assert orifice.discharge_cfs(100.0 + d / 2) == pytest.approx(0.343, abs=0.001)


def test_nothing_passes_an_orifice_at_or_below_its_invert():
    orifice = CircularOrifice(invert_ft=100.0, diameter_ft=1.0)
    assert np.all(orifice.discharge_cfs(np.array([98.0, 100.0])) == 0.0)


def test_a_circular_orifice_rises_without_a_step_through_its_crown():
    orifice = CircularOrifice(invert_ft=0.0, diameter_ft=1.0)
    stages = np.linspace(0.0, 3.0, 3001)
    flow = orifice.discharge_cfs(stages)
    assert flow[0] == 0.0
    assert np.all(np.diff(flow) > 0)
    crown = 1000
    # the weir (below) and the orifice (above) meet at the crown; only the slope changes there,
    # from 1.5 Q/D to Q/D
    below, above = flow[crown] - flow[crown - 1], flow[crown + 1] - flow[crown]
    assert below == pytest.approx(1.5 * flow[crown] / 1.0 * 0.001, rel=0.01)
    assert above == pytest.approx(flow[crown] / 1.0 * 0.001, rel=0.01)


def test_the_tr55_example_6_1_weir_passes_its_180_cfs():
    """TR-55 Ex. 6-1: qo = 3.2 Lw Hw^1.5 with Hw 5.7 ft gives Lw = 4.1 ft for 180 cfs."""
    weir = SharpCrestedWeir(crest_ft=100.0, length_ft=4.1, coefficient=3.2)
    assert weir.discharge_cfs(105.7) == pytest.approx(3.2 * 4.1 * 5.7**1.5)
    assert weir.discharge_cfs(105.7) == pytest.approx(180.0, rel=0.01)
    assert weir.discharge_cfs(99.0) == 0.0


def test_end_contractions_shorten_the_francis_crest_by_a_tenth_of_the_head_each():
    weir = SharpCrestedWeir(crest_ft=0.0, length_ft=3.0, end_contractions=2)
    assert weir.discharge_cfs(1.0) == pytest.approx(3.33 * (3.0 - 0.2) * 1.0)


def test_a_broad_crested_weir_defaults_to_critical_depth_on_the_crest():
    assert pytest.approx(3.087, abs=0.001) == BROAD_CRESTED_CRITICAL_DEPTH_COEFFICIENT
    weir = BroadCrestedWeir(crest_ft=10.0, length_ft=8.0)
    assert weir.discharge_cfs(12.0) == pytest.approx(3.087 * 8.0 * 2.0**1.5, rel=1e-3)
    given = BroadCrestedWeir(crest_ft=10.0, length_ft=8.0, coefficient=2.6)
    assert given.discharge_cfs(12.0) == pytest.approx(2.6 * 8.0 * 2.0**1.5)


def test_a_90_degree_v_notch_passes_about_2_5_h_to_the_2_5():
    notch = VNotchWeir(vertex_ft=0.0, angle_deg=90.0)
    assert notch.discharge_cfs(1.0) == pytest.approx(8 / 15 * 0.58 * SQRT_2G, rel=1e-9)
    assert notch.discharge_cfs(2.0) == pytest.approx(2.48 * 2.0**2.5, rel=0.01)
    narrow = VNotchWeir(vertex_ft=0.0, angle_deg=60.0)
    assert narrow.discharge_cfs(1.0) / notch.discharge_cfs(1.0) == pytest.approx(
        math.tan(math.radians(30))
    )


def _culvert(**overrides) -> Culvert:
    values = {
        "inlet_invert_ft": 100.0,
        "outlet_invert_ft": 99.0,
        "diameter_ft": 2.0,
        "length_ft": 100.0,
        "manning_n": 0.013,
        "entrance_loss": 0.5,
    }
    values.update(overrides)
    return Culvert(**values)


def test_a_culvert_with_a_drowned_outlet_is_in_outlet_control_by_the_hds5_energy_equation():
    culvert = _culvert(tailwater_ft=102.0)
    velocity_head = (20.0 / (math.pi * 2.0**2 / 4)) ** 2 / (2 * 32.174)
    friction = 29 * 0.013**2 * 100.0 / 0.5 ** (4 / 3)
    headwater = 102.0 + (1 + 0.5 + friction) * velocity_head  # = 103.72 ft
    assert culvert.outlet_control_headwater_ft(np.array([20.0]))[0] == pytest.approx(headwater)
    assert headwater == pytest.approx(103.72, abs=0.01)
    assert culvert.discharge_cfs(headwater) == pytest.approx(20.0, rel=1e-3)


def test_a_free_outfall_uses_the_mean_of_critical_depth_and_diameter_at_the_outlet():
    culvert = _culvert(outlet_invert_ft=100.0, inlet_invert_ft=100.0, inlet=None)
    q = 20.0
    dc = float(culvert._critical_depth_ft(np.array([q]))[0])
    velocity_head = (q / (math.pi)) ** 2 / (2 * G_FT_S2)
    friction = 29 * 0.013**2 * 100.0 / 0.5 ** (4 / 3)
    expected = 100.0 + (dc + 2.0) / 2 + (1.5 + friction) * velocity_head
    assert culvert.outlet_control_headwater_ft(np.array([q]))[0] == pytest.approx(expected)


def test_critical_depth_in_a_circle_satisfies_q2t_over_ga3():
    culvert = _culvert()
    dc = float(culvert._critical_depth_ft(np.array([10.0]))[0])
    theta = 2 * math.acos(1 - 2 * dc / 2.0)
    area = (theta - math.sin(theta)) * 4.0 / 8
    top = 2.0 * math.sin(theta / 2)
    assert 10.0**2 * top / (G_FT_S2 * area**3) == pytest.approx(1.0, rel=0.01)


def test_a_short_steep_culvert_with_a_submerged_inlet_follows_the_hds5_submerged_equation():
    culvert = _culvert(outlet_invert_ft=95.0, length_ft=50.0)  # slope 0.1
    q = 5.0 * (math.pi * 2.0**2 / 4) * math.sqrt(2.0)  # Q/(A D^0.5) = 5
    headwater = 100.0 + 2.0 * (0.0398 * 25 + 0.67 - 0.5 * 0.1)
    assert culvert.inlet_control_headwater_ft(np.array([q]))[0] == pytest.approx(headwater)
    assert culvert.headwater_ft(np.array([q]))[0] == pytest.approx(headwater)
    assert culvert.discharge_cfs(headwater) == pytest.approx(q, rel=2e-3)


def test_a_culvert_passes_nothing_below_its_inlet_and_more_with_more_head():
    culvert = _culvert()
    stages = np.linspace(99.0, 110.0, 200)
    flow = culvert.discharge_cfs(stages)
    assert np.all(flow[stages <= 100.0] == 0.0)
    assert np.all(np.diff(flow) >= -1e-9)
    assert flow[-1] > 0


def test_an_unknown_culvert_entrance_is_refused():
    with pytest.raises(InputError) as err:
        _culvert(inlet="bamboo")
    assert err.value.field == "inlet"


def test_a_riser_draining_through_a_barrel_passes_the_lesser_of_the_two():
    orifice = CircularOrifice(invert_ft=100.0, diameter_ft=0.5)
    crest = SharpCrestedWeir(crest_ft=103.0, length_ft=12.0)
    barrel = _culvert(inlet_invert_ft=99.5, outlet_invert_ft=99.0, diameter_ft=1.25)
    riser = through([orifice, crest], barrel)
    stages = np.linspace(100.0, 106.0, 121)
    upstream = orifice.discharge_cfs(stages) + crest.discharge_cfs(stages)
    downstream = barrel.discharge_cfs(stages)
    assert np.allclose(riser.discharge_cfs(stages), np.minimum(upstream, downstream))
    # low in the pond the orifice controls; high up the barrel does
    assert riser.discharge_cfs(101.0) == pytest.approx(orifice.discharge_cfs(101.0))
    assert riser.discharge_cfs(106.0) == pytest.approx(barrel.discharge_cfs(106.0))
    assert barrel.discharge_cfs(106.0) < upstream[-1]


def test_devices_in_parallel_add():
    a = CircularOrifice(invert_ft=0.0, diameter_ft=0.5)
    b = SharpCrestedWeir(crest_ft=2.0, length_ft=4.0)
    stages = np.array([1.0, 3.0])
    assert np.allclose(
        in_parallel(a, b).discharge_cfs(stages), a.discharge_cfs(stages) + b.discharge_cfs(stages)
    )


def test_a_rating_table_interpolates_and_refuses_to_invent_beyond_its_last_row():
    table = StageDischargeTable([[10.0, 0.0], [11.0, 2.0], [12.0, 10.0]], field="rating")
    assert table.discharge_cfs(11.5) == pytest.approx(6.0)
    assert table.discharge_cfs(9.0) == 0.0
    with pytest.raises(InputError) as err:
        table.discharge_cfs(12.5)
    assert err.value.field == "rating.top"


def test_a_rating_whose_discharge_falls_is_refused_naming_the_row():
    with pytest.raises(InputError) as err:
        StageDischargeTable([[10.0, 0.0], [11.0, 2.0], [12.0, 1.0]])
    assert err.value.field == "stage_discharge[2]"


def test_exfiltration_of_one_inch_an_hour_over_an_acre_is_about_an_acre_inch_an_hour():
    curve = StageStorage.from_stage_area([[0.0, 43_560.0], [4.0, 43_560.0 * 2]], method="prismatic")
    bottom = Exfiltration(rate_in_hr=1.0, over="bottom")
    surface = Exfiltration(rate_in_hr=1.0, over="surface")
    assert bottom.discharge_cfs(2.0, curve) == pytest.approx(43_560.0 / 12 / 3600)
    assert surface.discharge_cfs(2.0, curve) == pytest.approx(1.5 * 43_560.0 / 12 / 3600)
    assert bottom.discharge_cfs(0.0, curve) == 0.0


def test_an_outlet_structure_rates_primary_and_discarded_flow_apart_on_a_grid_with_every_crest():
    curve = StageStorage.from_stage_area([[100.0, 2000.0], [106.0, 8000.0]])
    crest = SharpCrestedWeir(crest_ft=103.37, length_ft=6.0)
    outlets = OutletStructure(
        primary=(CircularOrifice(invert_ft=100.21, diameter_ft=0.5), crest),
        discarded=(Exfiltration(rate_in_hr=0.5),),
    )
    rating = outlets.rating(curve)
    assert 103.37 in rating.stage_ft and 100.21 in rating.stage_ft
    assert np.all(np.diff(rating.primary_cfs) >= 0)
    assert np.all(rating.discarded_cfs >= 0)
    i = int(np.searchsorted(rating.stage_ft, 104.0))
    assert rating.primary_cfs[i] == pytest.approx(float(outlets.primary_cfs(rating.stage_ft[i])))


def test_bad_device_dimensions_are_refused_naming_the_field():
    with pytest.raises(InputError) as err:
        CircularOrifice(invert_ft=0.0, diameter_ft=0.0)
    assert err.value.field == "diameter_ft"
    with pytest.raises(InputError) as err:
        VNotchWeir(vertex_ft=0.0, angle_deg=180.0)
    assert err.value.field == "angle_deg"
    with pytest.raises(InputError) as err:
        Exfiltration(rate_in_hr=-1.0)
    assert err.value.field == "rate_in_hr"
