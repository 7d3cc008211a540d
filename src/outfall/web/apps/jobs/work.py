"""What a job may run: a module-level function marked `@work`, called as `fn(job, **args)` by
the worker. Its dotted path is stored on the job; a path that names no marked function is refused,
so a row in the queue can never make the worker call anything else."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

_MARKED: dict[str, Callable] = {}


class FailNow(Exception):
    """The work cannot succeed by trying again (a refusal, a mistake in the input): the job is
    failed at once with this message."""


def work(fn: Callable) -> Callable:
    """Mark `fn` as work a job may run."""
    path = f"{fn.__module__}.{fn.__qualname__}"
    _MARKED[path] = fn
    fn.job_path = path
    return fn


def work_path(fn: Callable) -> str:
    path = getattr(fn, "job_path", None)
    if path is None or _MARKED.get(path) is not fn:
        raise ValueError(f"{fn!r} is not marked @work")
    return path


def work_function(path: str) -> Callable:
    """The marked function at `path` (its module is imported); FailNow if there is none."""
    module = path.rpartition(".")[0]
    try:
        import_module(module)
    except ImportError as exc:
        raise FailNow(f"the work {path} cannot be loaded: {exc}") from None
    fn = _MARKED.get(path)
    if fn is None:
        raise FailNow(f"{path} is not work a job may run")
    return fn
