# The rounds of bench/vs-fio.sh, as its per-round files hold them (line r of NAME.fio.tsv and
# NAME.iot.tsv is round r): sourced by bench/vs-fio.sh, for its table, and by bench/goals.sh.

# median of the numbers on stdin ("nan" for none)
median() { grep -E '^[-+]?[0-9.]+(e[-+]?[0-9]+)?$' | sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# col TSV N: the median of column N
col() { cut -f"$2" "$1" | median; }

# ratios FIO-TSV IOT-TSV: iotrial's throughput (column 1) over fio's, round by round, one a
# line; a round without a figure from both tools (or with fio's at 0) is left out, and so is
# every round of a file that is not there
ratios() {
	if [ ! -f "$1" ] || [ ! -f "$2" ]; then
		return 0
	fi
	cut -f1 "$1" >"$1.tp"
	cut -f1 "$2" >"$2.tp"
	paste "$1.tp" "$2.tp" | awk -F'\t' '
		function num(v) { return v ~ /^[-+]?[0-9.]+(e[-+]?[0-9]+)?$/ }
		num($1) && num($2) && $1 > 0 { printf "%.17g\n", $2 / $1 }'
	rm -f "$1.tp" "$2.tp"
}

# col_ratios TSV A B: column B over column A, round by round, one a line; a round without a
# positive figure in both is left out
col_ratios() {
	awk -F'\t' -v a="$2" -v b="$3" '
		function num(v) { return v ~ /^[-+]?[0-9.]+(e[-+]?[0-9]+)?$/ && v > 0 }
		num($a) && num($b) { printf "%.17g\n", $b / $a }' "$1"
}
