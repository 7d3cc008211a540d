"""The unit constants: the engineer's (international) acre, acre-feet, acre-inches and cfs."""

from __future__ import annotations

import ast
import importlib
import math
import pathlib
import subprocess
import sys

import pytest

from outfall.kernel import units as U

M_PER_FT = 0.3048  # the international foot, exact by definition


def test_the_acre_is_the_international_acre_of_exactly_43560_square_feet():
    assert U.SQFT_PER_ACRE == 43_560.0
    assert math.isclose(U.SQFT_PER_ACRE * M_PER_FT**2, 4046.8564224, rel_tol=1e-12)


def test_the_international_acre_is_smaller_than_the_us_survey_acre():
    survey_ft_in_ft = (1200.0 / 3937.0) / M_PER_FT
    assert U.SQFT_PER_ACRE * survey_ft_in_ft**2 == pytest.approx(43_560.17, abs=0.01)


def test_a_square_mile_is_640_acres():
    assert U.ACRES_PER_SQ_MILE * U.SQFT_PER_ACRE == 5280.0**2


def test_an_acre_foot_is_43560_cubic_feet_and_an_acre_inch_a_twelfth_of_it():
    assert U.CF_PER_ACRE_FOOT == 43_560.0
    assert U.CF_PER_ACRE_INCH * U.IN_PER_FT == U.CF_PER_ACRE_FOOT
    assert math.isclose(U.CF_PER_ACRE_FOOT * M_PER_FT**3, 1233.48183754752, rel_tol=1e-12)


def test_one_cfs_for_a_day_is_about_1_98_acre_feet():
    assert math.isclose(24 * U.SECONDS_PER_HOUR / U.CF_PER_ACRE_FOOT, 1.983471, rel_tol=1e-6)


def test_one_inch_of_runoff_over_an_acre_of_roof_is_3630_cubic_feet():
    assert U.CF_PER_ACRE_INCH == 3630.0


def test_one_inch_an_hour_over_a_square_foot_is_one_43200th_of_a_cfs():
    assert math.isclose(U.CFS_PER_IN_HR_SF, 1.0 / 43_200.0, rel_tol=1e-15)
    assert math.isclose(U.MINUTES_PER_HOUR * 60.0, U.SECONDS_PER_HOUR)


def test_the_constants_are_plain_floats():
    for name in U.__all__:
        assert type(getattr(U, name)) is float, name


def test_importing_the_units_pulls_in_no_unit_library():
    code = "import sys, outfall.kernel.units; print('pint' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


SRC = pathlib.Path(importlib.import_module("outfall").__file__).parent
BARE_CONVERSIONS = {43560.0, 3630.0}  # 43560 == 43560.0, so ints are caught too


def _number_literals(path: pathlib.Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            yield node.lineno, node.value


def test_no_module_outside_the_kernel_writes_out_the_acre_in_square_feet():
    found = [
        f"{path.relative_to(SRC)}:{line}"
        for path in sorted(SRC.rglob("*.py"))
        if path.relative_to(SRC).parts[0] != "kernel"
        for line, value in _number_literals(path)
        if value in BARE_CONVERSIONS
    ]
    assert found == [], "use outfall.kernel.units: " + ", ".join(found)
