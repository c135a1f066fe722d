#!/bin/bash
# Each backend's own options (docs/backends.md#backend-options): declared by the backend,
# documented from its table, refused on another backend's job, written into results.json
# for that backend's jobs only; the asynchronous null mode, fault over other backends, and
# the skeleton backend, end to end.
. "$(dirname "$0")/lib.sh"

BACKENDS_MD="$SRC/docs/backends.md"

test_expect_success 'the option tables in docs/backends.md are the ones the backends declare' '
	cp "$BACKENDS_MD" backends.md
	IOTRIAL="$IOTRIAL" "$SRC/scripts/backend-options-md.sh" "$PWD/backends.md"
	diff -u "$BACKENDS_MD" backends.md
'

test_expect_success 'every option of every backend has a heading in docs/backends.md' '
	"$IOTRIAL" backends >list.txt
	awk "NR > 1 && \$2 != \"no\" {print \$1}" list.txt >names.txt
	test "$(wc -l <names.txt)" -ge 5
	while read -r be; do "$IOTRIAL" keys "$be"; done <names.txt >options.txt
	test "$(wc -l <options.txt)" -ge 17
	cut -f1 options.txt >option_names.txt
	bad=0
	while read -r o; do grep -qF "#### \`$o\`" "$BACKENDS_MD" || { echo "no heading: $o"; bad=1; }; done <option_names.txt
	test "$bad" = 0
'

test_expect_success 'iotrial keys: an unknown backend is exit status 2' '
	expect_code 2 "$IOTRIAL" keys nosuch 2>err
	grep "no key or backend .nosuch." err
	expect_code 2 "$IOTRIAL" keys null sync 2>err
'

cat >other.yaml <<'JOB'
jobs:
  - name: a
    workload: read
    backend: null
    sim_cache_size: 1GB
JOB

test_expect_success 'an option of another backend: exit 2, file:line:column, the backend named' '
	expect_code 2 "$IOTRIAL" validate other.yaml 2>err
	expect_eq "$(cat err)" "other.yaml:5:21: key '"'"'sim_cache_size'"'"': sim_cache_size is an option of backend synthetic; this job'"'"'s backend is null"
	expect_code 2 "$IOTRIAL" validate other.yaml --set sim_cache_size= 2>err
	printf "jobs:\n  - {name: a, workload: read, backend: null, file_size: 1MiB}\n" >plain.yaml
	expect_code 2 "$IOTRIAL" validate plain.yaml --set fault_short=true 2>err
	expect_eq "$(cat err)" "--set: key '"'"'fault_short'"'"': fault_short is an option of backend fault; this job'"'"'s backend is null"
'

test_expect_success 'a misspelt option is an unknown key with a suggestion; a bad value names its bounds' '
	printf "jobs:\n  - {name: a, workload: read, backend: null, null_dely: 5us}\n" >typo.yaml
	expect_code 2 "$IOTRIAL" validate typo.yaml 2>err
	grep "typo.yaml:2:46: key .null_dely.: unknown key (did you mean .null_delay.?)" err
	printf "jobs:\n  - {name: a, workload: read, backend: null, null_delay: 2m}\n" >big.yaml
	expect_code 2 "$IOTRIAL" validate big.yaml 2>err
	grep "big.yaml:2:58: key .null_delay.: must be between 0 ns and 60.0 s, got .2m." err
	printf "jobs:\n  - {name: a, workload: read, backend: fault, fault_backend: synthetic}\n" >wrap.yaml
	expect_code 2 "$IOTRIAL" validate wrap.yaml 2>err
	grep "wrap.yaml:2:62: key .fault_backend.: unknown value .synthetic. (expected one of: " err
'

test_expect_success 'a backend check across its options: sim_cache_size needs sim_after_mean' '
	printf "jobs:\n  - {name: a, workload: write, backend: synthetic, sim_after_mean: 5ms}\n" >cache.yaml
	expect_code 2 "$IOTRIAL" validate cache.yaml 2>err
	grep "cache.yaml:2:68: key .sim_after_mean.: the cache model needs both sim_cache_size and sim_after_mean" err
'

test_expect_success 'fault takes what the backend it wraps takes, and says which in refusals' '
	printf "jobs:\n  - {name: g, workload: read, backend: fault, iodepth: 4}\n  - {name: h, workload: read, backend: fault, fault_backend: null, direct: true}\n  - {name: i, workload: read, backend: fault, fault_backend: skeleton, iodepth: 4, direct: true, target: data/}\n" >caps.yaml
	mkdir -p data
	expect_code 2 "$IOTRIAL" validate caps.yaml 2>err
	grep "caps.yaml:2:56: key .iodepth.: 4 needs an asynchronous backend; .fault over sync. does one I/O at a time" err
	grep "caps.yaml:3:76: key .direct.: backend .fault over null. cannot take O_DIRECT" err
	expect_eq "$(wc -l <err)" 2
'

need_cmd jq

cat >params.yaml <<'JOB'
experiment: params
replication: {runs: 1}
defaults: {file_size: 1MiB, block_size: 64KiB}
jobs:
  - {name: n, workload: randread, backend: null}
  - {name: s, workload: read, backend: synthetic, block_size: 1MiB, matrix: {sim_mean: [1ms, 2ms]}}
  - {name: f, workload: randread, backend: fault, fault_backend: null, null_delay: 10us, iodepth: 4}
JOB

