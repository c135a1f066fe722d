#!/bin/bash
# bench/goals.sh (below the table of bench/vs-fio.sh; docs/performance.md#bench-goals): each
# goal of issue 13 judged from made-up rounds whose verdicts are known: a throughput ratio
# below 1.00 is a tie while the 95% interval of the per-round ratios reaches 1.0 and behind
# once it does not; a CPU ratio above 0.80 is kernel-bound only with its floor and fio's system
# share above 0.80.
. "$(dirname "$0")/lib.sh"

# rounds FILE "T1 T2 ..." CPU USR: a line per round, throughput Tk, the CPU and user CPU
# per I/O (columns 1, 2 and 7, as bench/vs-fio.sh writes them)
rounds() {
	local t
	: >"$1"
	for t in $2; do
		printf '%s\t%s\t0\t0\t0\t0\t%s\t0\n' "$t" "$3" "$4" >>"$1"
	done
}

FIO9="100 100 100 100 100 100 100 100 100"

test_expect_success 'throughput: met at 1.00, tie while 2 of 9 rounds are ahead, behind with 1' '
	rm -rf out
	mkdir out
	printf "met.irq\ntie.irq\nbehind.irq\nfive.irq\n" >out/rows
	# ratios 0.95 (x4), 0.999, 1.2 (x4): the median 0.999 shows as 1.00
	rounds out/met.irq.fio.tsv "$FIO9" 10 1
	rounds out/met.irq.iot.tsv "95 95 95 95 99.9 120 120 120 120" 7 1
	rounds out/tie.irq.fio.tsv "$FIO9" 10 1
	rounds out/tie.irq.iot.tsv "97 97 97 97 97 97 97 105 105" 7 1
	rounds out/behind.irq.fio.tsv "$FIO9" 10 1
	rounds out/behind.irq.iot.tsv "97 97 97 97 97 97 97 97 105" 7 1
	# five rounds: the interval is the lowest and highest ratio
	rounds out/five.irq.fio.tsv "100 100 100 100 100" 10 1
	rounds out/five.irq.iot.tsv "90 90 90 90 100" 7 1
	IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals
	cat goals
	grep -x "  met                            throughput 1.00 (rounds: 95% CI 0.95-1.20): met; cpu 0.70 (floor 0.60, sys 0.67 of fio.s): met" goals
	grep -x "  tie                            throughput 0.97 (rounds: 95% CI 0.97-1.05): tie; .*" goals
	grep -x "  behind                         throughput 0.97 (rounds: 95% CI 0.97-0.97): behind; .*" goals
	grep -x "  five                           throughput 0.90 (rounds: 95% CI 0.90-1.00): tie; .*" goals
	grep -x "goals: 5 met, 2 tie, 0 kernel-bound, 0 host-bound, 1 behind, 0 over, 0 missed" goals
'

test_expect_success 'cpu: met at 0.80; kernel-bound with the floor and fio.s system share above it; else over' '
	rm -rf out
	mkdir out
	printf "met.irq\nkernel.irq\nover.irq\nmore.irq\nusr.irq\n" >out/rows
	rounds out/met.irq.fio.tsv "$FIO9" 10 2
	rounds out/met.irq.iot.tsv "$FIO9" 8.04 1
	# fio: 10 us an I/O, 1 of them its own (system share 0.9)
	rounds out/kernel.irq.fio.tsv "$FIO9" 10 1
	rounds out/kernel.irq.iot.tsv "$FIO9" 9 0.5
	rounds out/over.irq.fio.tsv "$FIO9" 10 2
	rounds out/over.irq.iot.tsv "$FIO9" 9 1
	# the floor above 0.80, but only by more kernel work than fio (system share 0.8)
	rounds out/more.irq.fio.tsv "$FIO9" 10 2
	rounds out/more.irq.iot.tsv "$FIO9" 9 0.5
	# fio.s system share above 0.80, but iotrial.s own code too slow (floor 0.75)
	rounds out/usr.irq.fio.tsv "$FIO9" 10 1
	rounds out/usr.irq.iot.tsv "$FIO9" 9 1.5
	IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals
	cat goals
	grep -x "  met .*: met; cpu 0.80 (floor 0.70, sys 0.88 of fio.s): met" goals
	grep -x "  kernel .*: met; cpu 0.90 (floor 0.85, sys 0.94 of fio.s): kernel-bound" goals
	grep -x "  over .*: met; cpu 0.90 (floor 0.80, sys 1.00 of fio.s): over" goals
	grep -x "  more .*: met; cpu 0.90 (floor 0.85, sys 1.06 of fio.s): over" goals
	grep -x "  usr .*: met; cpu 0.90 (floor 0.75, sys 0.83 of fio.s): over" goals
	grep -x "goals: 6 met, 0 tie, 1 kernel-bound, 0 host-bound, 0 behind, 3 over, 0 missed" goals
