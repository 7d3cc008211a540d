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
TARGET_SPEED_RATIO = 30.0
"""outfall ahead of SWMM per subcatchment-storm at N = 1,000 (issue 13)."""
TARGET_CHECK_S = 0.3
"""`outfall check` of the 20-subcatchment site, process start included, under this ..."""
TARGET_OVER_NUMPY_S = 0.1
"""... or within this of `python -c "import numpy"` on the same machine in the same run."""
TARGET_PEAK_DIFFERENCE = 0.01
"""Pond routing: outfall's peak outflow within 1 % of SWMM's on the same inflow and pond ..."""
TARGET_STAGE_DIFFERENCE_FT = 0.03
"""... and its peak stage within a few hundredths of a foot."""


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
    print(
        "   peaks, for information only (not a test): SWMM's nonlinear-reservoir runoff and the "
        "NRCS unit hydrograph shape a storm differently by design; SWMM peak / outfall peak per "
        "subcatchment: "
        + "; ".join(
            f"N = {r.count} median {r.peak_ratio_median:.2f} "
            f"({r.peak_ratio_low:.2f}-{r.peak_ratio_high:.2f})"
            for r in results
        )
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
    floor = swmm_compare.convolution_floor_s(largest.count)
    print(
        f"   the convolutions alone (np.convolve, direct method, the quickest of 5): "
        f"{1e6 * floor / largest.count:.1f} us per subcatchment-storm, "
        f"{100 * floor / largest.outfall_s:.0f} % of outfall's time; with everything else free "
        f"outfall would be at most {largest.swmm_run_s / floor:.0f}x SWMM"
    )
    fft = swmm_compare.fft_convolution_s(largest.count)
    print(
        f"   the same convolutions by FFT, 32 rows of one computation step at a time: "
        f"{1e6 * fft / largest.count:.1f} us per subcatchment-storm ({fft / floor:.2f}x the "
        "direct method's time)"
    )
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
    stage_difference = r.outfall_peak_stage_ft - r.swmm_peak_stage_ft
    print(
        f"   difference outfall - SWMM: {r.difference_cfs:+.3f} cfs ({100 * r.difference:+.2f} %); "
        f"peak stage {stage_difference:+.3f} ft"
    )
    met = (
        abs(r.difference) <= TARGET_PEAK_DIFFERENCE
        and abs(stage_difference) <= TARGET_STAGE_DIFFERENCE_FT
    )
    print(
        f"   target peak outflow within {100 * TARGET_PEAK_DIFFERENCE:g} % and peak stage within "
        f"{TARGET_STAGE_DIFFERENCE_FT:g} ft of SWMM's: {'met' if met else 'NOT met'}"
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
    print(
        f"3. outfall check {t.site} --json (subprocess, {len(t.check.runs)} runs, bytecode "
        "compiled once, taking turns with `python -c 'import numpy'` and `python -c pass`)"
    )
    for label, wall, cpu in (
        ("outfall check", t.check, t.check_cpu),
        ("python -c 'import numpy'", t.numpy_import, t.numpy_import_cpu),
        ("the same, 1 BLAS thread", t.numpy_one_thread, t.numpy_one_thread_cpu),
    ):
        q1, q3 = wall.quartiles
        print(
            f"   {label:<25} wall median {wall.median:.3f} s (min {wall.low:.3f}, max "
            f"{wall.high:.3f}, IQR {q1:.3f}-{q3:.3f}); CPU median {cpu.median:.3f} s"
        )
    print(
        f"   bare interpreter start {t.interpreter.median:.3f} s; check over numpy's import, run "
        f"by run: median {t.over_numpy_s:+.3f} s wall, "
        f"{t.check_cpu.median - t.numpy_import_cpu.median:+.3f} s CPU; over numpy's import on "
        f"one OpenBLAS thread (as outfall runs it): {t.over_numpy_one_thread_s:+.3f} s wall, "
        f"{t.check_cpu.median - t.numpy_one_thread_cpu.median:+.3f} s CPU"
    )
    print(
        f"   without bytecode (every module compiled from source at each start, as with "
        f"PYTHONDONTWRITEBYTECODE=1 and no cache): median {t.cold_check.median:.3f} s "
        f"({len(t.cold_check.runs)} runs)"
    )
    under = t.check.median < TARGET_CHECK_S
    near = t.over_numpy_s <= TARGET_OVER_NUMPY_S
    verdict = "met" if under or near else "NOT met"
    print(
        f"   target under {TARGET_CHECK_S:g} s, or within {TARGET_OVER_NUMPY_S:g} s of numpy's "
        f"import: {verdict} (under: {'yes' if under else 'no'}; within: {'yes' if near else 'no'})"
    )
    phases = dict(t.phases)
    classes = int(phases.pop("dataclasses"))
    print(
        "   one fresh process, CPU by phase: "
        + ", ".join(f"{k} {v:.3f} s" for k, v in phases.items())
        + f" ({classes} dataclasses)"
    )
    print("   -X importtime, self time by top-level package (s):")
    print("     " + ", ".join(f"{k} {v:.3f}" for k, v in t.imports_by_package[:8]))
    print("   -X importtime, heaviest third-party imports made by outfall modules (cumulative s):")
    for name, seconds in t.top_imports[:6]:
        print(f"     {seconds:.3f}  {name}")
    print()


def _load_average() -> str:
    try:
        return Path("/proc/loadavg").read_text(encoding="ascii").strip()
    except OSError:
        return "unknown"


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
    print(f"load average at the start (/proc/loadavg): {_load_average()}")
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
    print(f"load average at the end (/proc/loadavg): {_load_average()}")
    print(f"bench finished in {time.perf_counter() - start:.1f} s")
    return 0


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


if __name__ == "__main__":
    sys.exit(main())
