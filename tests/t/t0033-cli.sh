#!/bin/bash
# A well-behaved command (issue 15 items 6 and 3): usage errors in two lines (what, and where the
# help is), `iotrial keys NAME`, the man pages, bash completion and the job file's JSON
# Schema, each made from the key table and docs/; progress on a terminal and elsewhere.
. "$(dirname "$0")/lib.sh"

printf 'jobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB}\n' >ok.yaml

# expect_usage CMD HINT ARGS...: exit 2, two lines on stderr, the second the hint for CMD,
# nothing on stdout.
expect_usage() {
	hint=$1
	shift
	expect_code 2 "$IOTRIAL" "$@" >out 2>err
	expect_eq "$(wc -l <err)" 2 "stderr lines of iotrial $*"
	expect_eq "$(sed -n 2p err)" "iotrial: see 'iotrial ${hint:+$hint }--help'"
	not grep -q usage: err
	expect_eq "$(wc -c <out)" 0 "stdout of iotrial $*"
}

test_expect_success 'a usage error is one line and the hint, not the whole help' '
	expect_usage run run --bogus ok.yaml
	expect_eq "$(head -1 err)" "iotrial: unknown option '"'"'--bogus'"'"'"
	expect_usage run run -Z ok.yaml
	expect_eq "$(head -1 err)" "iotrial: unknown option '"'"'-Z'"'"'"
	expect_usage run run ok.yaml -o
	expect_eq "$(head -1 err)" "iotrial: option '"'"'-o'"'"' needs a value"
	expect_usage run run ok.yaml --progress
	expect_eq "$(head -1 err)" "iotrial: option '"'"'--progress'"'"' needs a value"
	expect_usage run run ok.yaml --progress=sometimes
	expect_usage run run ok.yaml -f txt
	expect_usage run run ok.yaml --set nokey
	expect_usage run run
	expect_usage validate validate --force ok.yaml
	expect_eq "$(head -1 err)" "iotrial: option '"'"'--force'"'"' is for '"'"'iotrial run'"'"'"
	expect_usage validate validate --bogus ok.yaml
	expect_usage report report
	expect_usage report report -f pdf x.json
	expect_usage report report --bogus x.json
	expect_usage compare compare a.json
	expect_usage compare compare --metric speed a.json b.json
	expect_usage compare compare --confidence 2 a.json b.json
	expect_usage compare compare --bogus a.json b.json
	expect_usage keys keys nokey
	expect_usage keys keys --bogus
	expect_usage keys keys a b
	expect_usage "" frobnicate
'

test_expect_success 'CMD --help prints the whole help on stdout, exit 0' '
	for cmd in run validate report compare keys; do
		"$IOTRIAL" $cmd --help >help.$cmd
		grep -q "^usage: iotrial run" help.$cmd
	done
'

test_expect_success 'iotrial keys NAME describes the key from the table' '
	"$IOTRIAL" keys block_size >bs
	expect_eq "$(sed -n 1p bs)" "block_size"
	grep -qx "  type:     size" bs
	grep -qx "  default:  4KiB" bs
	grep -qx "  values:   1 to 1GiB" bs
	grep -qx "  example:  block_size: 1MiB" bs
	grep -qx "  fio:      bs, blocksize" bs
	grep -q "^  bytes per I/O for read, write, randread and randwrite" bs
	"$IOTRIAL" keys workload >wl
	grep -qx "  default:  none" wl
	grep -qx "  values:   read, write, randread, randwrite, copy, copytree, command, readwrite, randrw" wl
	"$IOTRIAL" keys sim_outliers >so
	grep -qx "  values:   0 to 1" so
	grep -qx "  fio:      none" so
	"$IOTRIAL" keys stonewall_cap >sc
	grep -qx "  values:   1ms to 720h" sc
'

test_expect_success 'every key of the list is described, with its default and meaning' '
	"$IOTRIAL" keys >list
	test "$(wc -l <list)" -gt 30
	"$IOTRIAL" backends | awk "NR > 1 { print \$1 }" >backends
	while IFS="	" read -r name type def help; do
		if grep -qx "$name" backends; then
			continue # sync: the backend of that name comes first
		fi
		"$IOTRIAL" keys "$name" >one
		expect_eq "$(sed -n 1p one)" "$name"
		grep -qxF "  type:     $type" one
		if [ "$def" = - ]; then def=none; fi
		grep -qxF "  default:  $def" one
		grep -qxF "  $help" one
	done <list