'

# scaling FILE "S1 S2 ..." "B1 B2 ...": a line per round, as bench/vs-fio.sh writes
# OUT/scaling.tsv: iotrial with one worker (100) and two (100 Sk), fio's (10, 20), one busy
# loop (1000) and two (1000 Bk)
scaling() {
	awk -v s="$2" -v b="$3" 'BEGIN {
		n = split(s, x, " ")
		split(b, y, " ")
		for (i = 1; i <= n; i++) printf "100\t%s\t10\t20\t1000\t%s\n", 100 * x[i], 1000 * y[i]
	}' >"$1"
}

test_expect_success 'null, two workers, record log: met at the goal, missed below it; a placement shows' '
	rm -rf out
	mkdir out
	# a row under another placement is named with it; null and cached rows are not device rows
	printf "null-randread-4k.none\nnull-randread-4k-2w.none\nseq.other\nrand.none\n" >out/rows
	rounds out/seq.other.fio.tsv "$FIO9" 10 1
	rounds out/seq.other.iot.tsv "$FIO9" 7 1
	rounds out/rand.none.fio.tsv "$FIO9" 10 1
	rounds out/rand.none.iot.tsv "$FIO9" 7 1
	rounds out/null-randread-4k.none.fio.tsv "100 100 100" 1 1
	rounds out/null-randread-4k.none.iot.tsv "300 300 300" 1 1
	# the two-worker goal is judged from the scaling rounds alone, not these rows
	rounds out/null-randread-4k-2w.none.fio.tsv "200 200 200" 1 1
	rounds out/null-randread-4k-2w.none.iot.tsv "100 100 100" 1 1
	scaling out/scaling.tsv "1.7 1.8 1.9" "1.5 1.5 1.5"
	printf "100\t4000\n100\t4000\n" >out/null-logged.plain.tsv
	printf "80\t5000\n80\t5000\n" >out/null-logged.logged.tsv
	printf "90\t4546\n90\t4546\n" >out/null-logged.small.tsv
	IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals
	cat goals
	grep -x "  seq@other .*: met; .*: met" goals
	grep -x "  rand  .*: met; .*: met" goals
	grep -x "  null, one worker, x fio        3.00 (goal: at least 3): met" goals
	grep -x "  null, two workers, x one       1.80 (busy loops 1.50; iotrial over them, rounds: 95% CI 1.13-1.27) (goal: at least 1.8): met" goals
	grep -x "  record log, x unlogged         0.80 (goal: at least 0.8), peak RSS 4.9 MiB against 4.4 at a tenth of the I/Os (goal: at most a tenth more): met" goals
	grep -x "goals: 7 met, 0 tie, 0 kernel-bound, 0 host-bound, 0 behind, 0 over, 0 missed" goals
	# just below each goal
	rounds out/null-randread-4k.none.iot.tsv "299 299 299" 1 1
	scaling out/scaling.tsv "1.7 1.79 1.9" "1.5 1.5 1.5"
	printf "90\t4545\n90\t4545\n" >out/null-logged.small.tsv
	IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals
	cat goals
	grep -x "  null, one worker, x fio        2.99 (goal: at least 3): missed" goals
	grep -x "  null, two workers, x one       1.79 (busy loops 1.50; iotrial over them, rounds: 95% CI 1.13-1.27) (goal: at least 1.8): host-bound" goals
	grep "^  record log, x unlogged .*: missed$" goals
	grep -x "goals: 4 met, 0 tie, 0 kernel-bound, 1 host-bound, 0 behind, 0 over, 2 missed" goals
'

