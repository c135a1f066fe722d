#!/bin/bash
# A results.json may be someone else's (a colleague's run, a download): the strings in it
# (names, matrix values, the host, errors, --set keys and values) reach a terminal through
# `iotrial report` and `iotrial compare`. The text shows their control characters written
# out, never raw; trials.csv quotes a text cell that a spreadsheet would run as a formula;
# the SVG plots of report.html stay well-formed XML, their labels cut between characters.
. "$(dirname "$0")/lib.sh"
need_cmd jq

cat >j.yaml <<'JOB'
experiment: hx
description: hostile strings
replication: {runs: 2, warmup: 0}
jobs:
  - {name: w, workload: read, backend: null, file_size: 64KiB, block_size: 4KiB, matrix: {target: [a.dat, b.dat]}}
compare:
  - {a: {target: a.dat}, b: {target: b.dat}}
JOB

# hostile.jq: an OSC that sets the window title, CR and an erase-line, a C1 CSI and DEL, a
# colour and a line break in a job name, an OSC 8 hyperlink in an error.
cat >hostile.jq <<'JQ'
.experiment = "hx\u001b]0;pwned\u0007"
| .description = "d\r\u001b[2Kfake"
| .env.hostname = "h\u009b31m\u007f"
| .jobs[0].name = "w\u001b[31mred\nFAKE row"
| .jobs[0].trials[0] += {failed: true, error: "boom\u001b]8;;http://x\u0007link\u001b]8;;\u0007"}
JQ

# no_controls FILE: no control character but the line ends, no C1 control in UTF-8.
no_controls() {
	not env LC_ALL=C grep -n "[[:cntrl:]]" "$1"
	not env LC_ALL=C grep -nP "\xc2[\x80-\x9f]" "$1"
}

test_expect_success 'a run on the null backend, then its results.json with hostile strings' '
	"$IOTRIAL" run -q -f json -o r j.yaml
	jq -f hostile.jq r/results.json >bad.json
	expect_eq "$(jq -r .jobs[0].name bad.json | wc -l)" 2
'

test_expect_success 'report -f text: every control character of results.json written out' '
	"$IOTRIAL" report bad.json >out.txt
	no_controls out.txt
	grep -xF "hx\x1b]0;pwned\x07: d\r\x1b[2Kfake" out.txt
	grep -F "host h\xc2\x9b31m\x7f" out.txt
	grep -F "note: w\x1b[31mred\nFAKE row: 1 trial(s) failed; the first: boom\x1b]8;;http://x\x07link\x1b]8;;\x07" out.txt
	not grep "^FAKE" out.txt
'

test_expect_success 'report -f text: a name with an escape pads its columns as shown' '
	grep -E "^w\\\\x1b\[31mred\\\\nFAKE row  read  +2/2 " out.txt
	grep -E "^w\[target=b\.dat\]         read  +2/2 " out.txt
'

test_expect_success 'compare: the names and experiments of both files written out' '
	"$IOTRIAL" compare bad.json r/results.json >cmp.txt
	"$IOTRIAL" compare r/results.json bad.json >>cmp.txt
	no_controls cmp.txt
	grep -F "comparing A = bad.json (hx\x1b]0;pwned\x07, started" cmp.txt
	grep -xF "w\x1b[31mred\nFAKE row: only in A" cmp.txt
	grep -xF "w\x1b[31mred\nFAKE row: only in B" cmp.txt
	not grep "^FAKE" cmp.txt
'

test_expect_success 'run: an escape in a --set description is written out on stdout' '
	"$IOTRIAL" run -f text -o s --set "description=$(printf "x\033[2J")" j.yaml >run.txt
	no_controls run.txt
	grep -xF "hx: x\x1b[2J" run.txt
'

# csv.jq: text cells that start as formulas (=, @, -, +, a tab), and a matrix value that is
# a negative number, which must stay one.
cat >csv.jq <<'JQ'
.experiment = "=1+1"
| .jobs[0].name = "@SUM(A1)"
| .jobs[0].params.target = "-2+3"
| .jobs[1].params.target = -1.5
| .jobs[0].trials[0] += {failed: true, error: "+cmd|x"}
| .jobs[0].trials[1] += {failed: true, error: "\tboo"}
JQ

test_expect_success 'trials.csv: a text cell that starts as a formula is quoted behind a quote; a number is not' '
	jq -f csv.jq r/results.json >csv.json
	"$IOTRIAL" report -f csv csv.json >out.csv
	expect_eq "$(cut -d, -f1-4 out.csv)" "experiment,job,target,trial
\"'"'"'=1+1\",\"'"'"'@SUM(A1)\",\"'"'"'-2+3\",0
\"'"'"'=1+1\",\"'"'"'@SUM(A1)\",\"'"'"'-2+3\",1
\"'"'"'=1+1\",w[target=b.dat],-1.5,0
\"'"'"'=1+1\",w[target=b.dat],-1.5,1"
	grep -F ",null,read,\"'"'"'+cmd|x\",," out.csv
	grep -F ",null,read,\"'"'"'$(printf "\t")boo\",," out.csv
'

# svg.jq: labels longer than their room, of two-byte characters at an odd offset, so a cut
# by bytes would halve one (a matrix value: an x tick; an instance name: a plot's title; a
# comparison's label: its x tick, cut to 26 bytes), and characters XML 1.0 cannot hold.
cat >svg.jq <<'JQ'
.jobs[0].params.target = ("a" + "é" * 20)
| .jobs[1].params.target = ("b" + "ü" * 20)
| .jobs[] |= (.job = ("j" + "ж" * 200))
| .comparisons[0].a_label = ("a" + "é" * 20)
| .comparisons[0].b_label = "x\u001by\uffff"
| .jobs[1].name = ("w" + "é" * 200)
| .comparisons[0].b = .jobs[1].name
JQ

# svgs FILE: each <svg> element of report.html FILE into FILE.N.svg; prints how many.
svgs() {
	awk -v f="$1" '/<svg / { n++; sub(/^.*<svg /, "<svg ") } n && !done[n] { print >(f "." n ".svg") } /<\/svg>/ { done[n] = 1 } END { print n + 0 }' "$1"
}

need_cmd xmllint

test_expect_success 'report.html: every SVG plot is well-formed XML, its labels cut between characters' '
	jq -f svg.jq r/results.json >svg.json
	"$IOTRIAL" report -f html -o svg.html svg.json
	iconv -f UTF-8 -t UTF-8 svg.html >/dev/null
	expect_eq "$(svgs svg.html)" 4
	for f in svg.html.*.svg; do
		xmllint --noout "$f"
	done
	grep -F "class=\"ticklabel\">aééééééééééééééé<" svg.html
	grep -F "class=\"ticklabel\">a: aéééééééééééé<" svg.html
	grep -F "class=\"ticklabel\">b: x�y�<" svg.html
	grep -F "<title>j$(printf "ж%.0s" $(seq 127))</title>" svg.html
	not grep -F "�</title>" svg.html
	grep -F "class=\"plot plot-compare\"" svg.html
'

test_done
