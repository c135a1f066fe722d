#!/bin/bash
# The iotrial that tests/mutants.sh puts in $IOTRIAL: runs the real binary ($IOTRIAL_REAL),
# then falsifies what it wrote, as mutant $MUTANT says, to show that some shell test notices.
# MUTANT_LIST=1 prints the mutants, "NAME<TAB>what it falsifies", one a line.
#
# A mutant of results.json is edited with jq, written back by the real `iotrial report -f
# json` (so its layout stays the binary's own), and trials.csv, summary.txt and the summary
# on stdout (when stdout is a file: a pipe, a device or a closed stdout is left to the binary)
# are rewritten from it by `iotrial report`: every file of the folder tells the same wrong
# story, as if the engine had measured or computed it so. Only a test that checks a
# figure against the truth, or re-derives it from the trials, can catch such a mutant. The
# other mutants falsify one output alone (trials.csv, summary.txt, stdout, stderr, the exit
# status, the record log) to catch a test that reads the wrong one, or none.
#
# Each run appends "applied NAME: WHAT" (when it changed something) or "broken NAME: WHY" to
# $MUTANT_LOG. Signals are passed on to the real binary, which dies with the wrapper.

if [ -z "${MUTANT_REEXEC:-}" ]; then
	# A shell started in the background ignores SIGINT and cannot trap it; a test that
	# interrupts "$IOTRIAL" needs it passed on, so start again with SIGINT at its default.
	export MUTANT_REEXEC=1
	# (env, not perl: perl would open /dev/null on a closed stdout.)
	exec env --default-signal=INT,QUIT /bin/bash "$0" "$@"
fi
unset MUTANT_REEXEC

