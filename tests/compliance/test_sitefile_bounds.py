"""A site file is bounded before it is built: YAML anchors and aliases (the "billion laughs"
expansion), nesting past the depth bound, too many values or too many characters are refused at
once, with one line that says why — from the command line and from a web upload alike."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from outfall.compliance.sitefile import (
    MAX_DEPTH,
    MAX_SITE_FILE_CHARS,
    SiteFileError,
    parse_site,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples/sites/maple-street-subdivision.yaml").read_text()


def bomb() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{','.join([f'*{prev}'] * 9)}]")
    return "\n".join(lines) + "\n"


def mapping_bomb() -> str:
    """The same nine-fold expansion through mappings and a merge key (`<<: *h`)."""
    lines = ["a: &a {" + ", ".join(f"k{i}: lol" for i in range(9)) + "}"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} {{" + ", ".join(f"k{i}: *{prev}" for i in range(9)) + "}")
    lines.append("j: {<<: *i, name: j}")
    return "\n".join(lines) + "\n"


BOMBS = pytest.mark.parametrize("text", [bomb(), mapping_bomb()], ids=["lists", "mappings"])


@BOMBS
def test_an_alias_bomb_is_refused_naming_anchors_and_aliases(text):
    with pytest.raises(SiteFileError) as refused:
        parse_site(text, source="bomb.yaml")
    assert "anchors and aliases" in str(refused.value)


def test_a_single_harmless_alias_is_refused_too():
    with pytest.raises(SiteFileError, match="anchors and aliases"):
        parse_site(EXAMPLE + "\nextra: &x 1\nagain: *x\n", source="site.yaml")


@pytest.mark.parametrize("source", ["deep.yaml", "deep.json"])
def test_nesting_past_the_bound_is_refused(source):
    text = "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5)
    with pytest.raises(SiteFileError, match=r"nested deeper|mapping"):
        parse_site(text, source=source)


def test_very_deep_json_is_refused_not_a_crash():
    text = "[" * 100_000 + "]" * 100_000
    with pytest.raises(SiteFileError, match="nested deeper"):
        parse_site(text, source="deep.json")


def test_a_file_past_the_size_bound_is_refused_before_parsing():
    with pytest.raises(SiteFileError, match="longer than"):
        parse_site("#" * (MAX_SITE_FILE_CHARS + 1), source="big.yaml")


def test_the_shipped_example_still_parses():
    assert parse_site(EXAMPLE, source="maple.yaml").name


@BOMBS
def test_the_command_line_refuses_the_bomb_with_one_line_and_exit_2(tmp_path, text):
    """It ran past 60 s, then 120 s, until it was killed (issue 10); now it is refused from the
    parser's events, before anything is built, in one line."""
    path = tmp_path / "bomb.yaml"
    path.write_text(text)
    result = subprocess.run(
        [sys.executable, "-m", "outfall.cli.main", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "anchors and aliases" in result.stderr + result.stdout
    assert len((result.stderr + result.stdout).splitlines()) == 1


def test_the_command_line_refuses_deep_nesting_with_one_line_not_a_traceback(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text("[" * 100_000 + "]" * 100_000)
    result = subprocess.run(
        [sys.executable, "-m", "outfall.cli.main", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "nested deeper" in result.stderr + result.stdout


def test_a_misspelt_key_is_refused_naming_its_path_and_the_key_meant():
    text = EXAMPLE.replace("  luhppl:", "  luhpl:", 1)
    assert text != EXAMPLE
    with pytest.raises(SiteFileError) as refused:
        parse_site(text, source="site.yaml")
    assert refused.value.field == "project.luhpl"
    assert "did you mean 'luhppl'" in refused.value.why


def test_a_key_given_twice_is_refused_in_yaml_and_in_json():
    with pytest.raises(SiteFileError, match="appears twice"):
        parse_site(EXAMPLE + "\nname: Another name\n", source="site.yaml")
    with pytest.raises(SiteFileError, match="appears twice"):
        parse_site('{"name": "a", "name": "b"}', source="site.json")


def test_the_site_keeps_the_file_as_loaded():
    site = parse_site(EXAMPLE, source="maple.yaml")
    assert type(site.raw) is dict and site.raw["name"] == site.name
