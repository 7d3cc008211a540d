"""The site file: one YAML or JSON description of a site that the CLI, the web app and checks share.

Parsing turns it into plain dataclasses and validates everything that can be checked without
running the engine: required fields, types, signs, ranges, names that `to` points at, and cycles
in the drainage network. Every problem is a `SiteFileError` naming the item and the field, and the
validation goes on past a mistake: a bad file is refused with all of them at once
(`SiteFileProblems`), so an engineer fixes the file in one pass. A file the bounded parse refuses
(too long, too deep, too many values, anchors or aliases, not YAML or JSON) stops at once.
The format is documented in docs/site-file.md.
"""

from __future__ import annotations

import contextvars
import dataclasses
import datetime as dt
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from outfall.kernel.errors import InputError

_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML was built with it, else PyYAML's own safe loader."""


MAX_SITE_FILE_CHARS = 2_000_000
"""A site file of twenty subcatchments is about 10 kB; two million characters is far beyond any
real site and bounds the parse."""
MAX_DEPTH = 32
MAX_NODES = 200_000


class SiteFileTooComplex(yaml.YAMLError):
    """A site file refused before it is built: an alias, or past the size, depth or node bounds."""

    def __init__(self, problem: str, mark=None):
        super().__init__(problem)
        self.problem = problem
        self.problem_mark = mark


def _check_shape(text: str, loader) -> None:
    """Walk the YAML events (nothing is built, so nothing expands) and refuse anchors and aliases
    (a "billion laughs" file expands a few lines into billions of nodes), nesting deeper than
    MAX_DEPTH and more than MAX_NODES nodes."""
    depth = nodes = 0
    mappings: list[list | None] = []  # per open collection: [keys seen, expecting a key] or None

    def node_done() -> None:
        if mappings and mappings[-1] is not None:
            mappings[-1][1] = not mappings[-1][1]

    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.ScalarEvent):
            top = mappings[-1] if mappings else None
            if top is not None and top[1]:
                if event.value in top[0]:
                    raise SiteFileTooComplex(
                        f"the key {event.value!r} appears twice in one mapping", event.start_mark
                    )
                top[0].add(event.value)
            node_done()
        elif isinstance(event, yaml.MappingStartEvent):
            mappings.append([set(), True])
        elif isinstance(event, yaml.SequenceStartEvent):
            mappings.append(None)
        elif isinstance(event, yaml.CollectionEndEvent):
            mappings.pop()
            node_done()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise SiteFileTooComplex(
                "anchors and aliases (& and *) are not allowed in a site file; write each value "
                "out",
                event.start_mark,
            )
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise SiteFileTooComplex(f"nested deeper than {MAX_DEPTH} levels", event.start_mark)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        if isinstance(event, yaml.NodeEvent):
            nodes += 1
            if nodes > MAX_NODES:
                raise SiteFileTooComplex(f"more than {MAX_NODES} values", event.start_mark)


def _load_yaml(text: str) -> Any:
    """Parse YAML text with the safe loader, after `_check_shape` has bounded it: libyaml's (ten
    times faster) when present; a file it refuses is read again by PyYAML's own, whose error
    names the offending character."""
    try:
        _check_shape(text, _YAML_LOADER)
        return yaml.load(text, Loader=_YAML_LOADER)
    except SiteFileTooComplex:
        raise
    except yaml.YAMLError:
        _check_shape(text, yaml.SafeLoader)
        return yaml.load(text, Loader=yaml.SafeLoader)


CONDITIONS = ("pre", "post")
DISTRIBUTIONS = ("type_iii_24hr", "type_ii_24hr")
RUNOFF_METHODS = ("weighted_cn", "weighted_runoff")
HSGS = ("A", "B", "C", "D")
STORAGE_METHODS = ("prismatic", "conic")
REACH_METHODS = ("translation", "muskingum_cunge")
NAMED_STORM_HOURS = 24.0
"""Duration of the NRCS Type II and III 24-hour storms (TR-55 Appendix B)."""
TC_SEGMENT_FIELDS = {
    "sheet": ("length_ft", "slope_ft_ft", "n"),
    "shallow": ("length_ft", "slope_ft_ft"),
    "channel": ("length_ft", "slope_ft_ft", "n", "area_sf", "wetted_perimeter_ft"),
}
"""Each TR-55 travel-time segment type and the positive numbers it needs (TR-55 Chapter 3)."""
DEVICE_ELEVATIONS = {
    "orifice": ("invert_ft",),
    "rectangular_orifice": ("invert_ft",),
    "weir": ("crest_ft",),
    "v_notch": ("invert_ft",),
    "culvert": ("inlet_invert_ft", "outlet_invert_ft"),
    "table": (),
    "exfiltration": (),
}
DEVICE_DIMENSIONS = {
    "orifice": ("diameter_in",),
    "rectangular_orifice": ("width_ft", "height_ft"),
    "weir": ("length_ft",),
    "v_notch": (),
    "culvert": ("diameter_in", "length_ft"),
    "table": (),
    "exfiltration": (),
}
"""Each outlet device type: the elevations (any number) and dimensions (positive) it needs."""
DEVICE_OPTIONAL_POSITIVE = ("coefficient", "angle_deg", "n")


class SiteFileError(InputError):
    """A mistake in a site file, located by its path (e.g. conditions.post.ponds[0].outlets[1])."""

    def __init__(self, path: str, value: object, why: str):
        super().__init__(path, value, why)

    @property
    def problems(self) -> tuple[SiteFileError, ...]:
        """Every mistake this refusal stands for (itself alone, unless several were found)."""
        return (self,)


