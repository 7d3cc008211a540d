"""outfall against EPA SWMM 5 (swmm-toolkit): runoff volumes and speed, and one pond routed.

Runoff: the same N subcatchments and the same storm table in both engines (see bench/sites.py for
how SWMM's Ia = 0 Curve Number infiltration is given a matching CN). SWMM runs in-process through
`swmm.toolkit.solver.swmm_run` (parse, simulate, write .rpt and .out) and its results are read
back with `swmm.toolkit.output`; outfall runs `subcatchment_hydrographs` on all the subcatchments
(the batch form of `subcatchment_hydrograph`, the same results).

Routing: the same inflow table through the same pond in SWMM (storage node, orifice and weir,
dynamic wave at 1 s) and in outfall (`route_through_pond`, storage indication).
"""

from __future__ import annotations

import contextlib
import cProfile
import os
import pstats
import re
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from swmm.toolkit import output, solver
from swmm.toolkit import shared_enum as swmm_enum

from bench import sites
from outfall.eng import outlets
from outfall.eng.hydrograph import Hydrograph
from outfall.eng.routing import Pond, route_through_pond
from outfall.eng.runoff import runoff_depth_in
from outfall.eng.storage import StageStorage
from outfall.eng.unit_hydrograph import (
    computation_step_hr,
    subcatchment_hydrograph,
    subcatchment_hydrographs,
    unit_hydrograph_ordinates,
)

CUBIC_FEET_PER_ACRE_FOOT = 43_560.0
VOLUME_TOLERANCE = 0.005
"""Largest accepted |SWMM runoff + SWMM final surface storage − outfall| / outfall volume."""
TC_NUDGE = 1e-9
"""Relative change of every Tc between timing repeats, so outfall's cache of unit-hydrograph
ordinates (keyed by Tc) never serves a repeat; volumes do not depend on Tc."""


