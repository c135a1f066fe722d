#!/bin/bash
# make test-mutants: shows that the shell tests catch wrong results. For each mutant listed by
# tests/mutant-iotrial.sh (a wrong figure, status, exit status, message or file), runs the
# shell tests tests/t/t*.sh (but t0000, the harness's own, and t0021, which runs this) with
# $IOTRIAL pointing at that wrapper, which runs the real ./iotrial and then falsifies what
# it wrote. A mutant is caught when at least one test fails. Prints, per mutant, the tests
# that caught it, and a total; exits 1 when a mutant survived (or was never applied: no test
# ran a command it changes), 2 when a control failed or on a usage error.
#
# Two controls run first, the whole suite each, and must pass: "none" (the wrapper alone,
# nothing falsified) and "identity" (results.json through jq and back, the folder rewritten
# from it), so that a failure under a mutant is the mutant's doing, not the wrapper's.
#
# To stay fast, the scripts run in order and a mutant stops at the first script that fails:
# 20 to 30 minutes in all on two shared cores, half of it the controls. --all runs every
# script for every mutant, to list all the tests that catch each one (hours).
# tests/t/t0011-mpi.sh runs too, but its MPI runs use build-mpi/iotrial, which is not
# wrapped.
#
# Usage: tests/mutants.sh [--all] [--scripts "tNNNN-topic ..."] [MUTANT...]   (default: all)
#        tests/mutants.sh --list
# --scripts runs those scripts only (controls included), as tests/t/t0021-mutants.sh does.
# The binary is $IOTRIAL_REAL (default ./iotrial); the work files (trash folders and logs,
# kept for reading after a run) go to $MUTANTS_WORK (default build-mutants/).
set -u
cd "$(dirname "$0")/.." || exit 2
SRC=$PWD
WRAPPER=$SRC/tests/mutant-iotrial.sh
WORK=${MUTANTS_WORK:-$SRC/build-mutants}
REAL=${IOTRIAL_REAL:-$SRC/iotrial}
all=
# The harness's own tests run no iotrial; t0021 runs this script.
scripts=$(ls tests/t/t[0-9]*.sh | grep -v -e '/t0000-' -e '/t0021-mutants')
while [ $# -gt 0 ]; do
	case $1 in
	--list) MUTANT_LIST=1 "$WRAPPER"; exit 0 ;;
	--all) all=1 ;;
	--scripts)
		[ $# -gt 1 ] || { echo "mutants: --scripts takes a list of scripts" >&2; exit 2; }
		scripts=
		for t in $2; do
			[ -f "tests/t/$t.sh" ] || { echo "mutants: no script tests/t/$t.sh" >&2; exit 2; }
			scripts="$scripts tests/t/$t.sh"
		done
		shift
		;;
	-*) sed -n 's/^# Usage: //p; s/^#        //p' "$0" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
if [ ! -x "$REAL" ]; then
	echo "mutants: build ./iotrial first (make iotrial)" >&2
	exit 2
fi
known=$(MUTANT_LIST=1 "$WRAPPER" | cut -f1)
mutants=$(echo "$known" | grep -v '^identity$')
if [ $# -gt 0 ]; then
	for m in "$@"; do
		echo "$known" | grep -qx -- "$m" || { echo "mutants: no mutant '$m' (tests/mutants.sh --list)" >&2; exit 2; }
	done
	mutants="$*"
fi
rm -rf "$WORK"
mkdir -p "$WORK/tmp"

# run_suite NAME: run the scripts under mutant NAME; sets caught ("script: test; ..." of the
# failed tests, empty when none failed) and applied (how often the mutant changed something).
run_suite() {
	local name=$1 t base log failed
	caught=
	mkdir -p "$WORK/$name"
	: >"$WORK/$name/mutant.log"
	for t in $scripts; do
		base=$(basename "$t" .sh)
		log=$WORK/$name/$base.log
		MUTANT=$name IOTRIAL=$WRAPPER IOTRIAL_REAL=$REAL MUTANT_LOG=$WORK/$name/mutant.log \
			MUTANT_TMP=$WORK/tmp TEST_TRASH_ROOT=$WORK/$name timeout 600 bash "$t" >"$log" 2>&1
		if ! grep -q '^# passed [0-9]* failed 0 ' "$log"; then
			failed=$(sed -n 's/^not ok [0-9]* - \(.*\) (status [0-9]*)$/\1/p' "$log" | paste -sd ';' -)
			caught="$caught${caught:+ | }$base: ${failed:-the script did not finish}"
			[ -n "$all" ] || break
		fi
	done
	applied=$(grep -c '^applied ' "$WORK/$name/mutant.log")
}

start=$(date +%s)
for control in none identity; do
	echo "control $control: every script must pass"
	run_suite "$control"
	broken=$(grep '^broken ' "$WORK/$control/mutant.log" | head -3)
	if [ -n "$caught" ] || [ -n "$broken" ]; then
		echo "mutants: control '$control' failed: ${caught:-}${broken:+ $broken} (logs in $WORK/$control/)" >&2
		exit 2
	fi
done
echo "controls passed in $(($(date +%s) - start)) s"
echo

total=0 killed=0 survivors=
for m in $mutants; do
	t0=$(date +%s)
	run_suite "$m"
	total=$((total + 1))
	broken=$(grep -c '^broken ' "$WORK/$m/mutant.log")
	if [ "$broken" -gt 0 ]; then
		echo "BROKEN   $m: the wrapper could not apply it: $(grep -m1 '^broken ' "$WORK/$m/mutant.log")"
		survivors="$survivors $m"
	elif [ "$applied" -eq 0 ]; then
		echo "UNUSED   $m: no test ran a command it changes"
		survivors="$survivors $m"
	elif [ -n "$caught" ]; then
		killed=$((killed + 1))
		printf 'caught   %-20s %4ss  %s\n' "$m" "$(($(date +%s) - t0))" "$caught"
	else
		echo "SURVIVED $m ($applied changes, every test passed)"
		survivors="$survivors $m"
	fi
done
echo
echo "mutants: $killed caught of $total in $(($(date +%s) - start)) s${survivors:+; not caught:$survivors}"
[ -z "$survivors" ]
