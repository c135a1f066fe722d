# Re-derives the figures of an iotrial results.json from its trials, as docs/results.md,
# docs/statistics.md and docs/experiments.md define them, and names every figure that does
# not follow: a trial's rates and status, a summary's STATs, required runs and
# before_outliers, a comparison's means, interval and verdict. The figures of a trial itself
# (seconds, bytes, latencies) can only be checked against the truth by the tests. Not
# re-derived: a Welch interval with a fractional df below 15 (no t table for it here).
# Output: {"problems": ["jobs[NAME]...: got X, expected Y", ...], "trials": N,
# "summaries": N, "comparisons": N}. Used by check_results (tests/t/lib.sh), with
# jq -L tests/t for the stats module.

include "stats";

def metric_of($m):
	if $m == "lat_mean_ns" then .lat_ns.mean else .[$m] end;

# One line per field of $got that is not near $want: "WHERE.FIELD: got X, expected Y".
def differ($where; $got; $want; $tol; $scale):
	$want | keys_unsorted[] as $k |
	select(($got[$k] | near($want[$k]; $tol; if $k | startswith("ci_") then $scale else 0 end)) | not) |
	"\($where).\($k): got \($got[$k]), expected \($want[$k])";
def differ($where; $got; $want; $tol): differ($where; $got; $want; $tol; 0);

def trial_problems($w):
	. as $t | "\($w).trials[\(.index)]" as $at |
	(select(.seconds != null) | ((.end_ns - .start_ns) / 1e9) as $span |
		select((.seconds | near($span; 1e-9)) | not) |
		"\($at).seconds: got \(.seconds), expected (end_ns - start_ns) / 1e9 = \((.end_ns - .start_ns) / 1e9)"),
	(select(.seconds != null and .seconds > 0) |
		differ($at; $t; {iops: (.ios / .seconds), bw_bytes: (.bytes / .seconds)}; 1e-9)),
	(select(.kept != (.ran and (.warmup | not) and (.failed | not) and (.dropped | not))) |
		"\($at).kept: got \(.kept), expected ran and not warmup, failed or dropped"),
	(select(.errors > 0 and (.failed | not)) | "\($at).failed: false with \(.errors) errors"),
	(select(.failed != (.error != null)) | "\($at).failed: \(.failed) with error \(.error)"),
	(select(.ios > 0) | .lat_ns |
		select([.min, .p50, .p90, .p95, .p99, .p99_9, .p99_99, .max] as $o |
			($o | map(type) | unique) != ["number"] or $o != ($o | sort)) |
		"\($at).lat_ns: not min <= p50 <= ... <= p99_99 <= max: \(.)"),
	(.lat_ns | select($t.ios > 0 and ((.min <= .mean and .mean <= .max and .rms >= .mean) | not)) |
		"\($at).lat_ns: mean \(.mean) outside [min, max] or above rms \(.rms)"),
	(select(.workers) | differ($at; $t;
		{bytes: ([.workers[].bytes] | add), ios: ([.workers[].ios] | add),
		 errors: ([.workers[].errors] | add)}; 0));

