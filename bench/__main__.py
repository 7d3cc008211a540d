"""`python -m bench` (`make bench`): outfall against EPA SWMM 5, and `outfall check` timed.

Prints its tables to stdout and writes nothing to the repository (SWMM's files go to a
temporary directory). Run from the repository root. Never part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from bench import check_timing, sites, swmm_compare, web

SIZES = (10, 100, 1000)
TARGET_SPEED_RATIO = 10.0
TARGET_CHECK_S = 1.0
WELL_UNDER_CHECK_S = 0.5
"""What "well under one second" is taken to mean for `outfall check`."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    p.add_argument(
        "--only",
        choices=("runoff", "routing", "check", "web"),
        action="append",
        help="run only these (web is never run unless asked: it builds a PostgreSQL database)",
    )
    p.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="subcatchment counts")
    p.add_argument("--repeats", type=int, default=5, help="timing repeats per engine and size")
    p.add_argument("--check-runs", type=int, default=9, help="timed `outfall check` runs")
    p.add_argument(
        "--scale", type=float, default=0.05, help="web: data size, 1 = issue 13's statewide set"
    )
    p.add_argument("--requests", type=int, default=200, help="web: GETs per page")
    p.add_argument("--concurrency", type=int, default=4, help="web: GETs at once")
    p.add_argument(
        "--database-url",
        default=os.environ.get("OUTFALL_BENCH_DATABASE_URL", web.DEFAULT_DATABASE_URL),
        help="web: a PostgreSQL database the bench drops and makes again",
    )
    return p


