"""The `outfall` command line: every command listed, and a command loads only its own module."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from outfall.cli.main import COMMANDS, build_parser, requested_command, run

SITE = Path(__file__).resolve().parents[2] / "examples" / "sites" / "maple-street-subdivision.yaml"


def _listed(parser) -> dict[str, str]:
    """Command name → help, as `outfall --help` lists them."""
    (action,) = [a for a in parser._actions if a.dest == "command"]
    return {choice.dest: choice.help for choice in action._choices_actions}


def test_the_command_table_lists_each_command_with_the_help_its_module_registers():
    loaded = _listed(build_parser())
    assert loaded == {name: help_text for name, (_, help_text) in COMMANDS.items()}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_help_lists_every_command_whichever_is_asked_for(name):
    assert list(_listed(build_parser([name]))) == list(COMMANDS)
    status, out, _ = run(["--help"])
    assert status == 0 and all(command in out for command in COMMANDS)


def test_the_command_is_the_first_word_that_is_not_an_option():
    assert requested_command(["--json", "check", "site.yaml"]) == "check"
    assert requested_command(["-h"]) is None


def test_an_unknown_command_is_refused_naming_the_known_ones():
    status, _, err = run(["nonsense"])
    assert status == 2 and "invalid choice" in err and "check" in err


def test_checking_a_site_loads_no_other_command_and_no_scipy():
    script = (
        "import json, sys\n"
        "from outfall.cli.main import run\n"
        f"status, out, err = run(['check', {str(SITE)!r}, '--json', '--as-of', '2026-06-01'])\n"
        "print(json.dumps({'status': status, 'modules': sorted(sys.modules)}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    report = json.loads(done.stdout)
    assert report["status"] == 0
    modules = set(report["modules"])
    assert "outfall.cli.check" in modules
    others = {module for name, (module, _) in COMMANDS.items() if name != "check"}
    assert not others & modules
    assert not any(m == "scipy" or m.startswith("scipy.") for m in modules)
