#!/usr/bin/env bash
# The hostile-variant suite (tests/hostile/cases.txt): scripts that loop,
# allocate, recurse or reach out of the sandbox, and YAML that is huge,
# deep, wrong or not a file, each with its exit code, message and bounds.
# HOSTILE_PART=K/N (set by ctest) runs one part of it.
# Usage: bash test_hostile.sh TIERS TESTS-DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
case_begin
bash "$tests/hostile/run" "$tiers" || fail "the hostile suite (tests/hostile/run)"
case_end
cli_end