'

test_expect_success 'a backend option is a key; a backend name lists its options' '
	"$IOTRIAL" keys null_delay >nd
	grep -qx "  type:     duration" nd
	"$IOTRIAL" keys null >null
	cut -f1 null >null_names
	grep -qx null_delay null_names
	expect_eq "$(awk -F"\t" "NF != 5" null | wc -l)" 0
	"$IOTRIAL" keys sync >sync
	expect_eq "$(wc -c <sync)" 0 "sync names a backend without options first"
'

test_expect_success 'an unknown key names the closest one' '
	expect_code 2 "$IOTRIAL" keys iodeth 2>err
	expect_eq "$(head -1 err)" "iotrial: keys: no key or backend '"'"'iodeth'"'"' (did you mean '"'"'iodepth'"'"'?)"
	expect_code 2 "$IOTRIAL" keys zzzzzzzz 2>err
	expect_eq "$(head -1 err)" "iotrial: keys: no key or backend '"'"'zzzzzzzz'"'"'"
'

need_cmd jq

test_expect_success 'iotrial keys --json is the table: the same keys, types and defaults' '
	"$IOTRIAL" keys --json >keys.json
	"$IOTRIAL" keys >list
	jq -r ".[] | select(.backend == null) | [.name, .type, (.default // \"-\"), .help] | @tsv" keys.json >from_json
	expect_eq "$(cat from_json)" "$(cat list)"
	expect_eq "$(jq -r ".[] | select(.name == \"block_size\") | [.min, .max] | @tsv" keys.json)" "1	1073741824"
	expect_eq "$(jq -r ".[] | select(.name == \"fault_eio_offset\") | has(\"max\")" keys.json)" false
	expect_eq "$(jq -r ".[] | select(.name == \"sync\") | .values | join(\",\")" keys.json)" "none,osync,odsync,fsync_end"
'


# --- bash completion, from the synopsis of --help and the key table ---

"$SRC/scripts/gen-completion.sh" "$IOTRIAL" >iotrial.bash

# complete WORD...: what the completion offers for the command line WORD... (the last word
# being completed), one a line, into the file `got`.
complete_words() {
	bash -c '. ./iotrial.bash
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_iotrial
		printf "%s\n" "${COMPREPLY[@]}"' complete "$@" >got
}

test_expect_success 'completion: the commands, and each option of each synopsis line' '
	bash -n iotrial.bash
	complete_words iotrial ""
	for cmd in run validate report compare backends keys --help --version; do
		grep -qx -- "$cmd" got
	done
	complete_words iotrial va
	expect_eq "$(cat got)" validate
	"$IOTRIAL" --help | sed -n "s/^\(usage: \|       \)iotrial \([a-z]*\) \(.*\)/\2 \3/p" >synopsis
	test "$(wc -l <synopsis)" -ge 4
	while read -r cmd rest; do
		for opt in $(echo "$rest" | grep -oE -- "(^|[[ |])--?[a-z][a-z-]*" | tr -d "[ |"); do
			complete_words iotrial "$cmd" "${opt%%[a-z]*}"
			grep -qx -- "$opt" got
		done
	done <synopsis
	complete_words iotrial run --pro
	expect_eq "$(cat got)" --progress
	complete_words iotrial report --h
	expect_eq "$(cat got)" --help
	complete_words iotrial run --progress ""
	expect_eq "$(echo $(cat got))" "auto always never"
	complete_words iotrial run -f text,c
	expect_eq "$(cat got)" text,csv
'

test_expect_success 'completion: every job key after --set and keys, and an enum key'"'"'s values' '
	"$IOTRIAL" keys --json | jq -r ".[].name" | sort >keys
	complete_words iotrial run --set ""
	sed "s/=\$//" got | sort >set_keys
	expect_eq "$(cat set_keys)" "$(cat keys)"
	complete_words iotrial run --set iodep
	expect_eq "$(cat got)" "iodepth="
	complete_words iotrial keys ""
	grep -vx -- "--json" got | grep -vx -- "--help" | sort >keys_keys
	expect_eq "$(cat keys_keys)" "$(cat keys)"
	complete_words iotrial run --set workload = rand
	expect_eq "$(echo $(cat got))" "randread randwrite randrw"
	complete_words iotrial run --set direct = ""
	expect_eq "$(echo $(cat got))" "true false"
