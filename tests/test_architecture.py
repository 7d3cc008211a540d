"""The layers of DESIGN.md hold: import-linter's contracts in pyproject.toml are kept.

Nothing below `web` imports Django; `law` and `eng` never import each other, nor `web` and
`cli`; nothing imports `web` or `cli`; the law uses no numpy. Inside `web` the apps stand on
floors (DESIGN.md, "The web apps"): an app never imports one on a higher floor. Each forbidden
import, planted in a scratch copy of the real tree, breaks the build.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(cwd: Path, env_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT), "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(env_path), "PATH": "/usr/bin:/bin"},
        check=False,
    )


def test_the_project_keeps_every_layer_contract():
    result = _lint(ROOT, ROOT / "src")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" in result.stdout and "0 broken" in result.stdout


def test_the_contracts_name_every_layer():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    text = repr(config["contracts"])
    for layer in ("web", "cli", "compliance", "law", "eng", "kernel"):
        assert f"outfall.{layer}" in text


PLANTED = {
    "eng imports law": ("eng", "import outfall.law.s267_18_procedure\n"),
    "law imports eng": ("law", "import outfall.eng.runoff\n"),
    "cli imports web": ("cli", "import outfall.web.apps.permits.models\n"),
    "web imports cli": ("web", "import outfall.cli.main\n"),
    "compliance imports web": ("compliance", "import outfall.web.apps.core.models\n"),
    "kernel imports law": ("kernel", "import outfall.law.parameters\n"),
    "compliance imports Django": ("compliance", "import django.db\n"),
    "law imports numpy": ("law", "import numpy\n"),
    "core imports permits": ("web/apps/core", "import outfall.web.apps.permits.models\n"),
    "audit imports the kit": ("web/apps/audit", "import outfall.web.apps.kit.clocks\n"),
    "the kit imports permits": ("web/apps/kit", "import outfall.web.apps.permits.models\n"),
    "the kit imports the regulations": (
        "web/apps/kit",
        "import outfall.web.apps.regulations.selectors\n",
    ),
    "the regulations import permits": (
        "web/apps/regulations",
        "import outfall.web.apps.permits.models\n",
    ),
    "the regulations import enforcement": (
        "web/apps/regulations",
        "import outfall.web.apps.enforcement.models\n",
    ),
    "permits imports assets": ("web/apps/permits", "import outfall.web.apps.assets.models\n"),
    "assets imports idde": ("web/apps/assets", "import outfall.web.apps.idde.models\n"),
    "idde imports enforcement": ("web/apps/idde", "import outfall.web.apps.enforcement.models\n"),
    "enforcement imports deadlines": (
        "web/apps/enforcement",
        "import outfall.web.apps.deadlines.selectors\n",
    ),
    "enforcement imports the MS4 program": (
        "web/apps/enforcement",
        "import outfall.web.apps.ms4.selectors\n",
    ),
    "the MS4 program imports deadlines": (
        "web/apps/ms4",
        "import outfall.web.apps.deadlines.selectors\n",
    ),
    "deadlines imports the home page": ("web/apps/deadlines", "import outfall.web.apps.home\n"),
    "the api imports the demo": ("web/apps/api", "import outfall.web.apps.demo.permits\n"),
}


@pytest.fixture(scope="module")
def scratch_tree(tmp_path_factory):
    """A copy of the real source tree and contracts, to plant imports in."""
    root = tmp_path_factory.mktemp("tree")
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    shutil.copytree(
        ROOT / "src" / "outfall",
        root / "src" / "outfall",
        ignore=shutil.ignore_patterns("__pycache__", "*.html", "*.css", "*.js", "*.yaml"),
    )
    return root


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_each_forbidden_import_planted_in_the_real_tree_breaks_the_build(name, scratch_tree):
    where, line = PLANTED[name]
    planted = scratch_tree / "src" / "outfall" / where / "planted_wrong_import.py"
    planted.write_text(line)
    try:
        result = _lint(scratch_tree, scratch_tree / "src")
    finally:
        planted.unlink()
    assert result.returncode != 0, name
    assert "BROKEN" in result.stdout
    assert "planted_wrong_import" in result.stdout


def test_the_scratch_tree_without_a_plant_keeps_every_contract(scratch_tree):
    """The planted tests fail for the plant alone, not for the copy."""
    result = _lint(scratch_tree, scratch_tree / "src")
    assert result.returncode == 0, result.stdout
