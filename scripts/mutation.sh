#!/usr/bin/env bash
# Mutation testing of the modules that decide reported numbers, tool errors, seeds and stops,
# resume, merged results, secrets and escaping (not part of CI: slow).
#
#   scripts/mutation.sh                          # every module of the default list
#   scripts/mutation.sh src/lifebench/metrics/_passk.py
#   scripts/mutation.sh "src/lifebench/metrics/*"  # a group (quote the glob)
#   scripts/mutation.sh --report [MODULE_PATH...]  # only the tables of the last results
#
# The default list is `only_mutate` in [tool.mutmut] of pyproject.toml. A MODULE_PATH outside
# that list is refused (mutmut only mutates what it lists).
#
# Every mutant is run against the tests that cover it (the whole suite is the candidate set), one
# mutant at a time by default: MUTATION_JOBS=2 runs two in parallel. Then every mutant whose
# tests timed out or could not be judged (worker error, no test selected) is run once more in a
# fresh process and classified by that run. The run ends with a table per module, one line per
# module and a total:
#   mutation PATH killed=K survived=S equivalent=E timeout=T error=R not_run=N score=P
# with P = K / (K + S) in percent; a kill is a test that ran and failed. The exit status is not 0
# when errors or unrun mutants remain. Equivalent mutants are annotated in
# scripts/mutation-equivalent.toml (key printed for every survivor). See CONTRIBUTING.md.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python}
JOBS=${MUTATION_JOBS:-1}
RUN=1
if [[ ${1:-} == --report ]]; then
    RUN=0
    shift
fi

# One line per group: the module files of one argument (or one only_mutate entry), space separated.
mapfile -t groups < <("$PYTHON" - "$@" <<'EOF'
import fnmatch
import glob
import os
import sys
import tomllib

with open("pyproject.toml", "rb") as f:
    listed = tomllib.load(f)["tool"]["mutmut"]["only_mutate"]
for arg in sys.argv[1:] or listed:
    pattern = arg.rstrip("/") + ("/*" if os.path.isdir(arg) else "")
    files = sorted(glob.glob(pattern)) if any(c in pattern for c in "*?[") else [pattern]
    files = [f for f in files if f.endswith(".py")]
    if not files:
        sys.exit(f"mutation.sh: no Python module matches {arg}")
    for f in files:
        if not os.path.isfile(f):
            sys.exit(f"mutation.sh: {f} does not exist")
        if not any(fnmatch.fnmatch(f, p) for p in listed):
            sys.exit(f"mutation.sh: {f} is not in [tool.mutmut] only_mutate of pyproject.toml")
    print(" ".join(files))
EOF
)

# mutmut maps each function to the tests that run it once and then only adds new test names; a
# test whose body changed would keep its old mapping, so the mapping is rebuilt on every run.
if ((RUN)); then
    rm -f mutants/mutmut-stats.json
fi

all_modules=()
patterns=()
for group in "${groups[@]}"; do
    read -r -a files <<<"$group"
    for file in "${files[@]}"; do
        module=${file#src/}
        module=${module%.py}
        module=${module//\//.}
        if [[ $module == *.__init__ ]]; then
            patterns+=("${module%.__init__}.x*")
        else
            patterns+=("$module.*")
        fi
        all_modules+=("$file")
        # A module copied into mutants/ before it was listed in only_mutate has no results file:
        # mutmut would take the plain copy as up to date and never mutate it.
        if ((RUN)) && [[ -f mutants/$file && ! -f mutants/$file.meta ]]; then
            rm -f "mutants/$file"
        fi
    done
done

report=(scripts/mutation_report.py)
if ((RUN)); then
    # One mutmut run for every module: one clean test run and one fork server for them all.
    echo "== mutmut: ${all_modules[*]}" >&2
    if ! nice -n 10 "$PYTHON" -m mutmut run --max-children "$JOBS" "${patterns[@]}" >&2; then
        echo "mutation.sh: mutmut failed (no mutants there, or the clean tests fail)" >&2
    fi
    report+=(--rerun)
fi
exec nice -n 10 "$PYTHON" "${report[@]}" "${all_modules[@]}"