'

test_expect_success 'completion: job files for run, results files for report and --estimate-from' '
	mkdir -p files/sub
	touch files/a.yaml files/b.yml files/c.json files/d.txt
	cd files
	bash -c ". ../iotrial.bash; COMP_WORDS=(iotrial run \"\"); COMP_CWORD=2; _iotrial; printf \"%s\n\" \"\${COMPREPLY[@]}\"" | sort >../got.run
	bash -c ". ../iotrial.bash; COMP_WORDS=(iotrial report \"\"); COMP_CWORD=2; _iotrial; printf \"%s\n\" \"\${COMPREPLY[@]}\"" | sort >../got.report
	bash -c ". ../iotrial.bash; COMP_WORDS=(iotrial validate a.yaml --estimate-from \"\"); COMP_CWORD=4; _iotrial; printf \"%s\n\" \"\${COMPREPLY[@]}\"" | sort >../got.from
	cd ..
	expect_eq "$(echo $(cat got.run))" "a.yaml b.yml sub"
	expect_eq "$(echo $(cat got.report))" "c.json sub"
	expect_eq "$(echo $(cat got.from))" "c.json sub"
'

# --- the man pages and make install ---

if [ "$IOTRIAL" != "$SRC/iotrial" ]; then
	# make install installs ./iotrial; a run of another build (make test B=DIR/) leaves it
	# to the run of the default build, which CI makes too
	test_skip "make install puts the man pages in place" "make install installs the default build, and this run tests $IOTRIAL"
elif command -v lowdown >/dev/null 2>&1; then
	test_expect_success 'make install puts the man pages and the completion in place' '
		make -s -C "$SRC" -o iotrial install DESTDIR="$TRASH/stage" PREFIX=/usr >make.out 2>&1
		test -x stage/usr/bin/iotrial
		test -s stage/usr/share/man/man1/iotrial.1
		test -s stage/usr/share/man/man5/iotrial-jobfile.5
		test -s stage/usr/share/doc/iotrial/jobfile.schema.json
		cmp stage/usr/share/bash-completion/completions/iotrial "$SRC/man/iotrial.bash"
	'

	test_expect_success 'the man pages render without a warning, at 80 columns' '
		for page in stage/usr/share/man/man1/iotrial.1 stage/usr/share/man/man5/iotrial-jobfile.5; do
			MANWIDTH=80 man --warnings -l "$page" >"$(basename "$page").txt" 2>warn
			cat warn
			test ! -s warn
			test "$(wc -l <"$(basename "$page").txt")" -gt 200
		done
	'

	test_expect_success 'iotrial(1) holds the synopsis of --help and the sections of docs/cli.md' '
		grep -q "^NAME" iotrial.1.txt
		grep -q "^SYNOPSIS" iotrial.1.txt
		"$IOTRIAL" --help | sed -n "s/^\(usage: \|       \)\(iotrial .*\)/\2/p" >syn
		while read -r line; do
			grep -qF -- "$line" iotrial.1.txt
		done <syn
		sed -n "s/^## //p" "$SRC/docs/cli.md" >sections
		test "$(wc -l <sections)" -gt 5
		while read -r sec; do
			grep -qx -- "$sec" iotrial.1.txt
		done <sections
	'

	test_expect_success 'iotrial-jobfile(5) holds every key of the table, and the key sections' '
		grep -q "^KEY TABLE" iotrial-jobfile.5.txt
		sed -n "/^KEY TABLE/,\$p" iotrial-jobfile.5.txt >table
		"$IOTRIAL" keys | cut -f1 >keys
		while read -r key; do
			grep -qE "^       • $key( |\$)" table
		done <keys
		while read -r key; do
			grep -qx "   $key" iotrial-jobfile.5.txt
		done <keys
	'
else
	test_skip "make install puts the man pages in place" "lowdown is missing (scripts/install-deps.sh installs it)"
fi

# --- progress (issue 15 item 3) ---

printf "jobs:\n  - {name: s, workload: read, backend: synthetic, sim_mean: 50ms, sim_stddev: 1ms}\nreplication: {runs: 4, warmup: 1}\n" >slow.yaml
printf "jobs:\n  - {name: t, workload: read, backend: null, file_size: 4KiB, runtime: 200ms}\nreplication: {runs: 2}\n" >timed.yaml
printf "jobs:\n  - {name: live, workload: read, backend: null, file_size: 4KiB, runtime: 1500ms}\nreplication: {runs: 1}\n" >live.yaml
CR=$(printf "\r")
ESC=$(printf "\033")

