"""The parameter tree: every number or list the bylaw fixes, by town and effective date.

A town's tree lives in `parameters/<town>/`. `town.yaml` describes the town (and may name a
town it `inherits` from); `amendments.yaml` lists Town Meeting votes with the vote date and the
effective date kept apart. Every other YAML file holds parameters: the name of a parameter is
its file path (without `.yaml`, slashes as dots) followed by its keys, down to a node that has
`values`. Each value carries `effective` (ISO date), `citation` and, where an amendment made it,
`amendment`. A value may instead say `not_in_record: true` (the text then in force is not held)
or `repealed: true`. The loader refuses a value without a citation and a malformed date.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import pickle
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from outfall.law.errors import (
    NotInForce,
    NotInRecord,
    ParameterFileError,
    UnknownParameter,
    UnknownTown,
)

_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML was built with it, else PyYAML's own safe loader."""


def _load_yaml(text: str) -> Any:
    """Parse YAML text with the safe loader: libyaml's (ten times faster on the parameter tree)
    when present; a document it refuses is read again by PyYAML's own, whose error says more."""
    try:
        return yaml.load(text, Loader=_YAML_LOADER)
    except yaml.YAMLError:
        return yaml.load(text, Loader=yaml.SafeLoader)


ROOT = Path(__file__).with_name("parameters")
META_FILES = {"town.yaml", "amendments.yaml"}
VALUE_KEYS = {
    "effective",
    "value",
    "citation",
    "amendment",
    "note",
    "not_in_record",
    "repealed",
    "assumed",
}
PARAM_KEYS = {"description", "unit", "values"}


@dataclass(frozen=True)
class Amendment:
    """A Town Meeting vote that adopted or amended the text: vote and effective date apart."""

    id: str
    vote_date: dt.date
    effective_date: dt.date
    effective_date_assumed: bool
    note: str = ""
    sections: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "vote_date": self.vote_date.isoformat(),
            "effective_date": self.effective_date.isoformat(),
            "effective_date_assumed": self.effective_date_assumed,
            "note": self.note,
            "sections": list(self.sections),
        }


@dataclass(frozen=True)
class ParamValue:
    """One dated value of a parameter."""

    name: str
    effective: dt.date
    value: Any
    citation: str
    amendment: str | None = None
    note: str = ""
    not_in_record: bool = False
    repealed: bool = False
    assumed: bool = False
    """The value is recalled or assumed, not checked against its source (the file says why in
    its note); pages show it as unconfirmed until the town confirms it (override layer)."""
    layer: str = ""
    """Empty for the town's parameter files; otherwise the override layer that set it (e.g. "an
    adopted Planning Board regulation", "a value confirmed by a reviewer")."""

    @property
    def version(self) -> str:
        return f"{self.name}@{self.effective.isoformat()}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": self.value,
            "effective": self.effective.isoformat(),
            "citation": self.citation,
            "amendment": self.amendment,
            "note": self.note,
            "version": self.version,
            **({"layer": self.layer} if self.layer else {}),
        }


DATA_PREFIX = "data."
"""The names of confirmed data values (`data.<table row>`): figures of the engineering tables a
reviewer checked against their source. The parameter files hold none of them; an override of
one adds it to the set."""


@dataclass(frozen=True)
class ParameterOverride:
    """A dated, cited value the town adopted or confirmed after its parameter files were written.

    The law stays pure: it never reads the town's database. The web passes what the town has
    adopted (regulations under § 267-17B, a fine schedule under § 267-25D, a data value a
    reviewer confirmed against its source, the figures of the town's MS4 permit) as overrides;
    each one takes effect on `effective` and answers with its own citation, as a Town Meeting
    amendment does in the files.
    """

    name: str
    effective: dt.date
    value: Any
    citation: str
    layer: str
    note: str = ""

    def as_value(self) -> ParamValue:
        return ParamValue(
            name=self.name,
            effective=self.effective,
            value=self.value,
            citation=self.citation,
            note=self.note,
            layer=self.layer,
        )


def _same_kind(old: Any, new: Any) -> bool:
    """Whether an override's value is of the kind the parameter holds (a number for a number,
    a list for a list ...); None in the files (a value not held) accepts anything."""
    if old is None:
        return True
    if isinstance(old, bool) or isinstance(new, bool):
        return isinstance(old, bool) and isinstance(new, bool)
    if isinstance(old, int | float):
        return isinstance(new, int | float)
    return isinstance(new, type(old))