class SiteFileProblems(SiteFileError):
    """Every mistake the validation found in one site file, in the order of the file's checks;
    the first stands as the refusal's own field, value and why. Its text is one line for one
    mistake and one line each, after a count, for several."""

    def __init__(self, problems: list[SiteFileError]):
        self._problems = tuple(problems)
        first = self._problems[0]
        super().__init__(first.field, first.value, first.why)
        if len(self._problems) > 1:
            lines = "\n".join(f"  - {ValueError.__str__(p)}" for p in self._problems)
            self.args = (f"{len(self._problems)} mistakes in the site file:\n{lines}",)

    @property
    def problems(self) -> tuple[SiteFileError, ...]:
        return self._problems


class _Reported(Exception):
    """A part of the file that cannot be built because a mistake in it is already recorded."""


_BAD = object()
"""What `_each` returns for a part that failed (its mistake recorded)."""
_FOUND: contextvars.ContextVar[list[SiteFileError] | None] = contextvars.ContextVar(
    "site_file_problems", default=None
)


def _each(fn, *args, **kwargs):
    """fn's answer; or, inside a validation that collects, `_BAD` once the mistake is recorded,
    so the checks go on with the next part. A mapping whose validation stopped short is marked
    unfinished: its keys are not called unknown for having gone unread."""
    found = _FOUND.get()
    if found is None:
        return fn(*args, **kwargs)
    try:
        return fn(*args, **kwargs)
    except _Reported:
        return _BAD
    except SiteFileError as exc:
        found.extend(exc.problems)
        if fn not in _FIELD_READERS:  # a reader of one key leaves the rest of its mapping read
            for arg in args:
                _mark_unfinished(arg)
        return _BAD


def _note(exc: SiteFileError) -> None:
    """Record a mistake and go on (raise it where nothing collects)."""
    found = _FOUND.get()
    if found is None:
        raise exc
    found.append(exc)


def _sound(*values: Any) -> None:
    """Go on only if no part failed: a part built from a failed one would report it again."""
    if any(v is _BAD for v in values):
        raise _Reported


def _collecting(fn, *args):
    """Run one validation that collects every mistake; refuse with all of them at the end."""
    found: list[SiteFileError] = []
    token = _FOUND.set(found)
    try:
        result = _each(fn, *args)
    finally:
        _FOUND.reset(token)
    if found:
        raise SiteFileProblems(found)
    return result


@dataclass(frozen=True)
class AreaPart:
    area_ac: float
    cn: float | None = None
    cover: str | None = None
    hsg: str | None = None
    impervious: bool = False


@dataclass(frozen=True)
class TcSegment:
    kind: str
    params: dict[str, Any]


@dataclass(frozen=True)
class Subcatchment:
    name: str
    to: str
    areas: tuple[AreaPart, ...]
    tc_min: float | None
    tc_segments: tuple[TcSegment, ...]
    runoff_method: str
    path: str

    @property
    def area_ac(self) -> float:
        return sum(a.area_ac for a in self.areas)


@dataclass(frozen=True)
class Pond:
    name: str
    to: str
    storage_kind: str
    storage_table: tuple[tuple[float, float], ...]
    storage_method: str
    start_elev_ft: float | None
    outlets: tuple[dict[str, Any], ...]
    path: str


@dataclass(frozen=True)
class Reach:
    name: str
    to: str
    method: str
    params: dict[str, Any]
    path: str


@dataclass(frozen=True)
class Inflow:
    name: str
    to: str
    hydrograph: tuple[tuple[float, float], ...]
    path: str


@dataclass(frozen=True)
class Condition:
    name: str
    subcatchments: tuple[Subcatchment, ...]
    ponds: tuple[Pond, ...]
    reaches: tuple[Reach, ...]
    inflows: tuple[Inflow, ...]
    design_points: tuple[str, ...]

    def node_names(self) -> set[str]:
        return {n.name for n in (*self.subcatchments, *self.ponds, *self.reaches, *self.inflows)}

    def topological_order(self) -> list[str]:
        """Node names ordered so every node comes after everything that drains to it."""
        downstream = {
            n.name: n.to for n in (*self.subcatchments, *self.ponds, *self.reaches, *self.inflows)
        }
        indegree = dict.fromkeys(downstream, 0)
        for target in downstream.values():
            if target in indegree:
                indegree[target] += 1
        ready = sorted(name for name, deg in indegree.items() if deg == 0)
        order: list[str] = []
        while ready:
            name = ready.pop(0)
            order.append(name)
            target = downstream[name]
            if target in indegree:
                indegree[target] -= 1
                if indegree[target] == 0:
                    ready.append(target)
        return order


@dataclass(frozen=True)
class Rainfall:
    distribution: str | None
    table: tuple[tuple[float, float], ...] | None
    storms: dict[int, float]
    dt_hr: float
    span_hr: float


@dataclass(frozen=True)
class BmpTreats:
    impervious_ac: float
    land_use: str


@dataclass(frozen=True)
class Bmp:
    name: str
    type: str
    storage_cf: float | None
    infiltration_rate_in_hr: float | None
    treats: tuple[BmpTreats, ...]
    drains_to: str | None
    pretreatment: tuple[str, ...]
    infiltrates: bool
    path: str


@dataclass(frozen=True)
class RechargeSpec:
    impervious_by_hsg: dict[str, float]
    infiltrating: tuple[str, ...]
    impervious_draining_to_recharge_ac: float | None
    soil_texture: str | None
    infiltration_rate_in_hr: float | None


