#!/bin/bash
# A well-behaved command (issue 15 item 6): usage errors in two lines (what, and where the
# help is), `iotrial keys NAME`, the man pages, bash completion and the job file's JSON
# Schema, each made from the key table and docs/.
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
	grep -qx "  fio:      none" bs
	grep -q "^  bytes per I/O for read, write, randread and randwrite" bs
	"$IOTRIAL" keys workload >wl
	grep -qx "  default:  none" wl
	grep -qx "  values:   read, write, randread, randwrite, copy, copytree, command, readwrite, randrw" wl
	"$IOTRIAL" keys sim_outliers >so
	grep -qx "  values:   0 to 1" so
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

test_done
