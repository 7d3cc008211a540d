"""The layers of DESIGN.md hold: import-linter's contracts in pyproject.toml are kept.

Nothing below `web` imports Django; `law` and `eng` never import each other; nothing imports
`web` or `cli`; the law uses no numpy.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

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


def test_a_law_module_that_imports_eng_breaks_the_build(tmp_path):
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    pkg = tmp_path / "src" / "outfall"
    for layer in ("kernel", "law", "eng", "compliance", "cli", "web"):
        (pkg / layer).mkdir(parents=True)
        (pkg / layer / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "law" / "wrong.py").write_text("import outfall.eng\n")
    result = _lint(tmp_path, tmp_path / "src")
    assert result.returncode != 0
    assert "BROKEN" in result.stdout


def test_django_outside_web_breaks_the_build(tmp_path):
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    pkg = tmp_path / "src" / "outfall"
    for layer in ("kernel", "law", "eng", "compliance", "cli", "web"):
        (pkg / layer).mkdir(parents=True)
        (pkg / layer / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    fake_django = tmp_path / "src" / "django"
    fake_django.mkdir()
    (fake_django / "__init__.py").write_text("")
    (pkg / "compliance" / "wrong.py").write_text("import django\n")
    result = _lint(tmp_path, tmp_path / "src")
    assert result.returncode != 0
    assert "BROKEN" in result.stdout
