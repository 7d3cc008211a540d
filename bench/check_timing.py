"""How long `outfall check SITE --json` takes, process start included, and where the time goes.

Each run is a fresh `python -m outfall check SITE --json` (the entry point the installed
`outfall` script calls, `outfall.cli.main:console`, once `make install` has regenerated it),
timed from spawn to exit (wall) and by the CPU it used (user + system, from the
kernel's accounting of the waited-for child). Taking turns with it, in the same loop so that both
see the same machine load: `python -c "import numpy"` (the floor any numpy program pays) and a
bare interpreter start. Beside them: a phase breakdown (imports, reading the site file, the
review, the JSON) inside one fresh process, and `python -X importtime` summed by top-level
package.

Bytecode: the timed runs use compiled bytecode, as an installed program does (pip compiles it at
install; an editable install writes it on first import). It goes to a temporary directory
(PYTHONPYCACHEPREFIX), written by the untimed warm-up run, so nothing is written to the
repository, and PYTHONDONTWRITEBYTECODE is dropped from the runs' environment if the caller set
it. A few runs with no bytecode at all (every module compiled from source on each start, which is
what PYTHONDONTWRITEBYTECODE=1 without a cache gives) are timed apart as `cold`.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

LARGE_SITE = Path("examples/sites/large-site-20-subcatchments.yaml")
AS_OF = "2026-06-01"

_PHASES = """
import dataclasses, json, sys, time
clock = time.process_time
made = [0.0, 0]
process_class = dataclasses._process_class


def timed_process_class(*args, **kwargs):
    start = clock()
    try:
        return process_class(*args, **kwargs)
    finally:
        made[0] += clock() - start
        made[1] += 1


dataclasses._process_class = timed_process_class
t0 = clock()
import numpy
tn = clock()
import outfall.cli.check
from outfall.compliance.review import review_site
from outfall.compliance.sitefile import load_site
from outfall.law.parameters import town
t1 = clock()
site = load_site(sys.argv[1])
t2 = clock()
town("norfolk")
tl = clock()
review = review_site(site)
t3 = clock()
text = json.dumps(review.as_dict(), default=str, indent=2)
t4 = clock()
print(json.dumps({"numpy": tn - t0, "outfall imports": t1 - tn,
                  "of which dataclass creation": made[0], "dataclasses": made[1],
                  "load_site": t2 - t1, "law parameters": tl - t2, "review_site": t3 - tl,
                  "json": t4 - t3}))
"""
"""CPU seconds of each phase inside one fresh process (numpy's import apart from outfall's, the
time `dataclasses` spends building outfall's classes counted within the imports, the town's
parameter tree apart from the review that first asks for it)."""


def compiled_env(pycache: Path) -> dict[str, str]:
    """The caller's environment with bytecode kept in `pycache` (and not refused)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def cold_env(empty: Path) -> dict[str, str]:
    """No bytecode read or written (an empty cache, PYTHONDONTWRITEBYTECODE=1): every module is
    compiled from source at each start."""
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONPYCACHEPREFIX"] = str(empty)
    return env


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one subprocess run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False, env=env)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


@dataclass(frozen=True)
class Spread:
    """Wall-clock seconds of repeated runs."""

    runs: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def low(self) -> float:
        return min(self.runs)

    @property
    def high(self) -> float:
        return max(self.runs)

    @property
    def quartiles(self) -> tuple[float, float]:
        q = statistics.quantiles(self.runs, n=4)
        return q[0], q[2]


@dataclass(frozen=True)
class CheckTiming:
    site: Path
    check: Spread
    check_cpu: Spread
    numpy_import: Spread
    numpy_import_cpu: Spread
    numpy_one_thread: Spread
    numpy_one_thread_cpu: Spread
    interpreter: Spread
    cold_check: Spread
    phases: dict[str, float]
    imports_by_package: list[tuple[str, float]]
    top_imports: list[tuple[str, float]]

    @property
    def over_numpy_s(self) -> float:
        """Median of the check's wall time less numpy's import process, run by run."""
        return statistics.median(
            c - n for c, n in zip(self.check.runs, self.numpy_import.runs, strict=True)
        )

    @property
    def over_numpy_one_thread_s(self) -> float:
        """The same against numpy's import with OpenBLAS on one thread."""
        return statistics.median(
            c - n for c, n in zip(self.check.runs, self.numpy_one_thread.runs, strict=True)
        )