@dataclass(frozen=True)
class Project:
    disturbance_acres: float | None
    common_plan_acres: float | None = None
    previously_developed: bool = False
    roadway_maintenance_only: bool = False
    widening_lanes: float = 0.0
    critical_area: bool = False
    luhppl: bool = False
    discharges_to_wetlands: bool = False
    discharges_treated: bool | None = None
    om_plan_provided: bool | None = None
    lid_infeasible_reason: str | None = None


@dataclass(frozen=True)
class SiteFile:
    name: str
    town: str | None
    as_of: dt.date | None
    project: Project
    rainfall: Rainfall
    conditions: dict[str, Condition]
    bmps: tuple[Bmp, ...]
    recharge: RechargeSpec | None
    raw: dict[str, Any] = field(repr=False, default_factory=dict)


def load_site(path: str | Path) -> SiteFile:
    """Read a YAML or JSON site file from disk and validate it."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SiteFileError("site", str(path), f"cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise SiteFileError("site", str(path), "cannot be read: it is not UTF-8 text") from None
    return parse_site(text, source=p.name)


def parse_site(text: str, source: str = "site") -> SiteFile:
    """Parse site-file text (YAML, of which JSON is a subset) and validate it; a file past the
    size, depth or node bounds, or with YAML anchors or aliases, is refused before it is built."""
    if len(text) > MAX_SITE_FILE_CHARS:
        raise SiteFileError(
            source, f"{len(text)} characters", f"longer than {MAX_SITE_FILE_CHARS} characters"
        )
    try:
        data = (
            json.loads(text, object_pairs_hook=_no_duplicate_keys)
            if source.endswith(".json")
            else _load_yaml(text)
        )
    except RecursionError:
        raise SiteFileError(source, "(file)", f"nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as exc:
        raise SiteFileError(
            source, "(file)", f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except yaml.YAMLError as exc:
        raise SiteFileError(source, "(file)", f"not valid YAML: {_yaml_problem(exc)}") from None
    if not isinstance(data, dict):
        raise SiteFileError(source, type(data).__name__, "the site file must be a mapping")
    tracked = _Tracked.wrap(data, "")

    def validate() -> SiteFile:
        site = _each(_site, tracked)
        _refuse_unknown_keys(tracked)
        _sound(site)
        return site

    return dataclasses.replace(_collecting(validate), raw=data)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict:
    keys = [k for k, _ in pairs]
    twice = next((k for k in keys if keys.count(k) > 1), None)
    if twice is not None:
        raise json.JSONDecodeError(f"the key {twice!r} appears twice in one object", "", 0)
    return dict(pairs)


class _Tracked(dict):
    """A mapping of the site file that remembers which keys the validation asked for, so a key
    it never asked for — a misspelt `area_acres` — is refused instead of silently ignored."""

    def __init__(self, data: dict, path: str):
        super().__init__(data)
        self.path = path
        self.asked: set = set()
        self.unfinished = False

    @classmethod
    def wrap(cls, value: Any, path: str) -> Any:
        if isinstance(value, dict):
            return cls(
                {k: cls.wrap(v, f"{path}.{k}" if path else str(k)) for k, v in value.items()},
                path,
            )
        if isinstance(value, list):
            return [cls.wrap(v, f"{path}[{i}]") for i, v in enumerate(value)]
        return value

    def get(self, key, default=None):
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self.asked.add(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self.asked.add(key)
        return super().__contains__(key)

    def _all_asked(self) -> None:
        self.asked.update(dict.keys(self))

    def __iter__(self):
        self._all_asked()
        return super().__iter__()

    def keys(self):
        self._all_asked()
        return super().keys()

    def items(self):
        self._all_asked()
        return super().items()

    def values(self):
        self._all_asked()
        return super().values()


def _mark_unfinished(value: Any) -> None:
    """A mapping (and all inside it) whose validation stopped at a mistake."""
    if isinstance(value, _Tracked):
        value.unfinished = True
        children = dict.values(value)
    elif isinstance(value, list):
        children = value
    else:
        return
    for child in children:
        _mark_unfinished(child)


def _refuse_unknown_keys(value: Any) -> None:
    """Every key the validation never asked for, named with its path and the nearest key it
    did ask for (not in a mapping whose validation stopped at a mistake before reading it)."""
    if isinstance(value, _Tracked):
        for key in dict.keys(value):
            if key not in value.asked and not value.unfinished:
                path = f"{value.path}.{key}" if value.path else str(key)
                import difflib  # only a file with an unknown key needs it

                near = difflib.get_close_matches(str(key), [str(k) for k in value.asked], n=1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                _note(
                    SiteFileError(path, dict.__getitem__(value, key), f"is not a field here{hint}")
                )
        for child in dict.values(value):
            _refuse_unknown_keys(child)
    elif isinstance(value, list):
        for child in value:
            _refuse_unknown_keys(child)


def _yaml_problem(exc: yaml.YAMLError) -> str:
    """PyYAML's complaint on one line: what is wrong and where (its own text spans lines)."""
    problem = getattr(exc, "problem", None) or getattr(exc, "context", None) or "unreadable"
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    return " ".join(f"{problem}{where}".split())


def site_from_dict(data: dict[str, Any]) -> SiteFile:
    """Validate a site description already loaded into Python objects (every mistake at once)."""
    return _collecting(_site, data)


