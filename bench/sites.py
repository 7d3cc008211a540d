"""The benchmark sites, built once and written out for both engines.

One description of each site feeds EPA SWMM 5 (an .inp text) and outfall (the engine's own
objects, and an outfall site file so the same site can be run through `outfall check`).

Units: acres, inches, hours, feet, cfs (SWMM runs in US units with FLOW_UNITS CFS).

Runoff sites: N pervious subcatchments, each with its own area, curve number and Tc, all under
one NRCS Type III 24-h storm. SWMM's Curve Number infiltration takes no initial abstraction: it
infiltrates F = P − P²/(P + S) of the rain P (Ia = 0; depression storage is meant to stand in for
Ia). TR-55, and outfall, use Ia = 0.2 S. So that the two engines see the same loss, SWMM is given
for each subcatchment the curve number CN₀ whose Ia = 0 runoff equals TR-55's runoff at the
storm's depth (`curve_number_without_initial_abstraction`), with no depression storage and no
impervious area. The conversion is exact for the storm's total depth and only for it.

Routing site: one pond (stage–area table, average-end-area storage, as SWMM integrates a tabular
storage curve), a circular orifice and a sharp-crested weir, fed by one inflow table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from outfall.eng.rainfall import DesignStorm
from outfall.eng.runoff import runoff_depth_in

STORM_DEPTH_IN = 3.3
"""The 2-year 24-h depth of the example sites (examples/sites/maple-street-subdivision.yaml)."""
STEP_HR = 0.05
"""Rain step given to SWMM, SWMM's wet step, and outfall's reporting step (3 minutes)."""
SPAN_HR = 36.0
"""Simulated time: the 24-h storm and 12 h of recession (outfall's default span)."""
SLOPE_PERCENT = 2.0
PERVIOUS_N = 0.15
SWMM_CN_LIMITS = (10.0, 99.0)
"""SWMM clamps a Curve Number infiltration CN to this range."""
DRYING_TIME_DAYS = 7.0
SQFT_PER_ACRE = 43_560.0


@dataclass(frozen=True)
class BenchSubcatchment:
    """One pervious subcatchment: area (ac), TR-55 curve number, Tc (h), overland length (ft)."""

    name: str
    area_ac: float
    cn: float
    tc_hr: float
    flow_length_ft: float

    @property
    def width_ft(self) -> float:
        """SWMM's characteristic width: area over the overland flow length."""
        return self.area_ac * SQFT_PER_ACRE / self.flow_length_ft


def bench_subcatchments(count: int, seed: int = 267) -> list[BenchSubcatchment]:
    """`count` plausible subcatchments: 0.5–10 ac, CN 60–98, Tc 6–30 min (every Tc distinct).

    Overland length grows with Tc (150 ft at 6 min to 600 ft at 30 min) so SWMM's reservoirs
    drain on time scales like outfall's unit hydrographs; volumes do not depend on it.
    """
    rng = np.random.default_rng(seed + count)
    areas = rng.uniform(0.5, 10.0, count)
    cns = rng.uniform(60.0, 98.0, count)
    tcs_min = rng.uniform(6.0, 30.0, count)
    out = []
    for i in range(count):
        tc_min = float(tcs_min[i])
        length = 150.0 + (tc_min - 6.0) / 24.0 * 450.0
        out.append(
            BenchSubcatchment(
                name=f"S{i + 1}",
                area_ac=round(float(areas[i]), 3),
                cn=round(float(cns[i]), 1),
                tc_hr=tc_min / 60.0,
                flow_length_ft=round(length, 1),
            )
        )
    return out


def storm_table(
    depth_in: float = STORM_DEPTH_IN, step_hr: float = STEP_HR, span_hr: float = SPAN_HR
) -> tuple[np.ndarray, np.ndarray]:
    """(hours, cumulative inches) of the NRCS Type III 24-h storm at `step_hr`, to `span_hr`.

    The mass curve is read with PCHIP, as outfall reads it by default; both engines then get this
    same table, read linearly (constant intensity within each step).
    """
    return DesignStorm.of("III", depth_in, span_hr).cumulative_depth_in(step_hr)


def curve_number_without_initial_abstraction(cn: float, depth_in: float) -> float:
    """CN₀ with Q(P; CN₀, Ia = 0) = Q(P; CN, Ia = 0.2 S): S₀ = P²/Q − P, CN₀ = 1000/(10 + S₀).

    SWMM's Curve Number infiltration leaves runoff P²/(P + S) (no Ia); this CN₀ makes that equal
    to TR-55 eq. 2-3 at the storm depth P. Needs runoff (P above Ia) and a CN₀ SWMM accepts
    without clamping it.
    """
    q = float(runoff_depth_in(depth_in, cn))
    if q <= 0.0:
        raise ValueError(f"CN {cn} gives no runoff from {depth_in} in; no CN₀ can match it")
    s0 = depth_in * depth_in / q - depth_in
    cn0 = 1000.0 / (10.0 + s0)
    low, high = SWMM_CN_LIMITS
    if not low <= cn0 <= high:
        raise ValueError(f"CN₀ {cn0:.2f} for CN {cn} lies outside SWMM's {low:g}–{high:g}")
    return cn0


def _clock(hours: float) -> str:
    minutes = round(hours * 60.0)
    return f"{minutes // 60}:{minutes % 60:02d}"


def _hms(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // 3600:02d}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def _span_options(span_hr: float, step_hr: float, report_step_s: float) -> list[str]:
    """SWMM's clock: start, end after `span_hr`, wet and dry steps, report step."""
    days, seconds = divmod(round(span_hr * 3600.0), 86_400)
    step = _hms(step_hr * 3600.0)
    return [
        "START_DATE           01/01/2024",
        "START_TIME           00:00:00",
        "REPORT_START_DATE    01/01/2024",
        "REPORT_START_TIME    00:00:00",
        f"END_DATE             01/{1 + days:02d}/2024",
        f"END_TIME             {_hms(seconds)}",
        f"WET_STEP             {step}",
        f"DRY_STEP             {step}",
        f"REPORT_STEP          {_hms(report_step_s)}",
        "DRY_DAYS             0",
    ]


def swmm_runoff_inp(
    subcatchments: list[BenchSubcatchment],
    depth_in: float = STORM_DEPTH_IN,
    step_hr: float = STEP_HR,
    span_hr: float = SPAN_HR,
    *,
    convert_cn: bool = True,
) -> str:
    """SWMM 5 input for the runoff comparison: a rain gage, the subcatchments, one outfall.

    Runoff only (IGNORE_ROUTING): outfall's subcatchment runs do no routing either. Each
    subcatchment is 100 % pervious with no depression storage and CN₀ (see the module notes);
    `convert_cn=False` hands SWMM the TR-55 curve numbers as they are.
    """
    times, cumulative = storm_table(depth_in, step_hr, span_hr)
    increments = np.diff(cumulative)
    lines = [
        "[TITLE]",
        f"outfall bench: {len(subcatchments)} subcatchments, NRCS Type III {depth_in} in",
        "",
        "[OPTIONS]",
        "FLOW_UNITS           CFS",
        "INFILTRATION         CURVE_NUMBER",
        "FLOW_ROUTING         KINWAVE",
        "IGNORE_ROUTING       YES",
        "ALLOW_PONDING        NO",
        f"ROUTING_STEP         {_hms(step_hr * 3600.0)}",
        *_span_options(span_hr, step_hr, step_hr * 3600.0),
        "",
        "[RAINGAGES]",
        f"RG1  VOLUME  {_clock(step_hr)}  1.0  TIMESERIES  Storm",
        "",
        "[SUBCATCHMENTS]",
        ";;name  gage  outlet  area_ac  pct_imperv  width_ft  pct_slope  curb_length",
    ]
    lines += [
        f"{s.name}  RG1  OUT1  {s.area_ac:.4f}  0  {s.width_ft:.3f}  {SLOPE_PERCENT:g}  0"
        for s in subcatchments
    ]
    lines += [
        "",
        "[SUBAREAS]",
        ";;name  n_imperv  n_perv  s_imperv  s_perv  pct_zero  route_to",
    ]
    lines += [f"{s.name}  0.015  {PERVIOUS_N:g}  0  0  100  OUTLET" for s in subcatchments]
    lines += ["", "[INFILTRATION]", ";;name  curve_number  (unused)  drying_time_days"]
    for s in subcatchments:
        cn = curve_number_without_initial_abstraction(s.cn, depth_in) if convert_cn else s.cn
        lines.append(f"{s.name}  {cn:.6f}  0  {DRYING_TIME_DAYS:g}")
    lines += ["", "[OUTFALLS]", "OUT1  0  FREE  NO", "", "[TIMESERIES]"]
    lines += [f"Storm  {_clock(t)}  {dp:.9g}" for t, dp in zip(times[:-1], increments, strict=True)]
    lines += ["", "[REPORT]", "SUBCATCHMENTS ALL", "NODES ALL", "LINKS ALL", ""]
    return "\n".join(lines)


def runoff_site_file(
    subcatchments: list[BenchSubcatchment],
    depth_in: float = STORM_DEPTH_IN,
    step_hr: float = STEP_HR,
    span_hr: float = SPAN_HR,
) -> dict:
    """The same subcatchments as an outfall site file (pre and post alike, one design point)."""
    subs = [
        {
            "name": s.name,
            "to": "DP1",
            "area_ac": s.area_ac,
            "cn": s.cn,
            "tc_min": round(s.tc_hr * 60.0, 6),
        }
        for s in subcatchments
    ]
    condition = {"subcatchments": subs, "design_points": ["DP1"]}
    return {
        "name": f"Benchmark runoff site ({len(subcatchments)} subcatchments)",
        "town": "norfolk",
        "project": {"disturbance_acres": 0.5},
        "rainfall": {
            "distribution": "type_iii_24hr",
            "storms": {2: depth_in},
            "dt_hr": step_hr,
            "span_hr": span_hr,
        },
        "conditions": {"pre": condition, "post": condition},
    }


@dataclass(frozen=True)
class BenchPond:
    """A dry detention pond: stage–area rows (ft, sf), a circular orifice and a sharp weir."""

    stage_area: tuple[tuple[float, float], ...]
    orifice_invert_ft: float
    orifice_diameter_in: float
    orifice_coefficient: float
    weir_crest_ft: float
    weir_length_ft: float
    weir_coefficient: float

    @property
    def bottom_ft(self) -> float:
        return self.stage_area[0][0]

    @property
    def depth_ft(self) -> float:
        return self.stage_area[-1][0] - self.stage_area[0][0]


def bench_pond() -> BenchPond:
    """The routing benchmark's pond: 6 ft deep, 14,000 sf at the bottom, 12-in orifice, 6-ft weir."""
    return BenchPond(
        stage_area=(
            (100.0, 14000.0),
            (101.0, 16000.0),
            (102.0, 18200.0),
            (103.0, 20500.0),
            (104.0, 23000.0),
            (105.0, 25600.0),
            (106.0, 28400.0),
        ),
        orifice_invert_ft=100.0,
        orifice_diameter_in=8.0,
        orifice_coefficient=0.6,
        weir_crest_ft=103.0,
        weir_length_ft=6.0,
        weir_coefficient=3.33,
    )


def inflow_table(step_hr: float = STEP_HR, span_hr: float = SPAN_HR) -> list[tuple[float, float]]:
    """The pond's inflow as a (hours, cfs) table: a 12-ac, CN 80, Tc 15-min area under the 10-yr
    4.9-in Type III storm, rounded to 0.001 cfs. Both engines read exactly this table."""
    from outfall.eng.unit_hydrograph import subcatchment_hydrograph

    storm = DesignStorm.of("III", 4.9, span_hr)
    run = subcatchment_hydrograph(12.0, 80.0, 0.25, storm, step_hr)
    hydrograph = run.hydrograph.on_grid(0.0, step_hr, round(span_hr / step_hr) + 1)
    return [
        (round(float(t), 4), round(float(q), 3))
        for t, q in zip(hydrograph.times_hr, hydrograph.q_cfs, strict=True)
    ]


def swmm_pond_inp(
    pond: BenchPond,
    inflow: list[tuple[float, float]],
    span_hr: float = SPAN_HR,
    routing_step_s: float = 1.0,
    report_step_s: float = 30.0,
) -> str:
    """SWMM 5 input for the routing comparison: a storage node fed by the inflow table (an
    external time-series inflow), an orifice and a transverse weir, each to its own free outfall
    (SWMM allows one link into an outfall); pond outflow = OR1 + WR1.

    Dynamic wave at a fixed `routing_step_s`; the outfalls sit 10 ft below the pond bottom so no
    tailwater reaches either device.
    """
    bottom = pond.bottom_ft
    diameter_ft = pond.orifice_diameter_in / 12.0
    weir_height = pond.stage_area[-1][0] - pond.weir_crest_ft
    lines = [
        "[TITLE]",
        "outfall bench: one pond, circular orifice and sharp-crested weir",
        "",
        "[OPTIONS]",
        "FLOW_UNITS           CFS",
        "INFILTRATION         HORTON",
        "FLOW_ROUTING         DYNWAVE",
        f"ROUTING_STEP         {routing_step_s:g}",
        "VARIABLE_STEP        0",
        *_span_options(span_hr, STEP_HR, report_step_s),
        "",
        "[OUTFALLS]",
        f"OUT1  {bottom - 10.0:g}  FREE  NO",
        f"OUT2  {bottom - 10.0:g}  FREE  NO",
        "",
        "[STORAGE]",
        ";;name  invert  max_depth  init_depth  shape  curve  surcharge_depth  evap_frac",
        f"POND  {bottom:g}  {pond.depth_ft:g}  0  TABULAR  PondCurve  0  0",
        "",
        "[ORIFICES]",
        ";;name  from  to  type  offset  coefficient  gated  close_time",
        f"OR1  POND  OUT1  SIDE  {pond.orifice_invert_ft - bottom:g}  "
        f"{pond.orifice_coefficient:g}  NO  0",
        "",
        "[WEIRS]",
        ";;name  from  to  type  crest_height  coefficient  gated  end_con  end_coeff  surcharge",
        f"WR1  POND  OUT2  TRANSVERSE  {pond.weir_crest_ft - bottom:g}  "
        f"{pond.weir_coefficient:g}  NO  0  0  YES",
        "",
        "[XSECTIONS]",
        f"OR1  CIRCULAR  {diameter_ft:.6f}  0  0  0",
        f"WR1  RECT_OPEN  {weir_height:g}  {pond.weir_length_ft:g}  0  0",
        "",
        "[INFLOWS]",
        "POND  FLOW  Inflow  FLOW  1.0  1.0",
        "",
        "[CURVES]",
    ]
    kind = "Storage"
    for stage, area in pond.stage_area:
        lines.append(f"PondCurve  {kind}  {stage - bottom:g}  {area:g}")
        kind = ""
    lines += ["", "[TIMESERIES]"]
    lines += [f"Inflow  {t:.4f}  {q:g}" for t, q in inflow]
    lines += ["", "[REPORT]", "NODES ALL", "LINKS ALL", ""]
    return "\n".join(lines)


def pond_site_file(pond: BenchPond, inflow: list[tuple[float, float]]) -> dict:
    """The routing site as an outfall site file: the inflow table into the pond, then DP1."""
    outlets = [
        {
            "name": "orifice",
            "type": "orifice",
            "diameter_in": pond.orifice_diameter_in,
            "invert_ft": pond.orifice_invert_ft,
            "coefficient": pond.orifice_coefficient,
        },
        {
            "name": "weir",
            "type": "weir",
            "kind": "sharp",
            "length_ft": pond.weir_length_ft,
            "crest_ft": pond.weir_crest_ft,
            "coefficient": pond.weir_coefficient,
        },
    ]
    table = [[t, q] for t, q in inflow]
    return {
        "name": "Benchmark pond",
        "town": "norfolk",
        "project": {"disturbance_acres": 0.5},
        "rainfall": {"storms": {2: 3.3, 10: 4.9, 100: 8.7}, "dt_hr": STEP_HR, "span_hr": SPAN_HR},
        "conditions": {
            "pre": {
                "inflows": [{"name": "Inflow", "to": "DP1", "hydrograph": table}],
                "design_points": ["DP1"],
            },
            "post": {
                "inflows": [{"name": "Inflow", "to": "Pond", "hydrograph": table}],
                "ponds": [
                    {
                        "name": "Pond",
                        "to": "DP1",
                        "start_elev_ft": pond.bottom_ft,
                        "storage": {
                            "stage_area": [list(row) for row in pond.stage_area],
                            "method": "prismatic",
                        },
                        "outlets": outlets,
                    }
                ],
                "design_points": ["DP1"],
            },
        },
    }