def time_check(site: Path = LARGE_SITE, runs: int = 9, cold_runs: int = 3) -> CheckTiming:
    """Time `outfall check SITE --json` `runs` times (after one untimed warm-up run), taking
    turns with `python -c "import numpy"`, the same with OpenBLAS held to one thread (as the
    `outfall` script holds it) and a bare interpreter start."""
    command = ["-m", "outfall", "check", str(site), "--json", "--as-of", AS_OF]
    argv = [sys.executable, *command]
    numpy_argv = [sys.executable, "-c", "import numpy"]
    bare_argv = [sys.executable, "-c", "pass"]
    with tempfile.TemporaryDirectory(prefix="outfall-pyc-") as pycache:
        env = compiled_env(Path(pycache))
        _timed(argv, env)
        _timed(numpy_argv, env)
        one_thread = {**env, "OPENBLAS_NUM_THREADS": "1"}
        check, numpy_import, numpy_one, bare = [], [], [], []
        for _ in range(runs):
            check.append(_timed(argv, env))
            numpy_import.append(_timed(numpy_argv, env))
            numpy_one.append(_timed(numpy_argv, one_thread))
            bare.append(_timed(bare_argv, env))
        phases = json.loads(
            subprocess.run(
                [sys.executable, "-c", _PHASES, str(site)],
                capture_output=True,
                text=True,
                check=True,
                env=env,
            ).stdout
        )
        by_package, top = import_breakdown(command, env)
    with tempfile.TemporaryDirectory(prefix="outfall-nopyc-") as empty:
        cold = cold_env(Path(empty))
        cold_check = [_timed(argv, cold)[0] for _ in range(cold_runs)]
    return CheckTiming(
        site=site,
        check=Spread(tuple(w for w, _ in check)),
        check_cpu=Spread(tuple(c for _, c in check)),
        numpy_import=Spread(tuple(w for w, _ in numpy_import)),
        numpy_import_cpu=Spread(tuple(c for _, c in numpy_import)),
        numpy_one_thread=Spread(tuple(w for w, _ in numpy_one)),
        numpy_one_thread_cpu=Spread(tuple(c for _, c in numpy_one)),
        interpreter=Spread(tuple(w for w, _ in bare)),
        cold_check=Spread(tuple(cold_check)),
        phases=phases,
        imports_by_package=by_package,
        top_imports=top,
    )


def import_breakdown(
    command: list[str], env: dict[str, str]
) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """`python -X importtime <command>`: (self time summed by top-level package, and the
    heaviest imports the command's own modules make, by cumulative time), in seconds."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *command],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    by_package: dict[str, float] = defaultdict(float)
    direct: dict[str, float] = {}
    stack: list[str] = []
    # importtime prints a module after everything it imports; read backwards, a module's parent
    # is the last line seen one level up.
    for line in reversed(done.stderr.splitlines()):
        if not line.startswith("import time:") or "[us]" in line:
            continue
        self_us, cumulative_us, raw = line[len("import time:") :].split("|", 2)
        name = raw.strip()
        depth = (len(raw) - len(raw.lstrip()) - 1) // 2
        by_package[name.split(".")[0]] += int(self_us) / 1e6
        del stack[depth:]
        stack.extend([""] * (depth - len(stack)))
        stack.append(name)
        parent = stack[depth - 1] if depth > 0 else ""
        if parent.startswith("outfall") and not name.startswith("outfall"):
            direct[f"{name} (from {parent})"] = int(cumulative_us) / 1e6
    return (
        sorted(by_package.items(), key=lambda kv: -kv[1]),
        sorted(direct.items(), key=lambda kv: -kv[1]),
    )
