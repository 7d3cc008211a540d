"""How long `outfall check SITE --json` takes, process start included, and where the time goes.

Each run is a fresh subprocess of the installed `outfall` script (the one beside the running
interpreter), timed from spawn to exit. Beside it: a bare interpreter start, a phase breakdown
(imports, reading the site file, the review, the JSON) measured inside one fresh process, and
`python -X importtime` summed by top-level package.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

LARGE_SITE = Path("examples/sites/large-site-20-subcatchments.yaml")
AS_OF = "2026-06-01"

_PHASES = """
import json, sys, time
t0 = time.perf_counter()
import outfall.cli.check
from outfall.compliance.review import review_site
from outfall.compliance.sitefile import load_site
t1 = time.perf_counter()
site = load_site(sys.argv[1])
t2 = time.perf_counter()
review = review_site(site)
t3 = time.perf_counter()
text = json.dumps(review.as_dict(), default=str)
t4 = time.perf_counter()
print(json.dumps({"imports": t1 - t0, "load_site": t2 - t1, "review_site": t3 - t2,
                  "json": t4 - t3}))
"""


def outfall_script() -> Path:
    """The `outfall` console script installed beside this interpreter."""
    return Path(sys.executable).parent / "outfall"


def _timed(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()}")
    return elapsed


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
    interpreter: Spread
    phases: dict[str, float]
    imports_by_package: list[tuple[str, float]]
    top_imports: list[tuple[str, float]]


def time_check(site: Path = LARGE_SITE, runs: int = 9) -> CheckTiming:
    """Time `outfall check SITE --json` `runs` times (after one untimed warm-up run)."""
    argv = [str(outfall_script()), "check", str(site), "--json", "--as-of", AS_OF]
    _timed(argv)
    check = Spread(tuple(_timed(argv) for _ in range(runs)))
    bare = Spread(tuple(_timed([sys.executable, "-c", "pass"]) for _ in range(runs)))
    phases = json.loads(
        subprocess.run(
            [sys.executable, "-c", _PHASES, str(site)], capture_output=True, text=True, check=True
        ).stdout
    )
    by_package, top = import_breakdown(argv)
    return CheckTiming(site, check, bare, phases, by_package, top)


def import_breakdown(argv: list[str]) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """`python -X importtime` of the command: (self time summed by top-level package, and the
    heaviest imports the command's own modules make, by cumulative time), in seconds."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *argv], capture_output=True, text=True, check=True
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