# Below 1.8, the busy loops of the same rounds decide between host-bound and missed:
# host-bound only where the loops scaled below 1.8 too (and at least 1.0) and iotrial is
# shown to keep 0.9 of their scaling round by round (the interval's lower end, below 6
# rounds the lowest ratio, at 0.90 or more as printed); rounds that show nothing are missed.
test_expect_success 'null, two workers below 1.8: host-bound only where the rounds show the loops no better' '
	rm -rf out
	mkdir out
	: >out/rows
	judge() {
		IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals
		cat goals
		grep "^  null, two workers, x one " goals
	}
	# verdict "S..." "B...": the goal line of rounds whose iotrial and loops scaled so
	verdict() {
		scaling out/scaling.tsv "$1" "$2"
		expect_eq "$(judge | tail -n 1)" "  null, two workers, x one       $3"
	}
	# as the loops, round for round
	verdict "1.6 1.6 1.7 1.7 1.7" "1.6 1.6 1.7 1.7 1.7" "1.70 (busy loops 1.70; iotrial over them, rounds: 95% CI 1.00-1.00) (goal: at least 1.8): host-bound"
	# 0.8994 of the loops in the worst round: 0.90 as printed
	verdict "1.529 1.7 1.7 1.7 1.7" "1.7 1.7 1.7 1.7 1.7" "1.70 (busy loops 1.70; iotrial over them, rounds: 95% CI 0.90-1.00) (goal: at least 1.8): host-bound"
	# 0.894 in one round: not shown to keep up
	verdict "1.52 1.7 1.7 1.7 1.7" "1.7 1.7 1.7 1.7 1.7" "1.70 (busy loops 1.70; iotrial over them, rounds: 95% CI 0.89-1.00) (goal: at least 1.8): missed"
	# noisy rounds whose interval spans 1.0 show nothing either way: missed, not excused
	verdict "1.00 1.10 1.20 1.20 1.25 1.30 1.15 1.80 1.75" "1.7 1.7 1.7 1.7 1.7 1.7 1.7 1.7 1.7" "1.20 (busy loops 1.70; iotrial over them, rounds: 95% CI 0.65-1.03) (goal: at least 1.8): missed"
	# well under the loops in every round: iotrial loses what the cores gave
	verdict "1.4 1.4 1.4 1.4 1.4" "1.7 1.7 1.7 1.7 1.7" "1.40 (busy loops 1.70; iotrial over them, rounds: 95% CI 0.82-0.82) (goal: at least 1.8): missed"
	# the loops scaled to 1.8: the cores were there
	verdict "1.79 1.79 1.79 1.79 1.79" "1.8 1.8 1.8 1.8 1.8" "1.79 (busy loops 1.80; iotrial over them, rounds: 95% CI 0.99-0.99) (goal: at least 1.8): missed"
	# two loops slower than one: a broken reference excuses nothing
	verdict "0.17 0.17 0.17" "0.17 0.17 0.17" "0.17 (busy loops 0.17; iotrial over them, rounds: 95% CI 1.00-1.00) (goal: at least 1.8): missed"
	# the median of the rounds own ratios (1.7, 2.5, 1.8: 1.80), not a ratio of medians
	# (500 / 300 = 1.67); a round with a two-worker rate of 0 or none is left out
	printf "100\t170\t10\t20\t1000\t1700\n200\t500\t10\t20\t1000\t1700\n300\t540\t10\t20\t1000\t1700\n300\t0\t10\t20\t1000\t1700\n300\t\t10\t20\t1000\t1700\n" >out/scaling.tsv
	expect_eq "$(judge | tail -n 1)" "  null, two workers, x one       1.80 (busy loops 1.70; iotrial over them, rounds: 95% CI 1.00-1.47) (goal: at least 1.8): met"
	# no busy loops measured (their rates empty): nothing to compare, missed
	printf "100\t170\t10\t20\t\t\n" >out/scaling.tsv
	expect_eq "$(judge | tail -n 1)" "  null, two workers, x one       1.70 (busy loops 0.00; iotrial over them, rounds: 95% CI nan-nan) (goal: at least 1.8): missed"
	# no rounds at all
	: >out/scaling.tsv
	expect_eq "$(judge | tail -n 1)" "  null, two workers, x one       0.00 (busy loops 0.00; iotrial over them, rounds: 95% CI nan-nan) (goal: at least 1.8): missed"
	ls out >files
	not grep -E "^scaling[.](iot|loops|ci)$" files
'