if command -v script >/dev/null 2>&1; then
	test_expect_success 'on a terminal: the plan line, then one status line redrawn in place' '
		script -qfc "$IOTRIAL run slow.yaml -o pty" /dev/null >pty.out
		grep -q "^iotrial: 5 trial(s) of 1 job instance(s); estimated time: unknown: 5 of 5 trial(s) are bound by size; the ETA is learned from the trials done" pty.out
		tr "$CR" "\n" <pty.out >lines
		grep -q "^${ESC}\[Ks trial 0 warm-up (1 of 5, 0%): elapsed 0:0[0-9], ETA ?" lines
		grep -q "^${ESC}\[Ks trial 4 (5 of 5, 100%): last [0-9.]* MB/s, [0-9]* IO/s, elapsed 0:0[0-9], ETA 0:00" lines
		not grep -q "^\[1/5\]" lines
		# Erased at the end: the summary starts on a clean line.
		expect_eq "$(grep -c "^${ESC}\[K" lines)" "$(($(grep -c "^${ESC}\[K.*ETA" lines) + 1))"
		test -s pty/results.json
	'

	# One trial of 1.5 s: the line moves during it, at most 4 times a second.
	test_expect_success 'on a terminal: the status line is redrawn during a trial, with its rate so far' '
		t0=$(date +%s%N)
		script -qfc "$IOTRIAL run live.yaml -o live" /dev/null >live.out
		t1=$(date +%s%N)
		tr "$CR" "\n" <live.out >lines
		grep "^${ESC}\[Klive trial 0 (1 of 1, [0-9]*%): now [0-9.]* MB/s, [0-9]* IO/s, elapsed 0:0[0-9], ETA 0:0[0-9]\$" lines >now
		test "$(wc -l <now)" -ge 3
		# The share of the plan grows from one redraw to the next.
		sed "s/.*(1 of 1, \([0-9]*\)%).*/\1/" now >pct
		sort -n pct >sorted
		diff -u pct sorted
		test "$(head -1 pct)" -lt "$(tail -1 pct)"
		# At most 4 redraws a second, plus one at the start and one at the end.
		test "$(grep -c "^${ESC}\[K.*ETA" lines)" -le "$(( (t1 - t0) / 250000000 + 2 ))"
	'

	test_expect_success 'on a terminal, -q and --progress never show no progress' '
		script -qfc "$IOTRIAL run -q slow.yaml -o q" /dev/null >q.out
		script -qfc "$IOTRIAL run slow.yaml -o never --progress never" /dev/null >never.out
		script -qfc "$IOTRIAL run -q live.yaml -o liveq" /dev/null >liveq.out
		for f in q.out never.out liveq.out; do
			not grep -q "trial(s) of" $f
			not grep -q "$ESC" $f
		done
	'
else
	test_skip "progress on a terminal" "script (util-linux) is missing"
fi

test_expect_success 'not a terminal: no progress; --progress always: a line per trial' '
	"$IOTRIAL" run slow.yaml -o pipe 2>err >out
	expect_eq "$(cat err)" "iotrial: results in pipe/"
	"$IOTRIAL" run live.yaml -o livepipe 2>&1 | cat >out
	not grep -q "$ESC" out
	not grep -q "$CR" out
	not grep -q "trial(s) of" out
	"$IOTRIAL" run -q timed.yaml -o always --progress always 2>err
	expect_eq "$(sed -n 1p err)" "iotrial: 2 trial(s) of 1 job instance(s); estimated time: 0.52 s (2 trial(s) bound by time: their ramp and runtime, 10 ms of set-up each, 0.1 s to start and end the run)"
	grep -q "^\[1/2\] t trial 0: 0.2[0-9]* s, " err
	grep -q "^\[2/2\] t trial 1: " err
	not grep -q "$ESC" err
'

# --- the JSON Schema of the job file (docs/jobfile.schema.json) ---

# A python3 that has jsonschema and yaml (Debian's python3-jsonschema, python3-yaml).
PY=""
for p in /usr/bin/python3 python3; do
	if "$p" -c "import jsonschema, yaml" 2>/dev/null; then
		PY=$p
		break
	fi
done
CHECK="$SRC/tests/jobfile-schema-check.py"
SCHEMA="$SRC/docs/jobfile.schema.json"

test_expect_success 'docs/jobfile.schema.json is what the key table generates' '
	"$SRC/scripts/gen-schema.sh" "$IOTRIAL" >schema.json
	diff -u "$SCHEMA" schema.json
	expect_eq "$(jq -r "[.definitions.job.properties | keys[]] | length" schema.json)" "$(( $("$IOTRIAL" keys --json | jq length) + 6 ))"
'

if [ -z "$PY" ]; then
	test_skip "the schema accepts every job file and docs example" "no python3 with jsonschema and yaml (scripts/install-deps.sh installs python3-jsonschema)"
	test_skip "the schema rejects a wrong type, an unknown key and a bad value" "no python3 with jsonschema"
else
	test_expect_success 'the schema accepts every job file and docs example' '
		mkdir -p ex
		for doc in "$SRC"/README.md "$SRC"/docs/*.md; do
			name=$(basename "$doc")
			awk -f "$SRC/tests/docs-extract.awk" "$doc" >"ex/$name.x"
			awk -F"\t" -v d="ex/$name" "
				\$1 == \"X\" { ctx = ctx substr(\$0, length(\$1 \$2) + 3) \"\n\"; next }
				\$1 == \"Y\" { out = d \".\" \$2 \".yaml\"; printf \"%s\", ctx >out; ctx = \"\"; next }
				\$1 == \"L\" { if (out != \"\") print substr(\$0, length(\$1 \$2) + 3) >>out; next }
				\$1 == \"E\" { if (out != \"\") close(out); out = \"\"; next }
			" "ex/$name.x"
		done
		"$IOTRIAL" keys | cut -f1 >keys
		for y in ex/*.yaml; do
			first=$(sed -n "s/^\([a-z_]*\):.*/\1/p" "$y" | sed -n 1p)
			if grep -q "^jobs:" "$y"; then
				continue
			elif grep -qx "$first" keys; then
				{ printf "jobs:\n  - name: doc\n"; sed "s/^/    /" "$y"; } >"$y.tmp"
			elif [ "$first" = matrix ]; then
				{ printf "jobs:\n  - name: doc\n"; sed "s/^/    /" "$y"; } >"$y.tmp"
			else
				{ cat "$y"; printf "jobs:\n  - {name: doc, workload: read}\n"; } >"$y.tmp"
			fi
			mv "$y.tmp" "$y"
		done
		test "$(ls ex/*.yaml | wc -l)" -gt 20
		"$PY" "$CHECK" "$SCHEMA" "$SRC"/jobs/*.yaml ex/*.yaml
	'

	test_expect_success 'the schema rejects a wrong type, an unknown key and a bad value' '
		printf "jobs:\n  - {name: a, workload: read, iodepth: many}\n" >bad-count.yaml
		printf "jobs:\n  - {name: a, workload: read, block_size: [4KiB]}\n" >bad-list.yaml
		printf "jobs:\n  - {name: a, workload: read, direct: maybe}\n" >bad-bool.yaml
		printf "jobs:\n  - {name: a, workload: reed}\n" >bad-enum.yaml
		printf "jobs:\n  - {name: a, workload: read, iodeth: 4}\n" >bad-key.yaml
		printf "jobs:\n  - {name: a, workload: read, iodepth: 5000}\n" >bad-bound.yaml
		printf "jobs:\n  - {name: a, workload: read, matrix: {iodepth: 4}}\n" >bad-matrix.yaml
		printf "experiment: x\n" >bad-nojobs.yaml
		printf "jobs:\n  - {name: a, workload: read, iodepth: \"\${DEPTH:-1}\", block_size: 4 KiB, direct: yes, runtime: 1.5s, matrix: {file_size: {from: 1MiB, to: 4MiB, step: x2}}}\n" >good.yaml
		"$PY" "$CHECK" "$SCHEMA" good.yaml
		for f in bad-*.yaml; do
			expect_code 2 "$IOTRIAL" validate "$f" 2>err
			expect_code 1 "$PY" "$CHECK" "$SCHEMA" "$f" >why
			cat why
			grep -q "^$f: " why
		done
		"$IOTRIAL" validate good.yaml >plan
	'
fi
test_done
