#!/bin/bash
# The three published experiments (docs/reproducing/): each job file runs at the README's
# reduced size, and what it prints has the published tables' structure: their rows and
# columns, the comparisons, the per-record statistics. Figures are not checked (the machine
# is not the paper's); relations that hold on any machine are (Little's law, units).
. "$(dirname "$0")/lib.sh"
need_cmd jq

"$IOTRIAL" backends >backends.txt
# sqlio-vpc needs an asynchronous backend: libaio as the job says, else io_uring.
sqlio_backend=
for be in io_uring libaio; do
	if grep -q "^$be  *yes" backends.txt; then
		sqlio_backend=$be
	fi
done

# layout FILE: the report table of a text summary, from its header to the blank line.
layout() {
	sed -n '/^ \{8,\}[^ ]/,/^$/p' "$1" | sed '/^$/d'
}

if [ -z "$sqlio_backend" ]; then
	test_skip 'sqlio-vpc: validate, table, I/Os in flight' 'neither libaio nor io_uring works here'
else
test_expect_success 'sqlio-vpc: validate shows 2 threads x 8 outstanding I/Os, binary units, sequential order' '
	BACKEND=$sqlio_backend "$IOTRIAL" validate "$SRC/jobs/sqlio-vpc.yaml" >plan.txt
	grep "^experiment sqlio-vpc: 11 job instance(s), 11 trial(s), order sequential, .*units binary (MiB = 2^20 B)$" plan.txt
	expect_eq "$(grep -c "^  read\[device=.*\]: read on $sqlio_backend, 100.0 MiB in 256.0 KiB I/Os, iodepth 8, sync none, O_DIRECT" plan.txt)" 4
	expect_eq "$(grep -c "^  write\[device=.*\]: write on $sqlio_backend, 100.0 MiB in 256.0 KiB I/Os, iodepth 8, sync none, O_DIRECT" plan.txt)" 4
	expect_eq "$(grep -c "^  copy\[device=.*_usb\]: copy on sync, 8.0 GiB" plan.txt)" 3
'

test_expect_success 'sqlio-vpc: the published table, disks as columns, n/a for the internal copy' '
	RUNTIME=1s COPY_SIZE=16MiB BACKEND=$sqlio_backend "$IOTRIAL" run "$SRC/jobs/sqlio-vpc.yaml" -o sq >sq.txt 2>err
	layout sq.txt >table.txt
	cat table.txt
	expect_eq "$(head -1 table.txt | tr -s " " | sed "s/^ //")" "ide_usb wd_usb seagate_usb internal"
	expect_eq "$(sed 1d table.txt | sed "s/  .*//" | tr "\n" "|")" "Disk|Disk Mfg|RPM|Copy MB/sec|Read IO/sec|Read MB/sec|Read Avg Latency|Write IO/sec|Write MB/sec|Write Avg Latency|"
	grep "^Disk  *100GB IDE, USB 2.0  *160GB SATA, USB 2.0  *200GB SATA, USB 2.0  *200GB SATA, internal$" table.txt
	grep "^Disk Mfg  *Fujitsu  *WD  *Seagate  *Seagate$" table.txt
	grep "^RPM  *7200  *5400  *7200  *7200$" table.txt
	grep "^Copy MB/sec  *[0-9.]* [KMG]iB/s  *[0-9.]* [KMG]iB/s  *[0-9.]* [KMG]iB/s  *n/a$" table.txt
	expect_eq "$(grep -c "^\(Read\|Write\) MB/sec\( *[0-9.]* [KMG]iB/s\)\{4\}$" table.txt)" 2
	expect_eq "$(grep -c "^\(Read\|Write\) IO/sec\( *[0-9]*\)\{4\}$" table.txt)" 2
	expect_eq "$(grep -c "^\(Read\|Write\) Avg Latency\( *[0-9.]* [mun]*s\)\{4\}$" table.txt)" 2
	grep "^rate in MiB/s (2^20 B/s)" sq.txt
	# The saved run prints the same table.
	"$IOTRIAL" report sq/results.json >again.txt
	layout again.txt >table2.txt
	cmp table.txt table2.txt
'

test_expect_success 'sqlio-vpc: IO/s x latency is the 16 I/Os in flight the paper implies' '
	jq -r ".jobs[] | select(.job != \"copy\") | .summary.iops.mean * .summary.lat_mean_ns.mean / 1e9" sq/results.json >inflight
	expect_eq "$(wc -l <inflight)" 8
	expect_eq "$(jq -s "map(select(. > 12 and . < 16.5)) | length" inflight)" 8 "instances with 12 to 16.5 I/Os in flight"
'
fi

test_done