@dataclass(frozen=True)
class Parameter:
    """A named parameter: description, unit and its values in effective-date order."""

    name: str
    description: str
    unit: str | None
    values: tuple[ParamValue, ...]
    source_file: str

    def at(self, as_of: dt.date) -> ParamValue:
        """The value in force on `as_of`; a named error when none is."""
        current = None
        for pv in self.values:
            if pv.effective <= as_of:
                current = pv
        first = self.values[0]
        if current is None:
            raise NotInForce(
                self.name,
                as_of,
                f"not in force before {first.effective.isoformat()}",
                first.citation,
            )
        if current.not_in_record:
            later = [pv for pv in self.values if pv.effective > as_of]
            until = f" before {later[0].effective.isoformat()}" if later else ""
            raise NotInRecord(
                self.name,
                as_of,
                f"the text in force{until} is not in our record"
                + (f" ({current.note})" if current.note else ""),
                current.citation,
            )
        if current.repealed:
            raise NotInForce(
                self.name, as_of, f"repealed from {current.effective.isoformat()}", current.citation
            )
        return current


@dataclass
class ParameterSet:
    """A town's parameters (with any inherited from its parent) and its amendments."""

    slug: str
    meta: dict[str, Any]
    parameters: dict[str, Parameter]
    amendments: dict[str, Amendment] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return str(self.meta.get("name", self.slug))

    @property
    def fictional(self) -> bool:
        return bool(self.meta.get("fictional", False))

    def names(self) -> list[str]:
        return sorted(self.parameters)

    def definition(self, name: str) -> Parameter:
        try:
            return self.parameters[name]
        except KeyError:
            raise UnknownParameter(f"{self.slug} has no parameter named {name!r}") from None

    def get(self, name: str, as_of: dt.date) -> ParamValue:
        """The value of `name` in force on `as_of`."""
        return self.definition(name).at(as_of)

    def value(self, name: str, as_of: dt.date) -> Any:
        return self.get(name, as_of).value

    def with_overrides(self, overrides: Iterable[ParameterOverride]) -> ParameterSet:
        """This set with `overrides` laid over it: each takes effect on its date, beside the
        values of the files (an override dated like a file value replaces it from that date).

        Refused with a ParameterFileError naming the override: an unknown parameter, a value
        of another kind than the parameter holds, or no citation. The set itself is unchanged
        (a cached town's set is shared), so callers pass the overrides in force for the town.
        """
        overrides = list(overrides)
        if not overrides:
            return self
        parameters = dict(self.parameters)
        for o in overrides:
            where = f"override of {o.name} effective {o.effective.isoformat()}"
            if not o.citation.strip():
                raise ParameterFileError(f"{where}: an override needs a citation")
            if o.name not in parameters and o.name.startswith(DATA_PREFIX):
                parameters[o.name] = Parameter(
                    name=o.name,
                    description="a figure of the engineering tables confirmed against its source",
                    unit=None,
                    values=(o.as_value(),),
                    source_file="",
                )
                continue
            if o.name not in parameters:
                raise ParameterFileError(f"{where}: {self.slug} has no parameter named {o.name!r}")
            current = parameters[o.name]
            latest = current.values[-1].value
            if not _same_kind(latest, o.value):
                raise ParameterFileError(
                    f"{where}: {o.value!r} is not of the kind the parameter holds "
                    f"({type(latest).__name__}, e.g. {latest!r})"
                )
            kept = [v for v in current.values if v.effective != o.effective]
            values = sorted([*kept, o.as_value()], key=lambda v: v.effective)
            parameters[o.name] = Parameter(
                name=current.name,
                description=current.description,
                unit=current.unit,
                values=tuple(values),
                source_file=current.source_file,
            )
        return ParameterSet(
            slug=self.slug, meta=self.meta, parameters=parameters, amendments=self.amendments
        )


def _as_date(raw: Any, where: str) -> dt.date:
    if isinstance(raw, dt.datetime):
        raise ParameterFileError(f"{where}: expected a date, got a date and time {raw!r}")
    if isinstance(raw, dt.date):
        return raw
    if isinstance(raw, str):
        try:
            return dt.date.fromisoformat(raw)
        except ValueError:
            pass
    raise ParameterFileError(f"{where}: malformed date {raw!r} (expected YYYY-MM-DD)")


