#!/usr/bin/env bash
# The hostile-variant suite (tests/hostile/cases.txt): scripts that loop,
# allocate, recurse or reach out of the sandbox, and YAML that is huge,
# deep, wrong or not a file, each with its exit code, message and bounds.
# Usage: bash test_hostile.sh TIERS TESTS-DIR
exec bash "${2:?usage: test_hostile.sh TIERS TESTS-DIR}/hostile/run" "${1:?}"
