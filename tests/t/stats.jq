# Statistics for the tests, as docs/statistics.md defines them: the t quantile at 97.5%, mean,
# sample standard deviation, median and the STAT of a list of numbers. A jq module: use it
# with `jq -L "$SRC/tests/t"` and `include "stats";`.

# Relative closeness (relative to $scale when given: the ends of an interval, which may lie
# near 0, are compared on the scale of the mean and the half-width); null only matches null.
def near($want; $tol; $scale):
	if $want == null or . == null then . == $want
	else ((. - $want) | fabs) <= $tol * ([($want | fabs), (. | fabs), $scale] | max) end;
def near($want; $tol): near($want; $tol; 0);

def z975: 1.959963984540054;

# t(0.975, df): a table for whole df up to 15, else Abramowitz & Stegun 26.7.5 to 1/df^5
# (relative error below 1e-7 from df 15 on); null for a fractional df below 15.
def t975($df):
	if $df == ($df | floor) and $df >= 1 and $df <= 15 then
		[null, 12.7062047, 4.3026527, 3.1824463, 2.7764451, 2.5705818, 2.4469119,
		 2.3646243, 2.3060041, 2.2621572, 2.2281389, 2.2009852, 2.1788128, 2.1603687,
		 2.1447867, 2.1314495][$df]
	elif $df > 15 then
		z975 as $z |
		$z + ($z * $z * $z + $z) / 4 / $df
		+ (5 * pow($z; 5) + 16 * pow($z; 3) + 3 * $z) / 96 / pow($df; 2)
		+ (3 * pow($z; 7) + 19 * pow($z; 5) + 17 * pow($z; 3) - 15 * $z) / 384 / pow($df; 3)
		+ (79 * pow($z; 9) + 776 * pow($z; 7) + 1482 * pow($z; 5) - 1920 * pow($z; 3)
		   - 945 * $z) / 92160 / pow($df; 4)
		+ (27 * pow($z; 11) + 339 * pow($z; 9) + 930 * pow($z; 7) - 1782 * pow($z; 5)
		   - 765 * pow($z; 3) + 17955 * $z) / 368640 / pow($df; 5)
	else null end;

def mean: add / length;
def sd: mean as $m | (map((. - $m) * (. - $m)) | add) / (length - 1) | sqrt;
def median: sort | length as $n |
	if $n % 2 == 1 then .[($n - 1) / 2] else .[$n / 2 - 1] / 2 + .[$n / 2] / 2 end;

# The STAT of the numbers in ., at confidence $c.
def stat($c):
	length as $n | (if $n > 0 then mean else null end) as $mean |
	(if $n > 1 then sd else null end) as $sd |
	{mean: $mean, stddev: $sd,
	 cov: (if $sd == null or $mean == 0 then null else $sd / ($mean | fabs) end),
	 median: (if $n > 0 then median else null end),
	 min: (if $n > 0 then min else null end), max: (if $n > 0 then max else null end),
	 ci_low: (if $sd == null then null else $mean - t975($n - 1) * $sd / ($n | sqrt) end),
	 ci_high: (if $sd == null then null else $mean + t975($n - 1) * $sd / ($n | sqrt) end),
	 confidence: $c};