def _site(data: dict[str, Any]) -> SiteFile:
    """The whole file: each part checked on its own, so one mistake does not hide the next."""
    non_finite = _non_finite(data, "")
    if non_finite:
        raise SiteFileProblems(non_finite)
    name = _each(_str, data, "name", "name", required=True)
    town = _each(_str, data, "town", "town")
    as_of = _each(_date, data.get("as_of"), "as_of")
    project_raw = _each(_map, data, "project", "project", required=True)
    project = _BAD if project_raw is _BAD else _each(_project, project_raw)
    rainfall_raw = _each(_map, data, "rainfall", "rainfall", required=False)
    rainfall = _BAD if rainfall_raw is _BAD else _each(_rainfall, rainfall_raw)
    conds_raw = _each(_map, data, "conditions", "conditions", required=True)
    conditions = _BAD if conds_raw is _BAD else _each(_conditions, conds_raw)
    bmps_raw = _each(_list, data, "bmps", "bmps")
    bmps = () if bmps_raw is _BAD else tuple(_each(_bmp, i, b) for i, b in enumerate(bmps_raw))
    if bmps_raw is not _BAD and _BAD not in bmps:
        _each(_check_bmp_train, bmps)
    recharge = _each(_recharge, data.get("recharge"))
    _sound(name, town, as_of, project, rainfall, conditions, bmps_raw, *bmps, recharge)
    return SiteFile(name, town, as_of, project, rainfall, conditions, bmps, recharge, data)


def _conditions(conds_raw: dict[str, Any]) -> dict[str, Condition]:
    """Pre and post, each checked on its own; their design points compared when both stand."""
    conditions: dict[str, Any] = {}
    for cname in CONDITIONS:
        if cname not in conds_raw:
            _note(SiteFileError(f"conditions.{cname}", None, "is required"))
            conditions[cname] = _BAD
        else:
            conditions[cname] = _each(_condition, cname, conds_raw[cname])
    extra = set(conds_raw) - set(CONDITIONS)
    if extra:
        _note(SiteFileError("conditions", sorted(extra), "only 'pre' and 'post' are allowed"))
    _sound(*conditions.values())
    pre_points = set(conditions["pre"].design_points)
    post_points = set(conditions["post"].design_points)
    if pre_points != post_points:
        raise SiteFileError(
            "conditions.post.design_points",
            sorted(post_points),
            f"must name the same design points as pre ({sorted(pre_points)})",
        )
    if extra:
        raise _Reported
    return conditions