# name, then what it falsifies
list() {
	cat <<'LIST'
identity	nothing: results.json goes through jq and back, the rest is rewritten from it (a control)
status-kept	the first kept trial of every job is marked not kept
status-failed	the first trial of every job has failed flipped
status-warmup	the first trial of every job has warmup flipped
status-complete	complete is flipped
summary-kept	summary.kept of every job is one less
errors	every trial has one error more
seconds	every trial's seconds is 5% more
bw_bytes	every trial's bw_bytes is 5% more
iops	every trial's iops is 5% more
bytes	every trial's bytes is 5% (at least 1) more
ios	every trial's ios is 5% (at least 1) more
lat-mean	every trial's lat_ns.mean is 5% more
lat-max	every trial's lat_ns.max is 5% more
p50	every trial's lat_ns.p50 is 5% more
p99	every trial's lat_ns.p99 is 5% more
p99_9	every trial's lat_ns.p99_9 is 5% more
ci-low	summary.seconds.ci_low of every job is 3% lower
ci-high	summary.seconds.ci_high of every job is 3% higher
stat-mean	summary.seconds.mean of every job is 3% more
stat-stddev	summary.seconds.stddev of every job is 5% more
stat-cov	summary.seconds.cov of every job is 5% more
stat-median	summary.seconds.median of every job is 3% more
stat-bw-mean	summary.bw_bytes.mean of every job is 5% more
stat-lat-mean	summary.lat_mean_ns.mean of every job is 5% more
required-n	summary.required_runs.n of every job is one more
cmp-diff	every comparison's diff_mean is 5% more
cmp-ci	every comparison's ci_high is 5% more
cmp-significant	every comparison's significant is flipped
csv-row	trials.csv loses its last row (results.json untouched)
csv-value	the first row of trials.csv has seconds 5% more (results.json untouched)
summary-txt	summary.txt loses its last line (stdout untouched)
stdout-line	the summary on stdout loses its last line (summary.txt untouched)
text-figure	the first job's seconds in the text summary, stdout and summary.txt alike, reads 5% more
records-line	every record log (records/*.csv but intervals) loses its last line
compare-verdict	iotrial compare says slower for faster and faster for slower
compare-figure	iotrial compare gives the first percentage 5% more
exit-0to1	iotrial run exits 1 where it exited 0
exit-1to0	iotrial run exits 0 where it exited 1
exit-2to0	every command exits 0 where it exited 2
exit-1to0-validate	iotrial validate exits 0 where it exited 1
exit-130to0	iotrial run exits 0 where it exited 130 (SIGINT)
exit-143to0	iotrial run exits 0 where it exited 143 (SIGTERM)
stderr-dropped	no command writes anything to stderr
stderr-first-line	every command loses the first line it wrote to stderr
LIST
}

if [ -n "${MUTANT_LIST:-}" ]; then
	list
	exit 0
fi

real=${IOTRIAL_REAL:-$(cd "$(dirname "$0")/.." && pwd)/iotrial}
mutant=${MUTANT:-none}
log=${MUTANT_LOG:-/dev/null}
cmd=${1:-}
tmp=$(mktemp -d "${MUTANT_TMP:-${TMPDIR:-/tmp}}/mutant.XXXXXX") || exit 125
trap 'rm -rf "$tmp"' EXIT

note() { echo "$1 $mutant: $2" >>"$log"; }

# The jq filter of a results.json mutant; nothing for the others.
json_filter() {
	local more='def more(f): if type == "number" then . * f else . end;
		def plus: if type == "number" then . + ([. * 0.05 | floor, 1] | max) else . end;
		def first_trial(f): .jobs |= map(if (.trials | length) > 0 then .trials[0] |= f else . end);'
	case $1 in
	identity) echo '.' ;;
	status-kept) echo '.jobs |= map(([.trials | to_entries[] | select(.value.kept) | .key][0]) as $i |
		if $i == null then . else .trials[$i].kept = false end)' ;;
	status-failed) echo "$more first_trial(.failed |= not)" ;;
	status-warmup) echo "$more first_trial(.warmup |= not)" ;;
	status-complete) echo '.complete |= not' ;;
	summary-kept) echo '.jobs[].summary.kept |= . - 1' ;;
	errors) echo '.jobs[].trials[].errors |= . + 1' ;;
	seconds | bw_bytes | iops) echo "$more .jobs[].trials[].$1 |= more(1.05)" ;;
	bytes | ios) echo "$more .jobs[].trials[].$1 |= plus" ;;
	lat-mean) echo "$more .jobs[].trials[].lat_ns.mean |= more(1.05)" ;;
	lat-max) echo "$more .jobs[].trials[].lat_ns.max |= more(1.05)" ;;
	p50 | p99 | p99_9) echo "$more .jobs[].trials[].lat_ns.$1 |= more(1.05)" ;;
	ci-low) echo "$more .jobs[].summary.seconds.ci_low |= more(0.97)" ;;
	ci-high) echo "$more .jobs[].summary.seconds.ci_high |= more(1.03)" ;;
	stat-mean) echo "$more .jobs[].summary.seconds.mean |= more(1.03)" ;;
	stat-stddev) echo "$more .jobs[].summary.seconds.stddev |= more(1.05)" ;;
	stat-cov) echo "$more .jobs[].summary.seconds.cov |= more(1.05)" ;;
	stat-median) echo "$more .jobs[].summary.seconds.median |= more(1.03)" ;;
	stat-bw-mean) echo "$more .jobs[].summary.bw_bytes.mean |= more(1.05)" ;;
	stat-lat-mean) echo "$more .jobs[].summary.lat_mean_ns.mean |= more(1.05)" ;;
	required-n) echo '.jobs[].summary.required_runs.n |= (if type == "number" then . + 1 else . end)' ;;
	cmp-diff) echo "$more .comparisons[].diff_mean |= more(1.05)" ;;
	cmp-ci) echo "$more .comparisons[].ci_high |= more(1.05)" ;;
	cmp-significant) echo '.comparisons[].significant |= not' ;;
	esac
}
filter=$(json_filter "$mutant")

# The result folders this run wrote: -o DIR (or DIR/EXPERIMENT-STAMP/ with several job
# files), else results/EXPERIMENT-STAMP/; found as the results.json files newer than a stamp.
# Only folders whose job_file.path is one of this run's job files: several runs of other
# job files may be writing to results/ at the same time.
outbase=results
jobfiles=()
if [ "$cmd" = run ]; then
	skip=
	for a in "${@:2}"; do
		if [ -n "$skip" ]; then
			[ "$skip" = -o ] && outbase=$a
			skip=
			continue
		fi
		case $a in
		-o | -f | --set | --progress) skip=$a ;;
		-o?*) outbase=${a#-o} ;;
		-*) ;;
		*) jobfiles+=("$a") ;;
		esac
	done
fi
ours() { # results.json
	local p
	p=$(jq -r '.job_file.path' "$1" 2>/dev/null) || return 1
	for j in "${jobfiles[@]}"; do [ "$j" = "$p" ] && return 0; done
	return 1
}
: >"$tmp/stamp"
sleep 0.01 # so that a file written after the stamp is newer than it

# Capture stdout where a mutant rewrites it: a run's summary, compare's sentences.
capture=
case $mutant:$cmd in
*:run) [ -n "$filter" ] || [ "$mutant" = stdout-line ] || [ "$mutant" = text-figure ] && capture=1 ;;
compare-*:compare) capture=1 ;;
esac
[ "$outbase" = - ] && capture=
# Only a stdout that is a file: a closed one, a pipe or a device stays the binary's own
# (what it does when stdout is closed, has no reader or is full is tested).
[ -f /proc/$$/fd/1 ] || capture=

# Run the real binary: SIGINT back at its default (the shell ignores it in a background
# job), killed when this wrapper is (setpriv --pdeathsig), stderr filtered as the mutant says.
start=(env --default-signal=INT,QUIT)
command -v setpriv >/dev/null && start+=(setpriv --pdeathsig KILL --)
case $mutant in
stderr-dropped) exec 3>/dev/null ;;
stderr-first-line) exec 3> >(sed -u 1d >&2) ;;
*) [ -e /proc/$$/fd/2 ] && exec 3>&2 ;; # 3 stays closed when stderr is
esac
filter_pid=$!
# The child's stderr is fd 3 (closed when it is), its stdout the file or ours.
[ -n "$capture" ] && exec 4>&1 >"$tmp/stdout"
if [ -e /proc/$$/fd/3 ]; then
	"${start[@]}" "$real" "$@" 2>&3 &
else
	"${start[@]}" "$real" "$@" 2>&- &
fi
child=$!
[ -n "$capture" ] && exec 1>&4 4>&-
exec 3>&-
trap 'kill -INT $child 2>/dev/null' INT
trap 'kill -TERM $child 2>/dev/null' TERM
wait $child
while kill -0 $child 2>/dev/null; do wait $child; done
wait $child
rc=$?
trap - INT TERM
[ "$mutant" = stderr-first-line ] && wait "$filter_pid" 2>/dev/null

case $mutant in stderr-*) note applied "stderr of $cmd" ;; esac

# A results.json mutant: edit, canonicalize, rewrite the rest of the folder from it.
mutate_folder() { # folder
	local d=$1
	jq "$filter" "$d/results.json" >"$tmp/edited.json" 2>"$tmp/jq.err" || {
		note broken "jq on $d/results.json: $(head -1 "$tmp/jq.err")"
		return
	}
	if ! "$real" report -f json "$tmp/edited.json" >"$tmp/canon.json" 2>"$tmp/report.err"; then
		note broken "report -f json of the edited $d/results.json: $(head -1 "$tmp/report.err")"
		return
	fi
	cmp -s "$tmp/canon.json" "$d/results.json" && [ "$mutant" != identity ] && return
	# Replaced by rename, so that another run's wrapper never reads half a file.
	mv "$tmp/canon.json" "$d/results.json"
	[ -e "$d/trials.csv" ] && "$real" report -f csv "$d/results.json" >"$tmp/csv" &&
		mv "$tmp/csv" "$d/trials.csv"
	if [ -e "$d/summary.txt" ]; then
		cp "$d/summary.txt" "$tmp/old_summary"
		"$real" report -f text "$d/results.json" >"$tmp/summary" &&
			mv "$tmp/summary" "$d/summary.txt"
		# The summary printed is what summary.txt holds.
		[ -n "$capture" ] && cmp -s "$tmp/stdout" "$tmp/old_summary" &&
			cp "$d/summary.txt" "$tmp/stdout"
	fi
	note applied "$d/results.json"
}

# The seconds column of the first row of the text table, 5% more (same width).
text_figure() { # file
	awk 'BEGIN { done = 0 }
		/^job  / { for (i = 1; i <= NF; i++) if ($i == "seconds") col = i; print; next }
		col && !done && NF >= col && $col ~ /^[0-9.]+$/ {
			v = sprintf("%.3f", $col * 1.05 + 0.001)
			sub(" " $col " ", " " v " ")
			done = 1
		}
		{ print }' "$1" >"$tmp/text" && mv "$tmp/text" "$1"
}

if [ "$cmd" = run ] && [ "$outbase" != - ]; then
	for f in $(find "$outbase" -maxdepth 2 -name results.json -newer "$tmp/stamp" 2>/dev/null); do
		d=$(dirname "$f")
		ours "$f" || continue
		if [ -n "$filter" ]; then
			mutate_folder "$d"
			continue
		fi
		case $mutant in
		csv-row)
			[ "$(wc -l <"$d/trials.csv")" -gt 1 ] && sed -i '$d' "$d/trials.csv" &&
				note applied "$d/trials.csv"
			;;
		csv-value)
			awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seconds") c = i }
				NR == 2 && c && $c != "" { $c = $c * 1.05 } { print }' "$d/trials.csv" >"$tmp/csv" &&
				mv "$tmp/csv" "$d/trials.csv" && note applied "$d/trials.csv"
			;;
		summary-txt)
			sed -i '$d' "$d/summary.txt" && note applied "$d/summary.txt"
			;;
		text-figure)
			if [ -e "$d/summary.txt" ]; then
				cp "$d/summary.txt" "$tmp/old_summary"
				text_figure "$d/summary.txt"
				cmp -s "$tmp/stdout" "$tmp/old_summary" && cp "$d/summary.txt" "$tmp/stdout"
				cmp -s "$d/summary.txt" "$tmp/old_summary" || note applied "$d/summary.txt"
			fi
			;;
		records-line)
			for r in "$d"/records/*.csv; do
				case $r in *.intervals.csv | "$d/records/*.csv") continue ;; esac
				sed -i '$d' "$r" && note applied "$r"
			done
			;;
		esac
	done
fi

if [ -n "$capture" ]; then
	case $mutant in
	stdout-line)
		[ -s "$tmp/stdout" ] && sed -i '$d' "$tmp/stdout" && note applied "stdout of run"
		;;
	compare-verdict)
		sed -i 's/ is slower than / is FASTER than /; s/ is faster than / is slower than /;
			s/ is FASTER than / is faster than /' "$tmp/stdout"
		note applied "stdout of compare"
		;;
	compare-figure)
		awk '!done && match($0, /by [0-9.]+%/) {
			v = substr($0, RSTART + 3, RLENGTH - 4)
			$0 = substr($0, 1, RSTART - 1) "by " sprintf("%.1f", v * 1.05 + 0.1) "%" substr($0, RSTART + RLENGTH)
			done = 1 } { print }' "$tmp/stdout" >"$tmp/stdout.new" && mv "$tmp/stdout.new" "$tmp/stdout"
		note applied "stdout of compare"
		;;
	esac
	cat "$tmp/stdout"
fi

case $mutant:$cmd:$rc in
exit-0to1:run:0) note applied "exit 0 -> 1"; rc=1 ;;
exit-1to0:run:1) note applied "exit 1 -> 0"; rc=0 ;;
exit-2to0:*:2) note applied "exit 2 -> 0 ($cmd)"; rc=0 ;;
exit-1to0-validate:validate:1) note applied "exit 1 -> 0"; rc=0 ;;
exit-130to0:run:130) note applied "exit 130 -> 0"; rc=0 ;;
exit-143to0:run:143) note applied "exit 143 -> 0"; rc=0 ;;
esac
exit $rc
