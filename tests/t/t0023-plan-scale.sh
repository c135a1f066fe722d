#!/bin/bash
# The planner at its documented limits, in time and memory: 4096 jobs (the job-count
# limit) order into stages in well under a second whatever their with/after edges (the
# implicit file-order edges once cost a search over an n x n table each: 52 s), with the
# same stages as before. Bounds on time are loose (a loaded machine of 2 cores); the old
# code missed them many times over.
. "$(dirname "$0")/lib.sh"

# Run "$@" and return its status, or 124 when it took more than $1 seconds (wall clock).
within() {
	local limit=$1 t0 ms rc=0
	shift
	t0=$(date +%s%N)
	"$@" || rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "# took $ms ms (limit $limit s)" >&3
	if [ "$ms" -ge $((limit * 1000)) ]; then
		return 124
	fi
	return "$rc"
}
exec 3>&1

# 4096 jobs, job i's mapping from awk's line(i).
jobs4096() {
	awk "BEGIN { print \"experiment: many\"; print \"jobs:\"
		for (i = 0; i < 4096; i++) print \"  - {name: j\" i \", workload: read, backend: null\" line(i) \"}\" }
		function line(i) { $1 }"
}

test_expect_success '4096 jobs without edges: one stage each, in file order, quickly' '
	jobs4096 "return \"\"" >plain.yaml
	within 10 "$IOTRIAL" validate plain.yaml >plan.txt
	grep "^stage" plan.txt >stages.txt
	awk "BEGIN { for (i = 0; i < 4096; i++) print \"stage \" i + 1 \": j\" i }" >want.txt
	cmp want.txt stages.txt
'

test_expect_success '4096 jobs in pairs run with each other: 2048 stages' '
	jobs4096 "return i % 2 ? \", with: j\" i - 1 : \"\"" >pairs.yaml
	within 10 "$IOTRIAL" validate pairs.yaml >plan.txt
	grep "^stage" plan.txt >stages.txt
	awk "BEGIN { for (i = 0; i < 4096; i += 2) print \"stage \" i / 2 + 1 \": j\" i \", j\" i + 1 }" >want.txt
	cmp want.txt stages.txt
'

test_expect_success '4096 jobs each after the next one: file order reversed' '
	jobs4096 "return i < 4095 ? \", after: j\" i + 1 : \"\"" >back.yaml
	within 10 "$IOTRIAL" validate back.yaml >plan.txt
	grep "^stage" plan.txt >stages.txt
	awk "BEGIN { for (i = 0; i < 4096; i++) print \"stage \" i + 1 \": j\" 4095 - i }" >want.txt
	cmp want.txt stages.txt
'

# Odd job 2k+1 waits for 2k+2, which then needs no default edge to 2k+1 (that would be a
# cycle): a search for every even job, and ties go to the job listed first.
test_expect_success '4096 jobs, half after the next, half in file order: ties by file order' '
	jobs4096 "return i % 2 == 0 ? \"\" : i < 4095 ? \", after: j\" i + 1 : \"\"" >zig.yaml
	within 10 "$IOTRIAL" validate zig.yaml >plan.txt
	grep "^stage" plan.txt >stages.txt
	awk "BEGIN { n = 0; print \"stage \" ++n \": j0\"
		for (k = 1; k < 2048; k++) { print \"stage \" ++n \": j\" 2 * k; print \"stage \" ++n \": j\" 2 * k - 1 }
		print \"stage \" ++n \": j4095\" }" >want.txt
	cmp want.txt stages.txt
'

test_expect_success '4096 jobs in a cycle of after: one error, exit 2' '
	jobs4096 "return \", after: j\" (i + 1) % 4096" >cycle.yaml
	expect_code 2 within 10 "$IOTRIAL" validate cycle.yaml 2>err
	cat err
	expect_eq "$(wc -l <err)" 1
	grep "cycle.yaml:3:5: key .after.: the jobs wait for each other in a cycle (job .j0. is in it)" err
'

test_done