def _non_finite(value: Any, path: str) -> list[SiteFileError]:
    """NaN or infinity anywhere in the file is a mistake (and would leak into the JSON report);
    every one is named, before anything else is checked."""
    if isinstance(value, float) and not math.isfinite(value):
        return [_fail(path or "site", value, "must be a finite number")]
    found: list[SiteFileError] = []
    if isinstance(value, dict):
        for key, item in dict.items(value):  # a look at every value, not a use of its key
            found += _non_finite(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _non_finite(item, f"{path}[{i}]")
    return found


def _fail(path: str, value: object, why: str) -> SiteFileError:
    return SiteFileError(path, value, why)


def _map(data: dict, key: str, path: str, required: bool = False) -> dict:
    value = data.get(key)
    if value is None:
        if required:
            raise _fail(path, None, "is required")
        return {}
    if not isinstance(value, dict):
        raise _fail(path, value, "must be a mapping")
    return value


def _list(data: dict, key: str, path: str) -> list:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise _fail(path, value, "must be a list")
    return value


def _str(data: dict, key: str, path: str, required: bool = False) -> str | None:
    value = data.get(key)
    if value is None:
        if required:
            raise _fail(path, None, "is required")
        return None
    if not isinstance(value, str) or not value.strip():
        raise _fail(path, value, "must be a non-empty text")
    return value.strip()


def _num(
    value: Any,
    path: str,
    *,
    required: bool = True,
    positive: bool = False,
    minimum: float | None = None,
    maximum: float | None = None,
) -> float | None:
    if value is None:
        if required:
            raise _fail(path, None, "is required")
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _fail(path, value, "must be a number")
    number = float(value)
    if not math.isfinite(number):
        raise _fail(path, value, "must be a finite number")
    if positive and number <= 0:
        raise _fail(path, value, "must be greater than zero")
    if minimum is not None and number < minimum:
        raise _fail(path, value, f"must be at least {minimum:g}")
    if maximum is not None and number > maximum:
        raise _fail(path, value, f"must be at most {maximum:g}")
    return number


def _bool(value: Any, path: str, default: bool | None = False) -> bool | None:
    if value is None:
        return default
    if not isinstance(value, bool):
        raise _fail(path, value, "must be true or false")
    return value


def _date(value: Any, path: str) -> dt.date | None:
    if value is None:
        return None
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise _fail(path, value, "must be a date (YYYY-MM-DD)")


_FIELD_READERS = frozenset({_map, _list, _str, _num, _bool, _date})


def _pairs(
    value: Any, path: str, *, increasing_first: bool = True
) -> tuple[tuple[float, float], ...]:
    if not isinstance(value, list) or len(value) < 2:
        raise _fail(path, value, "must be a list of at least two [x, y] pairs")
    out: list[tuple[float, float]] = []
    for i, row in enumerate(value):
        if not isinstance(row, list | tuple) or len(row) != 2:
            raise _fail(f"{path}[{i}]", row, "must be a pair [x, y]")
        x = _num(row[0], f"{path}[{i}][0]")
        y = _num(row[1], f"{path}[{i}][1]", minimum=0.0)
        out.append((x, y))
    if increasing_first:
        for i in range(1, len(out)):
            if out[i][0] <= out[i - 1][0]:
                raise _fail(f"{path}[{i}][0]", out[i][0], "must be greater than the row before")
    return tuple(out)


def _project(raw: dict) -> Project:
    p = "project"
    flags = (
        "previously_developed",
        "roadway_maintenance_only",
        "critical_area",
        "luhppl",
        "discharges_to_wetlands",
    )
    facts = {
        "disturbance_acres": _each(
            _num,
            raw.get("disturbance_acres"),
            f"{p}.disturbance_acres",
            required=False,
            minimum=0.0,
        ),
        "common_plan_acres": _each(
            _num,
            raw.get("common_plan_acres"),
            f"{p}.common_plan_acres",
            required=False,
            minimum=0.0,
        ),
        **{key: _each(_bool, raw.get(key), f"{p}.{key}") for key in flags},
        "widening_lanes": _each(
            _num, raw.get("widening_lanes", 0), f"{p}.widening_lanes", minimum=0.0
        ),
        "discharges_treated": _each(
            _bool, raw.get("discharges_treated"), f"{p}.discharges_treated", None
        ),
        "om_plan_provided": _each(
            _bool, raw.get("om_plan_provided"), f"{p}.om_plan_provided", None
        ),
        "lid_infeasible_reason": _each(
            _str, raw, "lid_infeasible_reason", f"{p}.lid_infeasible_reason"
        ),
    }
    _sound(*facts.values())
    for key in flags:
        facts[key] = bool(facts[key])
    return Project(**facts)


def _rainfall(raw: dict) -> Rainfall:
    p = "rainfall"
    dist = raw.get("distribution", "type_iii_24hr")
    table = None
    if isinstance(dist, list):
        table = _each(_pairs, dist, f"{p}.distribution")
        dist = None
    elif dist not in DISTRIBUTIONS:
        _note(
            _fail(
                f"{p}.distribution", dist, f"must be one of {', '.join(DISTRIBUTIONS)} or a table"
            )
        )
        dist = _BAD
    storms = _each(_storms, raw.get("storms") or {})
    dt_hr = _each(_num, raw.get("dt_hr", 0.05), f"{p}.dt_hr", minimum=0.01, maximum=0.1)
    span_hr = _each(_num, raw.get("span_hr", 36.0), f"{p}.span_hr", minimum=1.0, maximum=240.0)
    _sound(dist, table, storms, dt_hr, span_hr)
    storm_hours = table[-1][0] if table is not None else NAMED_STORM_HOURS
    if span_hr < storm_hours:
        raise _fail(
            f"{p}.span_hr",
            span_hr,
            f"must cover the whole {storm_hours:g}-hour storm, or rain and runoff go uncounted",
        )
    return Rainfall(dist, table, storms, dt_hr, span_hr)


def _storms(storms_raw: Any) -> dict[int, float]:
    """Return periods (whole years) to depths (inches), each checked."""
    p = "rainfall"
    if not isinstance(storms_raw, dict):
        raise _fail(f"{p}.storms", storms_raw, "must map return period (years) to depth (in)")
    storms: dict[int, Any] = {}
    for key, depth in storms_raw.items():
        try:
            years = int(key)
        except (TypeError, ValueError):
            _note(_fail(f"{p}.storms", key, "return periods must be whole years"))
            storms[len(storms) - 1_000_000] = _BAD
            continue
        if years <= 0:
            _note(_fail(f"{p}.storms", key, "return periods must be positive"))
            storms[years] = _BAD
            continue
        storms[years] = _each(_num, depth, f"{p}.storms.{key}", positive=True, maximum=30.0)
    _sound(*storms.values())
    return storms


def _condition(cname: str, raw: Any) -> Condition:
    base = f"conditions.{cname}"
    if not isinstance(raw, dict):
        raise _fail(base, raw, "must be a mapping")

    def items(key: str, build) -> tuple:
        listed = _each(_list, raw, key, f"{base}.{key}")
        if listed is _BAD:
            return (_BAD,)
        return tuple(_each(build, f"{base}.{key}[{i}]", x) for i, x in enumerate(listed))

    subs = items("subcatchments", _subcatchment)
    if not subs and not raw.get("inflows"):
        _note(_fail(f"{base}.subcatchments", [], "needs at least one subcatchment or inflow"))
        subs = (_BAD,)
    ponds = items("ponds", _pond)
    reaches = items("reaches", _reach)
    inflows = items("inflows", _inflow)
    points_raw = _each(_list, raw, "design_points", f"{base}.design_points")
    points: list[Any] = []
    if points_raw is _BAD:
        points.append(_BAD)
    elif not points_raw:
        _note(_fail(f"{base}.design_points", [], "name at least one design point"))
        points.append(_BAD)
    for i, dp in enumerate(points_raw if points_raw is not _BAD else ()):
        if not isinstance(dp, str) or not dp.strip():
            _note(_fail(f"{base}.design_points[{i}]", dp, "must be a name"))
            points.append(_BAD)
        else:
            points.append(dp.strip())
    _sound(*subs, *ponds, *reaches, *inflows, *points)
    condition = Condition(cname, subs, ponds, reaches, inflows, tuple(points))
    _check_network(base, condition)
    return condition


def _named(path: str, raw: Any) -> tuple[str, str]:
    if not isinstance(raw, dict):
        raise _fail(path, raw, "must be a mapping")
    name = _str(raw, "name", f"{path}.name", required=True)
    to = _str(raw, "to", f"{path}.to", required=True)
    return name, to


def _subcatchment(path: str, raw: Any) -> Subcatchment:
    name, to = _named(path, raw)
    path = f"{path} ({name})"
    areas: list[Any] = []
    if "areas" in raw:
        if "area_ac" in raw or "cn" in raw:
            raise _fail(path, name, "give either area_ac with cn, or areas — not both")
        parts = raw["areas"]
        if not isinstance(parts, list) or not parts:
            raise _fail(f"{path}.areas", parts, "must be a non-empty list")
        for i, part in enumerate(parts):
            areas.append(_each(_area_part, f"{path}.areas[{i}]", part))
    else:
        area = _each(_num, raw.get("area_ac"), f"{path}.area_ac", positive=True)
        cn = _each(_num, raw.get("cn"), f"{path}.cn", minimum=30.0, maximum=100.0)
        areas.append(_BAD if _BAD in (area, cn) else AreaPart(area, cn=cn))
    tc_min = _each(_num, raw.get("tc_min"), f"{path}.tc_min", required=False, positive=True)
    segs_raw = raw.get("tc_segments") or []
    segments: list[Any] = []
    if not isinstance(segs_raw, list):
        _note(_fail(f"{path}.tc_segments", segs_raw, "must be a list"))
        segments.append(_BAD)
    else:
        segments += [
            _each(_tc_segment, f"{path}.tc_segments[{i}]", seg) for i, seg in enumerate(segs_raw)
        ]
    if tc_min is None and not segments:
        _note(_fail(f"{path}.tc_min", None, "give tc_min or tc_segments"))
        tc_min = _BAD
    method = raw.get("runoff_method", "weighted_cn")
    if method not in RUNOFF_METHODS:
        _note(_fail(f"{path}.runoff_method", method, f"must be one of {', '.join(RUNOFF_METHODS)}"))
        method = _BAD
    _sound(*areas, tc_min, *segments, method)
    return Subcatchment(name, to, tuple(areas), tc_min, tuple(segments), method, path)


def _tc_segment(path: str, raw: Any) -> TcSegment:
    """One TR-55 travel-time segment: a known type with the positive numbers that type needs."""
    if not isinstance(raw, dict) or "type" not in raw:
        raise _fail(path, raw, "needs a type (sheet, shallow, channel)")
    kind = raw["type"]
    if kind not in TC_SEGMENT_FIELDS:
        raise _fail(f"{path}.type", kind, "must be sheet, shallow or channel")
    params = {k: v for k, v in raw.items() if k != "type"}
    for key in TC_SEGMENT_FIELDS[kind]:
        params[key] = _each(_num, raw.get(key), f"{path}.{key}", positive=True)
    if kind == "sheet" and "p2_in" in raw:
        params["p2_in"] = _each(_num, raw.get("p2_in"), f"{path}.p2_in", positive=True)
    if kind == "shallow":
        surface = _each(_str, raw, "surface", f"{path}.surface")
        params["surface"] = surface or "unpaved"
    _sound(*params.values())
    return TcSegment(kind, params)


def _area_part(path: str, raw: Any) -> AreaPart:
    if not isinstance(raw, dict):
        raise _fail(path, raw, "must be a mapping")
    area = _each(_num, raw.get("area_ac"), f"{path}.area_ac", positive=True)
    if "cn" in raw:
        cn = _each(_num, raw.get("cn"), f"{path}.cn", minimum=30.0, maximum=100.0)
        _sound(area, cn)
        return AreaPart(area, cn=cn, impervious=cn >= 98)
    cover = _each(_str, raw, "cover", f"{path}.cover", required=True)
    hsg = raw.get("hsg")
    if hsg not in HSGS:
        _note(_fail(f"{path}.hsg", hsg, "must be one of A, B, C, D"))
        hsg = _BAD
    _sound(area, cover, hsg)
    return AreaPart(area, cover=cover, hsg=hsg, impervious="impervious" in cover.lower())


def _pond(path: str, raw: Any) -> Pond:
    name, to = _named(path, raw)
    path = f"{path} ({name})"
    storage = _map(raw, "storage", f"{path}.storage", required=True)
    if "stage_storage" in storage:
        kind, table = (
            "stage_storage",
            _pairs(storage["stage_storage"], f"{path}.storage.stage_storage"),
        )
        for i in range(1, len(table)):
            if table[i][1] < table[i - 1][1]:
                raise _fail(
                    f"{path}.storage.stage_storage[{i}][1]", table[i][1], "storage must not fall"
                )
    elif "stage_area" in storage:
        kind, table = "stage_area", _pairs(storage["stage_area"], f"{path}.storage.stage_area")
    else:
        raise _fail(f"{path}.storage", storage, "give stage_storage or stage_area")
    method = storage.get("method", "prismatic")
    if method not in STORAGE_METHODS:
        _note(_fail(f"{path}.storage.method", method, "must be prismatic or conic"))
        method = _BAD
    start = _each(_num, raw.get("start_elev_ft"), f"{path}.start_elev_ft", required=False)
    if start not in (None, _BAD) and not table[0][0] <= start <= table[-1][0]:
        _note(_fail(f"{path}.start_elev_ft", start, "must lie within the storage table's stages"))
        start = _BAD
    outlets_raw = raw.get("outlets")
    if not isinstance(outlets_raw, list) or not outlets_raw:
        _note(_fail(f"{path}.outlets", outlets_raw, "a pond needs at least one outlet"))
        outlets = [_BAD]
    else:
        outlets = [
            _each(_outlet, f"{path}.outlets[{i}]", i, dev) for i, dev in enumerate(outlets_raw)
        ]
    _sound(method, start, *outlets)
    _check_outlet_links(path, outlets)
    return Pond(name, to, kind, table, method, start, tuple(outlets), path)


def _outlet(path: str, i: int, raw: Any) -> dict[str, Any]:
    """One outlet device: a known type carrying every elevation and dimension that type needs."""
    if not isinstance(raw, dict) or "type" not in raw:
        raise _fail(path, raw, "each outlet needs a type")
    kind = raw["type"]
    if kind not in DEVICE_ELEVATIONS:
        raise _fail(f"{path}.type", kind, f"must be one of {', '.join(DEVICE_ELEVATIONS)}")
    dev = dict(raw)
    dev["name"] = _str(raw, "name", f"{path}.name") or f"{kind}_{i + 1}"
    for key in DEVICE_ELEVATIONS[kind]:
        dev[key] = _each(_num, raw.get(key), f"{path}.{key}")
    for key in DEVICE_DIMENSIONS[kind]:
        dev[key] = _each(_num, raw.get(key), f"{path}.{key}", positive=True)
    for key in DEVICE_OPTIONAL_POSITIVE:
        if key in raw:
            dev[key] = _each(_num, raw.get(key), f"{path}.{key}", positive=True)
    _sound(*dev.values())
    if kind == "weir":
        if raw.get("kind", "sharp") not in ("sharp", "broad"):
            raise _fail(f"{path}.kind", raw.get("kind"), "must be sharp or broad")
        contractions = raw.get("end_contractions", 0)
        if isinstance(contractions, bool) or contractions not in (0, 1, 2):
            raise _fail(f"{path}.end_contractions", contractions, "must be 0, 1 or 2")
    if kind == "v_notch" and "angle_deg" in raw and dev["angle_deg"] >= 180:
        raise _fail(f"{path}.angle_deg", dev["angle_deg"], "must be less than 180")
    if kind == "culvert":
        if "ke" in raw:
            dev["ke"] = _num(raw.get("ke"), f"{path}.ke", minimum=0.0)
        dev["tailwater_ft"] = _num(raw.get("tailwater_ft"), f"{path}.tailwater_ft", required=False)
    if kind == "table":
        rows = _pairs(raw.get("stage_discharge"), f"{path}.stage_discharge")
        dev["stage_discharge"] = [list(r) for r in rows]
    if kind == "exfiltration":
        dev["rate_in_hr"] = _num(raw.get("rate_in_hr"), f"{path}.rate_in_hr", minimum=0.0)
        if raw.get("over", "surface") not in ("surface", "bottom"):
            raise _fail(f"{path}.over", raw.get("over"), "must be surface or bottom")
        if raw.get("through") is not None:
            raise _fail(f"{path}.through", raw.get("through"), "exfiltration leaves to the ground")
    return dev


def _check_outlet_links(path: str, outlets: list[dict[str, Any]]) -> None:
    """Every `through` names another device of the pond, and no chain of them loops."""
    by_name: dict[str, dict[str, Any]] = {}
    for i, dev in enumerate(outlets):
        if dev["name"] in by_name:
            raise _fail(f"{path}.outlets[{i}].name", dev["name"], "is used twice in this pond")
        by_name[dev["name"]] = dev
    for i, dev in enumerate(outlets):
        through = dev.get("through")
        if through is None:
            continue
        if through == dev["name"]:
            raise _fail(
                f"{path}.outlets[{i}].through", through, "a device cannot drain into itself"
            )
        if through not in by_name:
            raise _fail(f"{path}.outlets[{i}].through", through, "names no outlet of this pond")
        if by_name[through]["type"] == "exfiltration":
            raise _fail(
                f"{path}.outlets[{i}].through", through, "cannot discharge through exfiltration"
            )
        seen = {dev["name"]}
        current = through
        while current is not None:
            if current in seen:
                raise _fail(
                    f"{path}.outlets[{i}].through", through, "devices discharge through each other"
                )
            seen.add(current)
            current = by_name[current].get("through")


def _reach(path: str, raw: Any) -> Reach:
    name, to = _named(path, raw)
    path = f"{path} ({name})"
    method = raw.get("method", "translation")
    if method not in REACH_METHODS:
        raise _fail(f"{path}.method", method, f"must be one of {', '.join(REACH_METHODS)}")
    params = {k: v for k, v in raw.items() if k not in {"name", "to", "method"}}
    if method == "translation":
        params["lag_hr"] = _num(raw.get("lag_hr", 0.0), f"{path}.lag_hr", minimum=0.0)
        return Reach(name, to, method, params, path)
    for key in ("length_ft", "slope_ft_ft", "n"):
        params[key] = _each(_num, raw.get(key), f"{path}.{key}", positive=True)
    if "diameter_ft" in raw:
        params["diameter_ft"] = _each(
            _num, raw.get("diameter_ft"), f"{path}.diameter_ft", positive=True
        )
        _sound(*params.values())
    else:
        params["bottom_width_ft"] = _each(
            _num, raw.get("bottom_width_ft"), f"{path}.bottom_width_ft", minimum=0.0
        )
        params["side_slope_h_v"] = _each(
            _num, raw.get("side_slope_h_v", 0.0), f"{path}.side_slope_h_v", minimum=0.0
        )
        _sound(*params.values())
        if params["bottom_width_ft"] == 0 and params["side_slope_h_v"] == 0:
            raise _fail(f"{path}.bottom_width_ft", 0, "a channel with no width carries nothing")
    return Reach(name, to, method, params, path)


def _inflow(path: str, raw: Any) -> Inflow:
    name, to = _named(path, raw)
    path = f"{path} ({name})"
    table = _pairs(raw.get("hydrograph"), f"{path}.hydrograph")
    if table[0][0] < 0:
        raise _fail(
            f"{path}.hydrograph[0][0]",
            table[0][0],
            "times are hours from the storm's start (0 or more)",
        )
    return Inflow(name, to, table, path)


def _check_network(base: str, cond: Condition) -> None:
    nodes = [*cond.subcatchments, *cond.ponds, *cond.reaches, *cond.inflows]
    seen: dict[str, str] = {}
    twice = False
    for node in nodes:
        if node.name in seen:
            _note(_fail(f"{node.path}.name", node.name, f"is used twice in {base}"))
            twice = True
        if node.name in cond.design_points:
            _note(_fail(f"{node.path}.name", node.name, "is also a design point name"))
        seen[node.name] = node.path
    targets = set(seen) | set(cond.design_points)
    receivers = {n.name for n in (*cond.ponds, *cond.reaches)} | set(cond.design_points)
    for node in nodes:
        if node.to not in targets:
            _note(_fail(f"{node.path}.to", node.to, f"names nothing in {base}"))
        elif node.to not in receivers:
            _note(_fail(f"{node.path}.to", node.to, "must be a pond, a reach or a design point"))
    order = cond.topological_order()
    if not twice and len(order) != len(nodes):
        stuck = sorted(set(seen) - set(order))
        first = next(node for node in nodes if node.name in stuck)
        _note(
            _fail(f"{first.path}.to", stuck, "the drainage network has a cycle through these nodes")
        )
    if twice or len(order) != len(nodes):
        return  # a design point a loop or a doubled name cuts off would be reported twice
    reached = {node.to for node in nodes}
    for i, dp in enumerate(cond.design_points):
        if dp not in reached:
            _note(_fail(f"{base}.design_points[{i}]", dp, "nothing drains to this design point"))


def _bmp(i: int, raw: Any) -> Bmp:
    path = f"bmps[{i}]"
    if not isinstance(raw, dict):
        raise _fail(path, raw, "must be a mapping")
    name = _str(raw, "name", f"{path}.name", required=True)
    path = f"{path} ({name})"
    btype = _each(_str, raw, "type", f"{path}.type", required=True)
    storage = _each(_num, raw.get("storage_cf"), f"{path}.storage_cf", required=False, minimum=0.0)
    rate = _each(
        _num,
        raw.get("infiltration_rate_in_hr"),
        f"{path}.infiltration_rate_in_hr",
        required=False,
        minimum=0.0,
    )
    treats_raw = _each(_list, raw, "treats", f"{path}.treats")
    treats = [
        _each(_bmp_treats, f"{path}.treats[{j}]", t)
        for j, t in enumerate(() if treats_raw is _BAD else treats_raw)
    ]
    pre = raw.get("pretreatment") or []
    if not isinstance(pre, list) or not all(isinstance(x, str) for x in pre):
        _note(_fail(f"{path}.pretreatment", pre, "must be a list of practice names"))
        pre = _BAD
    drains_to = _each(_str, raw, "drains_to", f"{path}.drains_to")
    infiltrates = _each(_bool, raw.get("infiltrates"), f"{path}.infiltrates")
    _sound(btype, storage, rate, treats_raw, *treats, pre, drains_to, infiltrates)
    return Bmp(
        name,
        btype,
        storage,
        rate,
        tuple(treats),
        drains_to,
        tuple(pre),
        bool(infiltrates),
        path,
    )


def _bmp_treats(path: str, t: Any) -> BmpTreats:
    if not isinstance(t, dict):
        raise _fail(path, t, "must be a mapping")
    area = _each(_num, t.get("impervious_ac"), f"{path}.impervious_ac", positive=True)
    land_use = _each(_str, t, "land_use", f"{path}.land_use", required=True)
    _sound(area, land_use)
    return BmpTreats(area, land_use)


def _check_bmp_train(bmps: tuple[Bmp, ...]) -> None:
    names = {b.name for b in bmps}
    if len(names) != len(bmps):
        raise _fail("bmps", sorted(b.name for b in bmps), "BMP names must be unique")
    for b in bmps:
        if b.drains_to is not None and b.drains_to not in names:
            raise _fail(f"{b.path}.drains_to", b.drains_to, "names no BMP")
    nxt = {b.name: b.drains_to for b in bmps}
    for b in bmps:
        seen = {b.name}
        cur = nxt[b.name]
        while cur is not None:
            if cur in seen:
                raise _fail(f"{b.path}.drains_to", b.drains_to, "the treatment train loops")
            seen.add(cur)
            cur = nxt[cur]


def _recharge(raw: Any) -> RechargeSpec | None:
    if raw is None:
        return None
    p = "recharge"
    if not isinstance(raw, dict):
        raise _fail(p, raw, "must be a mapping")
    by_hsg_raw = raw.get("impervious_by_hsg") or {}
    if not isinstance(by_hsg_raw, dict) or not by_hsg_raw:
        raise _fail(f"{p}.impervious_by_hsg", by_hsg_raw, "map soil groups A–D to impervious acres")
    by_hsg = {}
    for hsg, acres in by_hsg_raw.items():
        if hsg not in HSGS:
            _note(_fail(f"{p}.impervious_by_hsg", hsg, "soil groups are A, B, C, D"))
            by_hsg[hsg] = _BAD
            continue
        by_hsg[hsg] = _each(_num, acres, f"{p}.impervious_by_hsg.{hsg}", minimum=0.0)
    infil = raw.get("infiltrating") or []
    if not isinstance(infil, list):
        _note(_fail(f"{p}.infiltrating", infil, "must be a list of BMP or pond names"))
        infil = _BAD
    captured = _each(
        _num,
        raw.get("impervious_draining_to_recharge_ac"),
        f"{p}.impervious_draining_to_recharge_ac",
        required=False,
        minimum=0.0,
    )
    texture = _each(_str, raw, "soil_texture", f"{p}.soil_texture")
    rate = _each(
        _num,
        raw.get("infiltration_rate_in_hr"),
        f"{p}.infiltration_rate_in_hr",
        required=False,
        positive=True,
    )
    _sound(*by_hsg.values(), infil, captured, texture, rate)
    return RechargeSpec(by_hsg, tuple(str(x) for x in infil), captured, texture, rate)
