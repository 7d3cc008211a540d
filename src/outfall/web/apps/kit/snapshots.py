"""The one shape of a stored determination: the law's answer kept as made, so a decision can be
reproduced years later (DESIGN.md, "Time and the law").

A snapshot is `Determination.as_dict()` as plain JSON (dates and amounts as text): the question,
the outcome, the reasons with their sections, the date whose law answered, the town, every
parameter used with its version and citation, the citations and the details. It is kept one of
two ways, both in this shape:

- on the record a step changed, in a `DeterminationField` (an order, a ticket, a permit, a spill,
  a suspension), written with `determination_snapshot(det)`;
- as a row of a case's table of determinations (`DeterminationSnapshot`: one column a key of the
  shape; the town is the case's and the citations follow from the reasons and parameters),
  written with `Model.record(det, **case)`.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from outfall.law.determination import Determination

# The keys of the shape a table of determinations keeps in its own columns.
COLUMNS = ("question", "outcome", "reasons", "parameters", "details")


def determination_snapshot(det: Determination) -> dict[str, Any]:
    """The determination as kept on the record: plain JSON, dates and amounts as text."""
    return json.loads(json.dumps(det.as_dict(), cls=DjangoJSONEncoder))


class DeterminationField(models.JSONField):
    """A determination kept as made on the record it decided (`determination_snapshot`);
    an empty dict until one is."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("default", dict)
        kwargs.setdefault("blank", True)
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if kwargs.get("default") is dict:
            del kwargs["default"]
        if kwargs.get("blank") is True:
            del kwargs["blank"]
        return name, path, args, kwargs


class DeterminationSnapshot(models.Model):
    """A row of a case's table of determinations, in the one shape (see the module)."""

    question = models.CharField(max_length=200)
    as_of = models.DateField()
    outcome = models.JSONField()
    reasons = models.JSONField(default=list)
    parameters = models.JSONField(default=list)
    details = models.JSONField(default=dict, blank=True)
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True

    @classmethod
    def record(cls, det: Determination, **case: Any):
        """Keep `det` as made, as a row belonging to `case` (its foreign keys and own fields)."""
        data = determination_snapshot(det)
        return cls.objects.create(as_of=det.as_of, **{key: data[key] for key in COLUMNS}, **case)

    @property
    def snapshot(self) -> dict[str, Any]:
        """The row in the one shape (without the town, which is the case's)."""
        return {
            "question": self.question,
            "outcome": self.outcome,
            "reasons": self.reasons,
            "as_of": self.as_of.isoformat(),
            "parameters": self.parameters,
            "details": self.details,
        }