test_expect_success 'start-up: met at 0.05 of fio.s wall time (each less the harness) and 0.2 of its peak RSS, missed above; none without fio.s' '
	rm -rf out
	mkdir out
	: >out/rows
	# medians: fio 410000 us and 30000 KiB; iotrial 30000 us and 6000 KiB; the harness 10000
	# us: (30000 - 10000) / (410000 - 10000) = 0.050, and 6000 / 30000 = 0.200
	printf "410000\t30000\n400000\t29000\n420000\t31000\n" >out/startup.fio.tsv
	printf "30000\t6000\n29000\t5000\n90000\t7000\n" >out/startup.iot.tsv
	printf "10000\t900\n9000\t900\n30000\t900\n" >out/startup.base.tsv
	IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals
	cat goals
	grep -x "  start-up, net x fio.s wall     0.050 (goal: at most 0.05): met" goals
	grep -x "  start-up, x fio.s peak RSS     0.200 (goal: at most 0.2): met" goals
	grep -x "goals: 2 met, 0 tie, 0 kernel-bound, 0 host-bound, 0 behind, 0 over, 0 missed" goals
	# just above each goal (0.0505 and 0.2003 print as 0.051 and 0.200: the RSS one holds)
	printf "30200\t6010\n29000\t5000\n90000\t7000\n" >out/startup.iot.tsv
	IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals
	cat goals
	grep -x "  start-up, net x fio.s wall     0.051 (goal: at most 0.05): missed" goals
	grep -x "  start-up, x fio.s peak RSS     0.200 (goal: at most 0.2): met" goals
	printf "30000\t6100\n" >out/startup.iot.tsv
	IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals
	grep -x "  start-up, x fio.s peak RSS     0.203 (goal: at most 0.2): missed" goals
	# iotrial no slower than the harness alone: it measured nothing, missed (not a ratio
	# of 0 or below that would pass)
	printf "9000\t6000\n" >out/startup.iot.tsv
	IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals
	cat goals
	grep -x "  start-up, net x fio.s wall     nan (goal: at most 0.05): missed" goals
	# the harness'"'"'s rounds gone: nothing to subtract, missed
	printf "30000\t6000\n" >out/startup.iot.tsv
	rm out/startup.base.tsv
	IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals
	grep -x "  start-up, net x fio.s wall     nan (goal: at most 0.05): missed" goals
	printf "10000\t900\n" >out/startup.base.tsv
	# fio.s rounds gone: nothing to weigh, missed
	: >out/startup.fio.tsv
	IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals
	cat goals
	grep -x "  start-up, net x fio.s wall     nan (goal: at most 0.05): missed" goals
	grep -x "goals: 0 met, 0 tie, 0 kernel-bound, 0 host-bound, 0 behind, 0 over, 2 missed" goals
	# iotrial.s rounds file gone, fio.s there: missed too, not left out
	printf "400000\t30000\n" >out/startup.fio.tsv
	rm out/startup.iot.tsv
	IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals
	cat goals
	grep -x "  start-up, x fio.s peak RSS     nan (goal: at most 0.2): missed" goals
	grep -x "goals: 0 met, 0 tie, 0 kernel-bound, 0 host-bound, 0 behind, 0 over, 2 missed" goals
'

test_expect_success 'planning a 100000-point matrix: timed and measured with the iotrial named' '
	rm -rf out
	mkdir out
	: >out/rows
	IOTRIAL="$IOTRIAL" sh "$SRC/bench/goals.sh" out >goals
	cat goals
	grep -E "^  planning 100000 points +[0-9]+[.][0-9]+ s, [0-9]+[.][0-9] MiB \(goal: under 1 s and 100 MiB\): (met|missed)$" goals
	"$IOTRIAL" validate out/plan-points.yaml >plan.txt
	grep "^experiment points: 100000 job instance(s)" plan.txt
'

test_expect_success 'a row or goal with no rounds to weigh is missed, never met' '
	rm -rf out
	mkdir out
	# gone: no files; empty: no rounds; zero: fio moved nothing; nan: fio.s rounds unreadable;
	# apart: each tool has a round, but never the same one, so no round has a ratio
	printf "gone.irq\nempty.irq\nzero.irq\nnan.irq\napart.irq\n" >out/rows
	: >out/empty.irq.fio.tsv
	: >out/empty.irq.iot.tsv
	rounds out/zero.irq.fio.tsv "0 0 0" 0 0
	rounds out/zero.irq.iot.tsv "100 100 100" 7 1
	rounds out/nan.irq.fio.tsv "nan nan nan" nan nan
	rounds out/nan.irq.iot.tsv "100 100 100" 7 1
	rounds out/apart.irq.fio.tsv "100 nan nan" 10 1
	rounds out/apart.irq.iot.tsv "nan 90 90" 7 1
	# the record log without its unlogged rounds
	printf "80\t4000\n" >out/null-logged.logged.tsv
	printf "90\t4000\n" >out/null-logged.small.tsv
	IOTRIAL=/nonexistent sh "$SRC/bench/goals.sh" out >goals 2>err
	cat goals
	grep -x "  gone .*: missed; cpu .*: missed" goals
	grep -x "  empty .*: missed; cpu .*: missed" goals
	grep -x "  zero .*: missed; cpu .*: missed" goals
	grep -x "  nan .*: missed; cpu .*: missed" goals
	grep -x "  apart .* throughput 0.90 (rounds: 95% CI nan-nan): missed; cpu 0.70 .*: met" goals
	grep "^  record log, x unlogged .*: missed$" goals
	grep -x "goals: 1 met, 0 tie, 0 kernel-bound, 0 host-bound, 0 behind, 0 over, 10 missed" goals
	ls out >files
	not grep "[.]tp$" files
'

test_done
