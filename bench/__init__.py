"""Benchmarks of outfall, kept apart from the tests: `make bench` runs `python -m bench`.

sites         the benchmark sites, written for EPA SWMM 5 (.inp) and for outfall
swmm_compare  runoff volumes and speed against SWMM, and one pond routed in both
check_timing  `outfall check` on a 20-subcatchment site, process start included
"""