def _parse_amendments(path: Path) -> dict[str, Amendment]:
    if not path.exists():
        return {}
    try:
        data = _load_yaml(path.read_text(encoding="utf-8")) or []
    except (yaml.YAMLError, ValueError) as exc:
        raise ParameterFileError(f"{path.name}: malformed ({exc})") from exc
    out: dict[str, Amendment] = {}
    for i, item in enumerate(data):
        where = f"{path.name}[{i}]"
        if not isinstance(item, dict) or "id" not in item:
            raise ParameterFileError(f"{where}: each amendment needs an id")
        if "effective_date_assumed" not in item:
            raise ParameterFileError(
                f"{where}: say whether the effective date is assumed (effective_date_assumed)"
            )
        out[item["id"]] = Amendment(
            id=item["id"],
            vote_date=_as_date(item.get("vote_date"), f"{where}.vote_date"),
            effective_date=_as_date(item.get("effective_date"), f"{where}.effective_date"),
            effective_date_assumed=bool(item["effective_date_assumed"]),
            note=str(item.get("note", "")),
            sections=tuple(item.get("sections", ())),
        )
    return out


def _parse_value(name: str, raw: Any, where: str, amendments: dict[str, Amendment]) -> ParamValue:
    if not isinstance(raw, dict):
        raise ParameterFileError(f"{where}: each value must be a mapping")
    unknown = set(raw) - VALUE_KEYS
    if unknown:
        raise ParameterFileError(f"{where}: unknown keys {sorted(unknown)}")
    citation = raw.get("citation")
    if not isinstance(citation, str) or not citation.strip():
        raise ParameterFileError(f"{where}: value without a citation")
    effective = _as_date(raw.get("effective"), f"{where}.effective")
    flags = bool(raw.get("not_in_record")) or bool(raw.get("repealed"))
    if "value" not in raw and not flags:
        raise ParameterFileError(f"{where}: value missing (or mark not_in_record / repealed)")
    amendment = raw.get("amendment")
    if amendment is not None and amendments and amendment not in amendments:
        raise ParameterFileError(f"{where}: unknown amendment {amendment!r}")
    return ParamValue(
        name=name,
        effective=effective,
        value=raw.get("value"),
        citation=citation.strip(),
        amendment=amendment,
        note=str(raw.get("note", "")),
        not_in_record=bool(raw.get("not_in_record", False)),
        repealed=bool(raw.get("repealed", False)),
        assumed=bool(raw.get("assumed", False)),
    )


def _walk(node: Any, prefix: list[str], src: str, amendments, out: dict[str, Parameter]) -> None:
    name = ".".join(prefix)
    if isinstance(node, dict) and "values" in node:
        unknown = set(node) - PARAM_KEYS
        if unknown:
            raise ParameterFileError(f"{src}: {name}: unknown keys {sorted(unknown)}")
        raw_values = node["values"]
        if not isinstance(raw_values, list) or not raw_values:
            raise ParameterFileError(f"{src}: {name}: values must be a non-empty list")
        values = [
            _parse_value(name, v, f"{src}: {name}.values[{i}]", amendments)
            for i, v in enumerate(raw_values)
        ]
        values.sort(key=lambda v: v.effective)
        dates = [v.effective for v in values]
        if len(set(dates)) != len(dates):
            raise ParameterFileError(f"{src}: {name}: two values share an effective date")
        out[name] = Parameter(
            name=name,
            description=str(node.get("description", "")),
            unit=node.get("unit"),
            values=tuple(values),
            source_file=src,
        )
        return
    if not isinstance(node, dict) or not node:
        raise ParameterFileError(f"{src}: {name or '(top)'}: expected a mapping with values")
    for key, child in node.items():
        _walk(child, [*prefix, str(key)], src, amendments, out)