test_expect_success 'results.json: a job holds its own backend options only' '
	"$IOTRIAL" run -q params.yaml -o params
	jq -r ".jobs[] | .name + \" \" + ([.params | keys[] | select(test(\"^(sim|fault|null|skeleton)_\"))] | join(\",\"))" params/results.json >keys.txt
	expect_eq "$(sed -n 1p keys.txt)" "n null_delay,null_jitter"
	expect_eq "$(sed -n 2p keys.txt)" "s[sim_mean=1000000] sim_after_mean,sim_cache_size,sim_dist,sim_mean,sim_outlier_factor,sim_outliers,sim_stddev"
	expect_eq "$(sed -n 4p keys.txt)" "f fault_backend,fault_delay,fault_delay_every,fault_eio_offset,fault_eio_rate,fault_enospc_after,fault_short,null_delay,null_jitter"
	expect_eq "$(jq -r ".jobs[3].params.fault_backend" params/results.json)" null
	expect_eq "$(jq ".jobs[3].params.null_delay" params/results.json)" 10000
	expect_eq "$(jq ".jobs[2].params.sim_mean" params/results.json)" 2000000
'

test_expect_success 'an older results.json, with every backend option in every job, still reads' '
	jq ".jobs[0].params += {sim_mean: 10000000, sim_dist: \"normal\", fault_short: false, fault_eio_offset: null}" params/results.json >old.json
	"$IOTRIAL" report old.json >old.txt
	grep "^n " old.txt
	"$IOTRIAL" compare old.json params/results.json >cmp.txt
'

cat >async.yaml <<'JOB'
experiment: async
replication: {runs: 1}
defaults: {workload: randread, file_size: 4MiB, block_size: 4KiB, iodepth: 16}
jobs:
  - {name: q, backend: null, null_delay: 20us, null_jitter: 5ms, log_records: true}
  - {name: short, backend: fault, fault_backend: null, null_delay: 20us, fault_short: true}
JOB

test_expect_success 'null with null_delay: every I/O through reap, out of order, none lost' '
	"$IOTRIAL" run -q async.yaml -o async
	expect_eq "$(jq ".jobs[0].trials[0].ios" async/results.json)" 1024
	expect_eq "$(jq ".jobs[0].trials[0].errors" async/results.json)" 0
	expect_eq "$(jq ".jobs[1].trials[0].bytes" async/results.json)" 4194304
	awk -F, "NR == 1 {for (i = 1; i <= NF; i++) c[\$i] = i; next} {print \$c[\"seq\"]}" async/records/q.csv >seq.txt
	expect_eq "$(wc -l <seq.txt)" 1024
	sort -n seq.txt >sorted.txt
	not cmp -s seq.txt sorted.txt
	sort -nu seq.txt >unique.txt
	expect_eq "$(wc -l <unique.txt)" 1024
'

test_expect_success 'fault over an asynchronous backend: the error mid-queue fails the trial at its offset' '
	printf "replication: {runs: 1}\njobs:\n  - {name: bad, workload: randread, backend: fault, fault_backend: null, null_delay: 20us, iodepth: 8, file_size: 4MiB, block_size: 64KiB, fault_eio_offset: 1MiB}\n" >eio.yaml
	expect_code 1 "$IOTRIAL" run -q eio.yaml -o eio 2>err
	grep "job .bad. trial 0: read .(null). at offset 1048576 (65536 bytes): Input/output error" err
	expect_eq "$(jq ".jobs[0].trials[0].errors" eio/results.json)" 1
'

# null hands each I/O over in its queue(), which fault calls out of the worker's sight: no
# slat or clat through fault, none wrong (docs/jobfile.md#submit_latency).
test_expect_success 'submit_latency through fault over null: no slat or clat, latency kept' '
	printf "jobs:\n  - {name: f, workload: randread, backend: fault, fault_backend: null, null_delay: 20us, iodepth: 4, file_size: 1MiB, submit_latency: true}\n" >fs.yaml
	"$IOTRIAL" run -q fs.yaml -o fs
	jq -e ".jobs[0].summary | .lat_ns.ios == 256 and .slat_ns.ios == 0 and .clat_ns.p50 == null" fs/results.json
'

mkdir -p data
test_expect_success 'skeleton: verified writes and reads at iodepth 8, lifo and fifo; fault over it' '
	printf "replication: {runs: 1}\ndefaults: {file_size: 2MiB, block_size: 16KiB, target: data, iodepth: 8, verify: true, backend: skeleton}\njobs:\n  - {name: w, workload: randwrite, skeleton_order: lifo}\n  - {name: r, workload: randread}\n  - {name: full, workload: write, backend: fault, fault_backend: skeleton, verify: false, fault_enospc_after: 1MiB}\n" >sk.yaml
	expect_code 1 "$IOTRIAL" run -q sk.yaml -o sk 2>err
	expect_eq "$(jq -c "[.jobs[] | .trials[0].errors > 0]" sk/results.json)" "[false,false,true]"
	expect_eq "$(jq ".jobs[0].trials[0].bytes" sk/results.json)" 2097152
	grep "job .full. trial 0: write .*at offset 1048576 (16384 bytes): No space left on device" err
	expect_eq "$(jq -r ".jobs[0].params.skeleton_order" sk/results.json)" lifo
'

"$IOTRIAL" backends >built.txt
for be in io_uring libaio; do
	if grep -q "^$be  *no  *not compiled in" built.txt; then
		test_expect_success "fault_backend: $be in a build without it: exit 1, the package named" "
			printf 'jobs:\n  - {name: a, workload: read, backend: fault, fault_backend: $be}\n' >miss.yaml
			expect_code 1 \"\$IOTRIAL\" validate miss.yaml 2>err
			grep \"key .fault_backend.: .$be. is not compiled into this build (install lib\" err
		"
	fi
done

test_done