def _runoff(sizes: list[int], repeats: int, workdir: Path) -> None:
    print(
        f"1. Runoff: N subcatchments x NRCS Type III 24-h {sites.STORM_DEPTH_IN} in, "
        f"{sites.STEP_HR * 60:g}-min steps, {sites.SPAN_HR:g} h simulated"
    )
    print("   volumes in acre-feet; times are medians; per-sub = per subcatchment-storm")
    header = (
        f"   {'N':>5} {'outfall':>10} {'SWMM runoff':>12} {'+final stor':>12} {'diff':>8} "
        f"{'SWMM .out':>10} | {'outfall s':>9} {'SWMM run s':>10} {'read .out':>9} "
        f"{'outfall/sub':>11} {'SWMM/sub':>9} {'ratio':>6}"
    )
    print(header)
    results = []
    for n in sizes:
        r = swmm_compare.compare_runoff(n, workdir, repeats if n < 1000 else max(3, repeats // 2))
        results.append(r)
        print(
            f"   {n:>5} {r.outfall_af:>10.3f} {r.swmm_report_runoff_af:>12.3f} "
            f"{r.swmm_final_storage_af:>12.3f} {100 * r.volume_difference:>7.2f}% "
            f"{r.swmm_output_af:>10.3f} | {r.outfall_s:>9.4f} {r.swmm_run_s:>10.4f} "
            f"{r.swmm_read_s:>9.4f} {1e6 * r.outfall_s / n:>9.1f}us "
            f"{1e6 * r.swmm_run_s / n:>7.1f}us {r.speed_ratio:>5.1f}x"
        )
    bad = [r.count for r in results if not r.within_tolerance]
    print(
        "   volumes: SWMM surface runoff + surface storage left at the end vs outfall, "
        f"tolerance {100 * swmm_compare.VOLUME_TOLERANCE:g} %: "
        + ("all within" if not bad else f"OUTSIDE for N = {bad}")
    )
    print(
        "   outfall hydrograph-integrated volume / depth x area: "
        + ", ".join(f"{r.outfall_hydrograph_af / r.outfall_af:.5f}" for r in results)
    )
    raw = swmm_compare.unconverted_curve_numbers(sizes[0], workdir)
    print(
        f"   without the CN conversion (N = {raw.count}): TR-55 {raw.tr55_af:.3f} af; "
        f"SWMM {raw.swmm_runoff_af:.3f} + {raw.swmm_final_storage_af:.3f} af "
        f"(Ia = 0 formula {raw.ia_zero_formula_af:.3f} af, "
        f"{100 * (raw.ia_zero_formula_af / raw.tr55_af - 1):+.1f} %)"
    )
    largest = results[-1]
    verdict = "met" if largest.speed_ratio >= TARGET_SPEED_RATIO else "NOT met"
    print(
        f"   target outfall >= {TARGET_SPEED_RATIO:g}x faster than SWMM at N = {largest.count}: "
        f"{verdict} ({largest.speed_ratio:.1f}x on swmm_run alone, "
        f"{(largest.swmm_run_s + largest.swmm_read_s) / largest.outfall_s:.1f}x with reading "
        "SWMM's results)"
    )
    if largest.speed_ratio < TARGET_SPEED_RATIO:
        print(f"   where outfall's time goes at N = {largest.count} (cProfile, self time):")
        for name, share, calls in swmm_compare.profile_outfall_runoff(largest.count):
            print(f"     {100 * share:5.1f} %  {calls:>6} calls  {name}")
    print()


def _routing(repeats: int, workdir: Path) -> None:
    r = swmm_compare.compare_routing(workdir, repeats)
    pond = sites.bench_pond()
    print(
        f"2. Routing: one inflow table (peak {r.peak_inflow_cfs:.2f} cfs) through one pond "
        f"({pond.orifice_diameter_in:g}-in orifice at {pond.orifice_invert_ft:g} ft, "
        f"{pond.weir_length_ft:g}-ft weir at {pond.weir_crest_ft:g} ft)"
    )
    print(f"   {'':<34} {'peak out cfs':>12} {'at h':>6} {'peak stage ft':>13} {'time s':>8}")
    print(
        f"   {'SWMM 5 (dynamic wave, 1 s)':<34} {r.swmm_peak_outflow_cfs:>12.3f} "
        f"{r.swmm_time_of_peak_hr:>6.2f} {r.swmm_peak_stage_ft:>13.3f} {r.swmm_run_s:>8.4f}"
    )
    label = f"outfall (storage indication, {sites.STEP_HR * 60:g} min)"
    print(
        f"   {label:<34} {r.outfall_peak_outflow_cfs:>12.3f} "
        f"{r.outfall_time_of_peak_hr:>6.2f} {r.outfall_peak_stage_ft:>13.3f} {r.outfall_s:>8.4f}"
    )
    print(
        f"   {'outfall at 0.6 min (diagnostic)':<34} {r.outfall_fine_peak_outflow_cfs:>12.3f} "
        f"{'':>6} {r.outfall_fine_peak_stage_ft:>13.3f}"
    )
    print(
        f"   difference outfall - SWMM: {r.difference_cfs:+.3f} cfs ({100 * r.difference:+.2f} %); "
        f"peak stage {r.outfall_peak_stage_ft - r.swmm_peak_stage_ft:+.3f} ft"
    )
    print(
        "   device equations, SWMM outflow vs outfall's rating at SWMM's stage (rising limb): "
        + "; ".join(
            f"{stage:.2f} ft {swmm:.3f} vs {rated:.3f} cfs ({100 * (rated / swmm - 1):+.1f} %)"
            for stage, swmm, rated in r.rating_checks
        )
    )
    print(
        f"   outfall substeps {r.outfall_substeps}; "
        f"mass balance error {100 * r.outfall_mass_balance_error:.1e} %"
    )
    print()


def _check(runs: int) -> None:
    t = check_timing.time_check(check_timing.LARGE_SITE, runs)
    print(f"3. outfall check {t.site} --json (subprocess, {len(t.check.runs)} runs)")
    q1, q3 = t.check.quartiles
    print(
        f"   median {t.check.median:.3f} s, min {t.check.low:.3f}, max {t.check.high:.3f}, "
        f"IQR {q1:.3f}-{q3:.3f}; bare interpreter start {t.interpreter.median:.3f} s"
    )
    if t.check.median <= WELL_UNDER_CHECK_S:
        verdict = "met"
    elif t.check.median < TARGET_CHECK_S:
        verdict = f"NOT met: under {TARGET_CHECK_S:g} s but above {WELL_UNDER_CHECK_S:g} s"
    else:
        verdict = "NOT met"
    print(
        f"   target well under {TARGET_CHECK_S:g} s (taken as <= {WELL_UNDER_CHECK_S:g} s): {verdict}"
    )
    print(
        "   one fresh process, by phase: "
        + ", ".join(f"{k} {v:.3f} s" for k, v in t.phases.items())
    )
    print("   -X importtime, self time by top-level package (s):")
    print("     " + ", ".join(f"{k} {v:.3f}" for k, v in t.imports_by_package[:8]))
    print("   -X importtime, heaviest third-party imports made by outfall modules (cumulative s):")
    for name, seconds in t.top_imports[:6]:
        print(f"     {seconds:.3f}  {name}")
    print()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    chosen = set(args.only or ("runoff", "routing", "check"))
    if chosen == {"web"}:
        web.run(args.scale, args.requests, args.concurrency, args.database_url)
        return 0
    from swmm.toolkit import solver

    print(
        f"outfall bench — Python {platform.python_version()}, SWMM {solver.swmm_version_info()} "
        f"(swmm-toolkit), {platform.machine()}, {_cpus()} CPUs"
    )
    print()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="outfall-bench-") as tmp:
        workdir = Path(tmp)
        if "runoff" in chosen:
            _runoff(sorted(args.sizes), args.repeats, workdir)
        if "routing" in chosen:
            _routing(args.repeats, workdir)
    if "check" in chosen:
        _check(args.check_runs)
    if "web" in chosen:
        web.run(args.scale, args.requests, args.concurrency, args.database_url)
    print(f"bench finished in {time.perf_counter() - start:.1f} s")
    return 0


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


if __name__ == "__main__":
    sys.exit(main())
