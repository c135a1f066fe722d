#!/bin/sh
# Puts bench/out/vs-fio.txt, the table of the last full run of bench/vs-fio.sh, into
# README.md between its two marker lines, as a text block: the README shows the latest
# table and the machine it came from (make bench runs both; tests/t/t0025-bench.sh checks
# that the two agree).
set -eu
cd "$(dirname "$0")/.."
table=bench/out/vs-fio.txt
[ -s "$table" ] || { echo "quote-table: no $table (run bench/vs-fio.sh with no pair named)" >&2; exit 1; }
begin='<!-- bench/out/vs-fio.txt: begin -->'
end='<!-- bench/out/vs-fio.txt: end -->'
if [ "$(grep -c -x -e "$begin" -e "$end" README.md)" != 2 ]; then
	echo "quote-table: README.md needs the lines '$begin' and '$end', once each" >&2
	exit 1
fi
awk -v b="$begin" -v e="$end" -v t="$table" '
	$0 == b { print; print "```text"; while ((getline l <t) > 0) print l; print "```"; skip = 1; next }
	$0 == e { skip = 0 }
	!skip
' README.md >README.md.tmp
mv README.md.tmp README.md
echo "quote-table: README.md quotes $table"