def load_tree(directory: Path, amendments: dict[str, Amendment]) -> dict[str, Parameter]:
    """Load every parameter file under `directory` (town.yaml and amendments.yaml excepted)."""
    out: dict[str, Parameter] = {}
    for path in sorted(directory.rglob("*.yaml")):
        if path.parent == directory and path.name in META_FILES:
            continue
        rel = path.relative_to(directory).with_suffix("")
        src = str(path.relative_to(directory.parent))
        try:
            data = _load_yaml(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise ParameterFileError(f"{src}: not valid YAML: {exc}") from exc
        except ValueError as exc:
            raise ParameterFileError(f"{src}: malformed date or value ({exc})") from exc
        _walk(data, list(rel.parts), src, amendments, out)
    return out


def load_parameter_set(slug: str, root: Path = ROOT, *, cache: Path | None = None) -> ParameterSet:
    """Load a town's parameter set, with the parameters of the town it inherits from.

    With `cache`, a directory, the set parsed by an earlier process is taken from it when every
    file it was parsed from (and this loader) reads the same byte for byte, and a set parsed
    here is left there; a cache that cannot be read or written is passed over in silence.
    """
    if cache is not None:
        cached = _read_cache(cache, slug, root)
        if cached is not None:
            return cached
    found = _parse_parameter_set(slug, root)
    if cache is not None:
        _write_cache(cache, slug, root, found)
    return found


def _parse_parameter_set(slug: str, root: Path) -> ParameterSet:
    directory = root / slug
    meta_path = directory / "town.yaml"
    if not meta_path.exists():
        known = ", ".join(available_towns(root)) or "none"
        raise UnknownTown(f"town={slug!r}: no parameter set (known towns: {known})")
    meta = _load_yaml(meta_path.read_text(encoding="utf-8")) or {}
    parent_slug = meta.get("inherits")
    amendments: dict[str, Amendment] = {}
    parameters: dict[str, Parameter] = {}
    if parent_slug:
        parent = _parse_parameter_set(parent_slug, root)
        amendments.update(parent.amendments)
        parameters.update(parent.parameters)
    amendments.update(_parse_amendments(directory / "amendments.yaml"))
    parameters.update(load_tree(directory, amendments))
    return ParameterSet(slug=slug, meta=meta, parameters=parameters, amendments=amendments)


def _lineage(found: ParameterSet, root: Path) -> list[str]:
    """The slugs a set was parsed from: the town and each town it inherits from, in turn."""
    slugs = [found.slug]
    parent = found.meta.get("inherits")
    while parent:
        slugs.append(parent)
        parent = (_load_yaml((root / parent / "town.yaml").read_text(encoding="utf-8")) or {}).get(
            "inherits"
        )
    return slugs


def _sources(root: Path, slugs: list[str]) -> list[tuple[str, bytes]]:
    """What a set is parsed from, byte for byte: this loader's source and every YAML file of
    each town in `slugs`, by path."""
    found = [("", Path(__file__).read_bytes())]
    for slug in slugs:
        directory = root / slug
        found += [
            (str(path.relative_to(root)), path.read_bytes())
            for path in sorted(directory.rglob("*.yaml"))
        ]
    return found


def _made_by() -> tuple[str, str]:
    """What else a parsed set depends on: the Python and PyYAML that read it."""
    return sys.version, yaml.__version__


def _cache_file(cache: Path, slug: str) -> Path:
    return cache / f"parameters-{slug}.pickle"


def _read_cache(cache: Path, slug: str, root: Path) -> ParameterSet | None:
    """The set kept in `cache` for `slug`, if it was parsed from the files as they are now."""
    try:
        made_by, slugs, sources, found = pickle.loads(_cache_file(cache, slug).read_bytes())
        if made_by == _made_by() and sources == _sources(root, slugs):
            return found
    except Exception:  # any missing, unreadable or outdated cache file is a miss
        return None
    return None


def _write_cache(cache: Path, slug: str, root: Path, found: ParameterSet) -> None:
    """Keep `found` in `cache` with what it was parsed from: written whole under a temporary
    name, then renamed into place, so a process reading meanwhile sees the old file or the new."""
    target = _cache_file(cache, slug)
    part = target.with_name(f".{target.name}.{os.getpid()}")
    try:
        slugs = _lineage(found, root)
        entry = (_made_by(), slugs, _sources(root, slugs), found)
        cache.mkdir(parents=True, exist_ok=True)
        part.write_bytes(pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(part, target)
    except (OSError, yaml.YAMLError):
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)


def cache_directory() -> Path | None:
    """Where `town` keeps parsed parameter sets between processes: `$OUTFALL_VAR_DIR/cache`,
    else the user's cache directory (`$XDG_CACHE_HOME/outfall`, `~/.cache/outfall`); None when
    there is no home directory to put it in."""
    if var := os.environ.get("OUTFALL_VAR_DIR"):
        return Path(var) / "cache"
    if xdg := os.environ.get("XDG_CACHE_HOME"):
        return Path(xdg) / "outfall"
    try:
        home = Path.home()
    except RuntimeError:
        return None
    return home / ".cache" / "outfall" if home.is_absolute() else None


def available_towns(root: Path = ROOT) -> list[str]:
    return sorted(p.name for p in root.iterdir() if (p / "town.yaml").exists())


@cache
def town(slug: str = "norfolk") -> ParameterSet:
    """The cached parameter set for `slug` (Norfolk by default).

    One entry per parameter set on disk (an unknown slug raises and is not cached), so an
    installation serving many towns never reloads one because others were asked for since;
    across processes, the parsed set is kept in `cache_directory()`.
    """
    return load_parameter_set(slug, cache=cache_directory())


def as_parameter_set(which: str | ParameterSet | None) -> ParameterSet:
    """Accept a town slug, a loaded ParameterSet or None (Norfolk)."""
    if which is None:
        return town("norfolk")
    if isinstance(which, ParameterSet):
        return which
    return town(which)