def summary_problems($w):
	.summary as $s | "\($w).summary" as $at |
	[.trials[] | select(.kept)] as $kept |
	[.trials[] | select(.ran and (.warmup | not))] as $ran |
	differ($at; $s; {runs: ($ran | length), kept: ($kept | length)}; 0),
	(("seconds", "bw_bytes", "iops", "lat_mean_ns") as $m |
		($s[$m].confidence) as $c |
		([$kept[] | metric_of($m) | select(. != null)] | stat($c)) as $st |
		differ("\($at).\($m)"; $s[$m]; $st; 1e-7;
			($st.mean // 0 | fabs) + (($st.ci_high // 0) - ($st.ci_low // 0)) / 2)),
	($s.required_runs | select(.confidence != 0.95) | "\($at).required_runs: cannot check confidence \(.confidence)"),
	($s.required_runs | select(.confidence == 0.95) | .metric as $m |
		([$kept[] | metric_of($m) | select(. != null)] | stat(0.95)) as $st |
		(if $st.stddev == null or $st.mean == 0 then null
		 else (z975 * $st.stddev / (.error * ($st.mean | fabs))) as $r |
			$r * $r * (1 - 1e-12) | ceil end) as $n |
		select(.n != $n) | "\($at).required_runs.n: got \(.n), expected \($n) (metric \($m))"),
	($s.before_outliers | select(.) | ($s.metric // "seconds") as $m |
		[$ran[] | select(.failed | not) | metric_of($m) | select(. != null)] as $xs |
		($xs | stat(0.95)) as $st |
		differ("\($at).before_outliers"; .; {runs: ($xs | length), mean: $st.mean,
			stddev: $st.stddev, cov: $st.cov}; 1e-7));

def comparison_problems($jobs):
	. as $c | "comparisons[\(.a) vs \(.b)]" as $at |
	($jobs[] | select(.name == $c.a) | .trials) as $ta |
	($jobs[] | select(.name == $c.b) | .trials) as $tb |
	(if .test == "paired-t" then
		[$ta[] | select(.kept) | . as $x | $tb[] | select(.kept and .index == $x.index) |
			[($x | metric_of($c.metric)), metric_of($c.metric)]]
	 else null end) as $pairs |
	(if $pairs then [$pairs[][0]] else [$ta[] | select(.kept) | metric_of($c.metric)] end) as $a |
	(if $pairs then [$pairs[][1]] else [$tb[] | select(.kept) | metric_of($c.metric)] end) as $b |
	($a | length) as $na | ($b | length) as $nb |
	(if $na > 0 then $a | mean else null end) as $ma |
	(if $nb > 0 then $b | mean else null end) as $mb |
	(if $pairs then
		($pairs | map(.[0] - .[1])) as $d |
		{diff: (if $na > 0 then $d | mean else null end),
		 half: (if $na > 1 then t975($na - 1) * ($d | sd) / ($na | sqrt) else null end),
		 df: (if $na > 1 then $na - 1 else null end)}
	 elif $na > 1 and $nb > 1 then
		(($a | sd) as $sa | ($b | sd) as $sb | ($sa * $sa / $na) as $va | ($sb * $sb / $nb) as $vb |
		 (if $va + $vb == 0 then $na + $nb - 2
		  else ($va + $vb) * ($va + $vb) / ($va * $va / ($na - 1) + $vb * $vb / ($nb - 1)) end) as $df |
		 {diff: ($ma - $mb), df: $df, half: (if t975($df) then t975($df) * ($va + $vb | sqrt) else "unchecked" end)})
	 else {diff: (if $na > 0 and $nb > 0 then $ma - $mb else null end), half: null, df: null} end) as $e |
	(if $e.half == "unchecked" then {} else
		{ci_low: (if $e.half == null then null else $e.diff - $e.half end),
		 ci_high: (if $e.half == null then null else $e.diff + $e.half end)} end) as $ci |
	differ($at; $c; {n_a: $na, n_b: $nb, mean_a: $ma, mean_b: $mb, diff_mean: $e.diff, df: $e.df,
		ratio: (if $mb == null or $mb == 0 then null else $ma / $mb end)} + $ci; 1e-7;
		($e.diff // 0 | fabs) + (if $e.half | type == "number" then $e.half else 0 end)),
	(select(.confidence != 0.95) | "\($at): cannot check confidence \(.confidence)"),
	(select(.significant != (.ci_low != null and (.ci_low > 0 or .ci_high < 0))) |
		"\($at).significant: got \(.significant) for [\(.ci_low), \(.ci_high)]");

.jobs as $jobs |
{problems: [
	($jobs[] | "jobs[\(.name)]" as $w | (.trials[] | trial_problems($w)), summary_problems($w)),
	((.comparisons // [])[] | comparison_problems($jobs))],
 trials: ([$jobs[].trials[]] | length), summaries: ($jobs | length),
 comparisons: ((.comparisons // []) | length)}