@contextlib.contextmanager
def _quiet_stdout() -> Iterator[None]:
    """SWMM's C code prints its progress to file descriptor 1; send it to /dev/null."""
    saved = os.dup(1)
    sink = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(sink, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(sink)


def run_swmm(inp_text: str, workdir: Path, name: str) -> tuple[float, Path, Path]:
    """Write `name`.inp, run SWMM on it; (seconds in swmm_run, report path, output path)."""
    inp, rpt, out = (workdir / f"{name}.{ext}" for ext in ("inp", "rpt", "out"))
    inp.write_text(inp_text, encoding="utf-8")
    with _quiet_stdout():
        start = time.perf_counter()
        solver.swmm_run(str(inp), str(rpt), str(out))
        elapsed = time.perf_counter() - start
    return elapsed, rpt, out


def runoff_continuity_af(report: Path) -> dict[str, float]:
    """SWMM's Runoff Quantity Continuity table (acre-feet), keyed by its row labels."""
    text = report.read_text(encoding="utf-8", errors="replace")
    block = text.split("Runoff Quantity Continuity", 1)[1].split("Continuity Error", 1)[0]
    rows = re.findall(r"^\s*([A-Za-z ]+?)\s*\.+\s+(-?[\d.]+)\s+(-?[\d.]+)\s*$", block, re.M)
    return {label.strip(): float(volume) for label, volume, _ in rows}


def subcatchment_runoff_cf(out_path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Runoff volume (cf) and peak runoff rate (cfs) of every subcatchment from SWMM's binary
    output.

    Report periods start one report step after the start; the rate at the start is 0. Volumes are
    the trapezoidal integral of the reported runoff rate (cfs).
    """
    handle = output.init()
    output.open(handle, str(out_path))
    try:
        periods = output.get_times(handle, swmm_enum.Time.NUM_PERIODS)
        step_s = output.get_times(handle, swmm_enum.Time.REPORT_STEP)
        rates = np.array(
            [
                output.get_subcatch_attribute(handle, k, swmm_enum.SubcatchAttribute.RUNOFF_RATE)
                for k in range(periods)
            ]
        )
    finally:
        output.close(handle)
    rates = np.vstack([np.zeros(rates.shape[1]), rates])
    return np.trapezoid(rates, dx=step_s, axis=0), rates.max(axis=0)


@dataclass(frozen=True)
class RunoffComparison:
    """One site size: both engines' volumes (acre-feet) and timings (seconds, medians)."""

    count: int
    repeats: int
    outfall_af: float
    outfall_hydrograph_af: float
    swmm_output_af: float
    swmm_report_runoff_af: float
    swmm_final_storage_af: float
    swmm_infiltration_af: float
    outfall_s: float
    swmm_run_s: float
    swmm_read_s: float
    peak_ratios: tuple[float, ...]
    """SWMM's peak runoff rate / outfall's, subcatchment by subcatchment (information only:
    the nonlinear reservoir and the NRCS unit hydrograph differ by design)."""

    @property
    def peak_ratio_median(self) -> float:
        return statistics.median(self.peak_ratios)

    @property
    def peak_ratio_low(self) -> float:
        return min(self.peak_ratios)

    @property
    def peak_ratio_high(self) -> float:
        return max(self.peak_ratios)

    @property
    def volume_difference(self) -> float:
        """(SWMM runoff + SWMM surface storage left at the end − outfall) / outfall."""
        swmm = self.swmm_report_runoff_af + self.swmm_final_storage_af
        return (swmm - self.outfall_af) / self.outfall_af

    @property
    def within_tolerance(self) -> bool:
        return abs(self.volume_difference) <= VOLUME_TOLERANCE

    @property
    def speed_ratio(self) -> float:
        """SWMM's swmm_run time over outfall's (results reading left out of SWMM's side)."""
        return self.swmm_run_s / self.outfall_s


def _outfall_pass(
    subs: list[sites.BenchSubcatchment], rain: tuple[np.ndarray, np.ndarray], nudge: float
) -> tuple[float, list]:
    start = time.perf_counter()
    runs = subcatchment_hydrographs(
        [s.area_ac for s in subs],
        [s.cn for s in subs],
        [s.tc_hr * nudge for s in subs],
        rain,
        sites.STEP_HR,
    )
    return time.perf_counter() - start, runs


def compare_runoff(count: int, workdir: Path, repeats: int) -> RunoffComparison:
    """Run the N-subcatchment site `repeats` times in each engine; medians of the timings."""
    subs = sites.bench_subcatchments(count)
    rain = sites.storm_table()
    subcatchment_hydrograph(1.0, 75.0, 0.5, rain, sites.STEP_HR)
    outfall_times, swmm_times, read_times = [], [], []
    runs: list = []
    for k in range(repeats):
        elapsed, runs = _outfall_pass(subs, rain, 1.0 + k * TC_NUDGE)
        outfall_times.append(elapsed)
    inp = sites.swmm_runoff_inp(subs)
    for _ in range(repeats):
        elapsed, rpt, out = run_swmm(inp, workdir, f"runoff_{count}")
        swmm_times.append(elapsed)
        start = time.perf_counter()
        volumes_cf, swmm_peaks = subcatchment_runoff_cf(out)
        read_times.append(time.perf_counter() - start)
    continuity = runoff_continuity_af(rpt)
    return RunoffComparison(
        count=count,
        repeats=repeats,
        outfall_af=sum(r.runoff_volume_cf for r in runs) / CUBIC_FEET_PER_ACRE_FOOT,
        outfall_hydrograph_af=sum(r.detailed.volume_cf for r in runs) / CUBIC_FEET_PER_ACRE_FOOT,
        swmm_output_af=float(volumes_cf.sum()) / CUBIC_FEET_PER_ACRE_FOOT,
        swmm_report_runoff_af=continuity["Surface Runoff"],
        swmm_final_storage_af=continuity["Final Storage"],
        swmm_infiltration_af=continuity["Infiltration Loss"],
        outfall_s=statistics.median(outfall_times),
        swmm_run_s=statistics.median(swmm_times),
        swmm_read_s=statistics.median(read_times),
        peak_ratios=tuple(
            float(swmm) / r.peak_cfs for swmm, r in zip(swmm_peaks, runs, strict=True)
        ),
    )


def _convolution_pairs(count: int) -> list[tuple[float, np.ndarray, np.ndarray]]:
    """(computation step, excess increments, unit hydrograph) of each wet subcatchment of the
    N-subcatchment site, on the lengths outfall's own pass gives them (the unit hydrograph on
    its computation step; the increments from the start of runoff to the end of the rain, read
    off where its hydrograph is not zero)."""
    subs = sites.bench_subcatchments(count)
    _, runs = _outfall_pass(subs, sites.storm_table(), 1.0)
    pairs = []
    for sub, run in zip(subs, runs, strict=True):
        step = computation_step_hr(sub.tc_hr, sites.STEP_HR)
        u = unit_hydrograph_ordinates(sub.tc_hr, step)
        wet = np.flatnonzero(run.detailed.q_cfs)
        if len(wet):
            pairs.append((step, np.full(max(1, int(wet[-1] - wet[0]) + 2 - len(u)), 0.01), u))
    return pairs


def _quickest(passes: int, work) -> float:
    best = float("inf")
    for _ in range(passes):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def convolution_floor_s(count: int, passes: int = 5) -> float:
    """Seconds the N-subcatchment site's convolutions alone take (the quickest of `passes`),
    by np.convolve as outfall does: the floor of the direct method, whatever else is made free."""
    pairs = _convolution_pairs(count)
    return _quickest(passes, lambda: [np.convolve(x, u) for _, x, u in pairs])


def fft_convolution_s(count: int, passes: int = 5, rows: int = 32) -> float:
    """The same convolutions by FFT, `rows` subcatchments of one computation step at a time
    (each block zero-padded to a shared power-of-two length, one rfft of the block's
    increments, one of its unit hydrographs, one inverse): the alternative to the direct
    method that issue 13 proposed, timed on the same lengths."""
    groups: dict[float, list[tuple[np.ndarray, np.ndarray]]] = {}
    for step, x, u in _convolution_pairs(count):
        groups.setdefault(step, []).append((x, u))
    blocks = [m[i : i + rows] for m in groups.values() for i in range(0, len(m), rows)]

    def convolve_blocks() -> list[np.ndarray]:
        out = []
        for block in blocks:
            lx, lu = max(len(x) for x, _ in block), max(len(u) for _, u in block)
            size = 1 << (lx + lu - 2).bit_length()
            xs, us = np.zeros((len(block), lx)), np.zeros((len(block), lu))
            for r, (x, u) in enumerate(block):
                xs[r, : len(x)], us[r, : len(u)] = x, u
            spread = np.fft.irfft(np.fft.rfft(xs, size) * np.fft.rfft(us, size), size)
            out += [spread[r, : len(x) + len(u) - 1] for r, (x, u) in enumerate(block)]
        return out

    return _quickest(passes, convolve_blocks)


def profile_outfall_runoff(
    count: int, top: int | None = 10, passes: int = 3
) -> list[tuple[str, float, int]]:
    """Where outfall's time goes on the N-subcatchment site: (function, share of the pass's
    profiled time spent in the function itself, calls), heaviest first (cProfile).

    Of `passes` profiled passes the quickest is kept: on a loaded machine a pass that lost the
    CPU for a while charges the wait to whatever function was running."""
    subs = sites.bench_subcatchments(count)
    rain = sites.storm_table()
    kept: dict = {}
    least = float("inf")
    for k in range(passes):
        profiler = cProfile.Profile()
        profiler.enable()
        _outfall_pass(subs, rain, 1.0 - (k + 1) * TC_NUDGE)
        profiler.disable()
        stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
        total = sum(row[2] for row in stats.values())
        if total < least:
            least, kept = total, stats
    rows = [
        (f"{Path(file).name}:{func}" if line else func, row[2] / least, row[1])
        for (file, line, func), row in kept.items()
    ]
    return sorted(rows, key=lambda r: -r[1])[:top]


@dataclass(frozen=True)
class UnconvertedCurveNumbers:
    """What SWMM gives with the TR-55 CNs as they are (Ia = 0), against TR-55 (Ia = 0.2 S)."""

    count: int
    tr55_af: float
    ia_zero_formula_af: float
    swmm_runoff_af: float
    swmm_final_storage_af: float


def unconverted_curve_numbers(count: int, workdir: Path) -> UnconvertedCurveNumbers:
    """The same site with each subcatchment's own CN handed to SWMM unconverted."""
    subs = sites.bench_subcatchments(count)
    p = sites.STORM_DEPTH_IN
    _, rpt, _ = run_swmm(
        sites.swmm_runoff_inp(subs, convert_cn=False), workdir, f"runoff_{count}_raw_cn"
    )
    continuity = runoff_continuity_af(rpt)
    tr55 = sum(s.area_ac * float(runoff_depth_in(p, s.cn)) for s in subs) / 12.0
    ia_zero = sum(s.area_ac * p * p / (p + 1000.0 / s.cn - 10.0) for s in subs) / 12.0
    return UnconvertedCurveNumbers(
        count, tr55, ia_zero, continuity["Surface Runoff"], continuity["Final Storage"]
    )


@dataclass(frozen=True)
class RoutingComparison:
    """Peak pond outflow and stage in each engine, and outfall's diagnostics."""

    peak_inflow_cfs: float
    swmm_peak_outflow_cfs: float
    swmm_time_of_peak_hr: float
    swmm_peak_stage_ft: float
    outfall_peak_outflow_cfs: float
    outfall_time_of_peak_hr: float
    outfall_peak_stage_ft: float
    outfall_substeps: int
    outfall_mass_balance_error: float
    outfall_fine_peak_outflow_cfs: float
    outfall_fine_peak_stage_ft: float
    rating_checks: tuple[tuple[float, float, float], ...]
    """(stage ft, SWMM outflow cfs, outfall's rating at that stage cfs) on SWMM's rising limb:
    orifice half full, orifice just full, and the peak."""
    swmm_run_s: float
    outfall_s: float

    @property
    def difference_cfs(self) -> float:
        return self.outfall_peak_outflow_cfs - self.swmm_peak_outflow_cfs

    @property
    def difference(self) -> float:
        return self.difference_cfs / self.swmm_peak_outflow_cfs


def outfall_pond(pond: sites.BenchPond) -> Pond:
    """The bench pond for outfall: average-end-area storage (as SWMM integrates a tabular
    area curve), the orifice and the weir side by side."""
    storage = StageStorage.from_stage_area(pond.stage_area, method="prismatic")
    devices = (
        outlets.CircularOrifice(
            pond.orifice_invert_ft, pond.orifice_diameter_in / 12.0, pond.orifice_coefficient
        ),
        outlets.SharpCrestedWeir(pond.weir_crest_ft, pond.weir_length_ft, pond.weir_coefficient),
    )
    return Pond(storage, outlets.OutletStructure(devices), name="bench pond")


def _swmm_pond_results(out_path: Path) -> tuple[np.ndarray, np.ndarray, float]:
    handle = output.init()
    output.open(handle, str(out_path))
    try:
        periods = output.get_times(handle, swmm_enum.Time.NUM_PERIODS)
        step_s = output.get_times(handle, swmm_enum.Time.REPORT_STEP)
        _, node_count, links, *_ = output.get_proj_size(handle)
        flow = sum(
            np.array(
                output.get_link_series(handle, i, swmm_enum.LinkAttribute.FLOW_RATE, 0, periods - 1)
            )
            for i in range(links)
        )
        nodes = [
            output.get_elem_name(handle, swmm_enum.ElementType.NODE, i) for i in range(node_count)
        ]
        depth = np.array(
            output.get_node_series(
                handle, nodes.index("POND"), swmm_enum.NodeAttribute.INVERT_DEPTH, 0, periods - 1
            )
        )
    finally:
        output.close(handle)
    return flow, depth, step_s / 3600.0


def compare_routing(workdir: Path, repeats: int) -> RoutingComparison:
    """Route the bench inflow table through the bench pond in both engines."""
    pond = sites.bench_pond()
    table = sites.inflow_table()
    swmm_times, outfall_times = [], []
    inp = sites.swmm_pond_inp(pond, table)
    for _ in range(repeats):
        elapsed, _, out = run_swmm(inp, workdir, "pond")
        swmm_times.append(elapsed)
    flow, depth, report_step_hr = _swmm_pond_results(out)
    eng_pond = outfall_pond(pond)
    routed = None
    for _ in range(repeats):
        start = time.perf_counter()
        inflow = Hydrograph.from_table(table, sites.STEP_HR)
        routed = route_through_pond(inflow, eng_pond, start_stage_ft=pond.bottom_ft)
        outfall_times.append(time.perf_counter() - start)
    assert routed is not None
    fine = route_through_pond(
        Hydrograph.from_table(table, 0.01), eng_pond, start_stage_ft=pond.bottom_ft
    )
    stage = pond.bottom_ft + depth
    peak = int(np.argmax(flow))
    checks = []
    for target in (
        pond.orifice_invert_ft + pond.orifice_diameter_in / 24.0,
        pond.orifice_invert_ft + pond.orifice_diameter_in / 12.0,
        float(stage[peak]),
    ):
        i = int(np.argmin(np.abs(stage[: peak + 1] - target)))
        rated = float(eng_pond.outlets.primary_cfs(np.array([stage[i]]))[0])
        checks.append((float(stage[i]), float(flow[i]), rated))
    return RoutingComparison(
        peak_inflow_cfs=max(q for _, q in table),
        swmm_peak_outflow_cfs=float(flow[peak]),
        swmm_time_of_peak_hr=(peak + 1) * report_step_hr,
        swmm_peak_stage_ft=float(stage.max()),
        outfall_peak_outflow_cfs=routed.peak_outflow_cfs,
        outfall_time_of_peak_hr=routed.time_of_peak_outflow_hr,
        outfall_peak_stage_ft=routed.peak_stage_ft,
        outfall_substeps=routed.substeps,
        outfall_mass_balance_error=routed.mass_balance_error,
        outfall_fine_peak_outflow_cfs=fine.peak_outflow_cfs,
        outfall_fine_peak_stage_ft=fine.peak_stage_ft,
        rating_checks=tuple(checks),
        swmm_run_s=statistics.median(swmm_times),
        outfall_s=statistics.median(outfall_times),
    )
