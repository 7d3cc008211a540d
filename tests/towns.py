"""A town with some parameters changed, for tests that must see a town's own numbers.

`town_with(slug, {name: value})` is the town's parameter set with each named parameter holding
one value from its first effective date on (citation kept, noted as a test value).
`use_town(monkeypatch, params)` makes every lookup of that town's slug — the law's
`as_parameter_set`, and so the web, which asks by slug — answer with `params` for the test.
"""

from __future__ import annotations

from typing import Any

from outfall.law import parameters as P


def town_with(slug: str, values: dict[str, Any]) -> P.ParameterSet:
    base = P.load_parameter_set(slug)
    changed = dict(base.parameters)
    for name, value in values.items():
        old = base.definition(name)
        first = old.values[0]
        one = P.ParamValue(name, first.effective, value, first.citation, note="test value")
        changed[name] = P.Parameter(name, old.description, old.unit, (one,), old.source_file)
    return P.ParameterSet(base.slug, base.meta, changed, base.amendments)


def use_town(monkeypatch, params: P.ParameterSet) -> None:
    cached = P.town

    def town(slug: str = "norfolk") -> P.ParameterSet:
        return params if slug == params.slug else cached(slug)

    monkeypatch.setattr(P, "town", town)
