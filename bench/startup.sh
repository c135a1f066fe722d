# Sourced by bench/vs-fio.sh (PAIR startup): start-up and memory of a trivial job, each
# tool's whole command against the harness alone. Uses the script's OUT, BENCH_DIR,
# IOTRIAL, ROUNDS and col (bench/rounds.sh).
# Start-up and memory: a trivial job, 4 KiB sequential reads of a 1 MiB file laid out by fio
# before each round, each tool's whole command (unpinned: its start and end are the point;
# the span also holds the start of GNU time, alike for both), alternating which goes first;
# and /bin/true the same way (TOOL base), the harness's own part of each span: the two
# date(1) and GNU time's fork and exec, 10-13 ms on a virtual machine where a process takes
# 5-6 ms to start, more than iotrial's own start-up.
# Appends "wall-microseconds peak-RSS-KiB" to OUT/startup.TOOL.tsv; a tool that fails ends
# the script with its own words.
startup_run() { # fio|iot|base
	tool=$1
	if [ "$tool" = base ]; then
		set -- /bin/true
	elif [ "$tool" = fio ]; then
		set -- fio --name=startup --filename="$BENCH_DIR/startup.dat" --rw=read --bs=4k --size=1M \
			--ioengine=psync --output-format=json
	else
		set -- "$IOTRIAL" run -q "$OUT/startup.yaml" -o "$OUT/startup.iotrial"
	fi
	t0=$(date +%s%N)
	if ! /usr/bin/time -f %M -o "$OUT/startup.rss" "$@" >/dev/null 2>"$OUT/startup.err"; then
		echo "bench/vs-fio.sh: start-up: $* failed:" >&2
		cat "$OUT/startup.err" >&2
		exit 1
	fi
	t1=$(date +%s%N)
	rm -rf "$OUT/startup.iotrial"
	printf '%s\t%s\n' $(((t1 - t0) / 1000)) "$(tail -n 1 "$OUT/startup.rss")" >>"$OUT/startup.$tool.tsv"
}

startup() {
	printf 'experiment: bench-startup\nreplication: {runs: 1}\njobs:\n  - {name: startup, target: "%s", workload: read, block_size: 4KiB, file_size: 1MiB, backend: sync}\n' \
		"$BENCH_DIR/startup.dat" >"$OUT/startup.yaml"
	: >"$OUT/startup.fio.tsv"
	: >"$OUT/startup.iot.tsv"
	: >"$OUT/startup.base.tsv"
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		# a fresh file each round, as for the rows that read the disk
		rm -f "$BENCH_DIR/startup.dat"
		fio --name=lay --filename="$BENCH_DIR/startup.dat" --rw=read --bs=4k --size=1M --create_only=1 >/dev/null
		startup_run base
		if [ $((r % 2)) = 0 ]; then
			startup_run fio
			startup_run iot
		else
			startup_run iot
			startup_run fio
		fi
		r=$((r + 1))
	done
	rm -f "$BENCH_DIR/startup.dat"
	awk -v fw="$(col "$OUT/startup.fio.tsv" 1)" -v iw="$(col "$OUT/startup.iot.tsv" 1)" \
		-v bw="$(col "$OUT/startup.base.tsv" 1)" \
		-v fr="$(col "$OUT/startup.fio.tsv" 2)" -v ir="$(col "$OUT/startup.iot.tsv" 2)" 'BEGIN {
		printf "start-up, 4 KiB reads of a 1 MiB file (whole command): fio %.1f ms, iotrial %.1f ms, ratio %s; less the harness (/bin/true the same way, %.1f ms): fio %.1f ms, iotrial %.1f ms, ratio %s; peak RSS fio %.1f MiB, iotrial %.1f MiB, ratio %s\n",
			fw / 1000, iw / 1000, (fw > 0 && fw != "nan" ? sprintf("%.3f", iw / fw) : "nan"),
			bw / 1000, (fw - bw) / 1000, (iw - bw) / 1000,
			(fw - bw > 0 && iw - bw > 0 && fw != "nan" && iw != "nan" && bw != "nan" ? sprintf("%.3f", (iw - bw) / (fw - bw)) : "nan"),
			fr / 1024, ir / 1024, (fr > 0 && fr != "nan" ? sprintf("%.3f", ir / fr) : "nan")
	}'
}
