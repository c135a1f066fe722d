#!/bin/sh
# What a benchmark's asynchronous I/O looks like from the kernel: how many system calls per
# I/O and what each one carries, how long each request spends at the device, how full the
# device queue is, and where the time goes between a burst of completions and the next
# request. Counts and request-level times, so it means something on a busy machine too.
# See docs/performance.md.
#
#   bench/io-trace.sh [-o PREFIX] COMMAND [ARG...]
#
# Runs COMMAND under `perf record -a` with the block layer's tracepoints (block_bio_queue,
# block_rq_issue, block_rq_complete), the asynchronous-I/O system calls and the scheduler's
# switches, then reads the trace. Only COMMAND's own processes and threads count (found
# through the fork events), and only the requests that start with a bio they queued (a
# thread that runs the device queue also dispatches other tasks' requests), so other work
# on the machine does not mix in. Needs root and perf (Debian:
# linux-perf). Keeps PREFIX.data (perf's) and PREFIX.txt (the decoded trace); default
# PREFIX: io-trace.
set -eu
prefix=io-trace
if [ "${1:-}" = -o ]; then
	prefix=$2
	shift 2
fi
if [ $# -eq 0 ]; then
	echo "usage: bench/io-trace.sh [-o PREFIX] COMMAND [ARG...]" >&2
	exit 2
fi
command -v perf >/dev/null 2>&1 || { echo "io-trace: perf is missing (Debian: apt-get install linux-perf)" >&2; exit 1; }

events=block:block_bio_queue,block:block_rq_issue,block:block_rq_complete,sched:sched_switch,sched:sched_process_fork
for c in io_uring_enter io_submit io_getevents pread64 pwrite64; do
	events="$events,syscalls:sys_enter_$c"
done
events="$events,syscalls:sys_exit_io_uring_enter,syscalls:sys_exit_io_getevents"

# The command's pid, for its process tree: a shell that writes its own pid, then execs it.
rc=0
perf record -q -a -m 64M -o "$prefix.data" -e "$events" \
	sh -c 'echo $$ >"$0"; exec "$@"' "$prefix.pid" "$@" >"$prefix.out" 2>&1 || rc=$?
if [ ! -s "$prefix.pid" ]; then
	echo "io-trace: perf record failed:" >&2
	cat "$prefix.out" >&2
	exit 1
fi
[ "$rc" -eq 0 ] || echo "io-trace: the command exited with status $rc" >&2
perf script -i "$prefix.data" -F comm,pid,tid,cpu,time,event,trace >"$prefix.txt" 2>/dev/null
root=$(cat "$prefix.pid")

# Three passes over the time-ordered trace: (1) the process tree and the window of its I/O
# system calls; (2) which requests are the command's, and which of those are seen
# completing; (3) everything else, in
# time order, counting only the requests seen both ways (a lost trace event must not
# leave a request in the queue for ever).
awk -v root="$root" '
function hex(s,   i, c, v) {
	v = 0
	sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", tolower(substr(s, i, 1)))
		v = v * 16 + c - 1
	}
	return v
}
# Split a trace line: its tid, time, event and the rest; 0 when it is not one.
function parse(   i, pt) {
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\/[0-9]+$/)
			break
	if (i + 3 > NF)
		return 0
	split($i, pt, "/")
	tid = pt[2] + 0
	cpu = $(i + 1)
	gsub(/[][]/, "", cpu)
	cpu += 0
	t = $(i + 2)
	sub(/:$/, "", t)
	t += 0
	ev = $(i + 3)
	sub(/:$/, "", ev)
	first = i + 4
	return 1
}
function arg(name,   i) {
	for (i = first; i < NF; i++)
		if ($i == name ":") {
			v = $(i + 1)
			sub(/,$/, "", v)
			return hex(v)
		}
	return 0
}
# A request: device, start sector and length, the same in issue and complete events.
function rq(   i) {
	for (i = first; i <= NF; i++)
		if ($i == "+")
			return $first " " $(i - 1) " " $(i + 1)
	return ""
}
# Where a bio or request starts: device and sector.
function at(   i) {
	for (i = first; i <= NF; i++)
		if ($i == "+")
			return $first " " $(i - 1)
	return ""
}
function hadd(h, us) { us = int(us + 0.5); hist[h, us]++; hn[h]++; hsum[h] += us; if (us > hmax[h]) hmax[h] = us }
function hmed(h,   k, c) {
	c = 0
	for (k = 0; k <= hmax[h]; k++)
		if ((c += hist[h, k]) * 2 >= hn[h])
			return k
	return 0
}
FNR == 1 { pass++ }
!parse() { next }
pass == 1 {
	if (ev == "sched:sched_process_fork") {
		p = $0; sub(/.* pid=/, "", p); sub(/ .*/, "", p)
		c = $0; sub(/.*child_pid=/, "", c); sub(/ .*/, "", c)
		if ((p + 0) in tree || p + 0 == root)
			tree[c + 0] = 1
	}
	if ((tid in tree || tid == root) && ev ~ /^syscalls:sys_enter_/) {
		if (wfirst == "")
			wfirst = t
		wlast = t
	}
	next
}
pass == 2 {
	if (ev == "block:block_bio_queue" && (tid in tree || tid == root) && t >= wfirst && t <= wlast) {
		own[at()] = 1
	} else if (ev == "block:block_rq_issue" && (at() in own)) {
		k = rq()
		if (k in open2)
			requeued++
		else
			issued++
		open2[k] = FNR
	} else if (ev == "block:block_rq_complete") {
		k = rq()
		if (k in open2) {
			seen[open2[k]] = 1
			delete open2[k]
		}
	}
	next
}
{
	mine = tid in tree || tid == root
	if (ev == "block:block_rq_issue" && FNR in seen) {
		k = rq()
		start[k] = t
		if (inq == 0) {
			if (lastc != "") {
				hadd("idle", (t - lastc) * 1e6)
				if (bexit != "" && bsub != "" && bexit <= bsub) {
					hadd("wake", (bexit - lastc) * 1e6)
					hadd("user", (bsub - bexit) * 1e6)
					hadd("kern", (t - bsub) * 1e6)
				}
			}
			bstart = t
			bios = 0
		}
		if (inq > 0)
			occ[inq] += t - tprev
		else
			occ[0] += (tprev == "" ? 0 : t - tprev)
		inq++
		bios++
		tprev = t
		n++
		if (tfirst == "")
			tfirst = t
	} else if (ev == "block:block_rq_complete") {
		k = rq()
		if (!(k in start))
			next
		ccpu[cpu]++
		hadd("lat", (t - start[k]) * 1e6)
		delete start[k]
		occ[inq] += t - tprev
		inq--
		tprev = t
		tlast = t
		if (inq == 0) {
			hadd("busy", (t - bstart) * 1e6)
			hadd("bios", bios)
			lastc = t
			bexit = bsub = ""
		}
	} else if (mine && ev ~ /^syscalls:sys_enter_/) {
		name = ev
		sub(/^syscalls:sys_enter_/, "", name)
		calls[name]++
		scpu[cpu]++
		nsc++
		if (name == "io_uring_enter") {
			s = arg("to_submit")
			w = arg("min_complete")
			per_call[s]++
			waits[w]++
			if (s > 0 && lastc != "" && bsub == "")
				bsub = t
		} else if (name == "io_submit") {
			s = arg("nr")
			per_call[s]++
			if (lastc != "" && bsub == "")
				bsub = t
		} else if (name == "io_getevents") {
			waits[arg("min_nr") (arg("timeout") ? " (timed)" : "")]++
		}
	} else if (mine && ev ~ /^syscalls:sys_exit_/) {
		if (lastc != "" && bexit == "" && bsub == "")
			bexit = t
	} else if (ev == "sched:sched_switch") {
		p = $0
		sub(/.*prev_pid=/, "", p)
		sub(/ .*/, "", p)
		if ((p + 0) in tree || p + 0 == root)
			switches++
	}
}
END {
	if (issued == 0) {
		print "io-trace: no request of the command reached a block device"
		exit 1
	}
	# Seen on this kernel (6.18, virtio): now and then the block_rq_complete events of a
	# whole run are not delivered. Figures from the few that were would be wrong.
	if (n < 0.9 * issued) {
		printf "io-trace: the trace holds the completion of only %d of the command'"'"'s %d requests at the device (the kernel did not deliver the other block_rq_complete events); run it again\n", n, issued >"/dev/stderr"
		exit 3
	}
	span = tlast - tfirst
	printf "requests at the device: %d in %.3f s (%.0f/s); %d issued again (requeued)\n", n, span, n / span, requeued
	for (c in calls)
		printf "calls: %s %d, %.3f per request\n", c, calls[c], calls[c] / n
	line = ""
	for (s = 0; s <= 4096; s++)
		if (s in per_call)
			line = line " " s ":" per_call[s]
	if (line != "")
		print "requests handed over per call (requests:calls):" line
	line = ""
	for (w in waits)
		line = line " " w ":" waits[w]
	if (line != "")
		print "completions waited for per call (count:calls):" line
	printf "time at the device per request: median %d us, mean %.0f us\n", hmed("lat"), hsum["lat"] / hn["lat"]
	tot = 0
	for (q in occ)
		tot += occ[q]
	mean = 0
	line = ""
	for (q = 0; q <= 4096; q++)
		if (q in occ) {
			mean += q * occ[q] / tot
			if (occ[q] / tot >= 0.01)
				line = line sprintf(" %d:%.0f%%", q, occ[q] / tot * 100)
		}
	printf "requests in flight at the device: mean %.2f; share of time (requests:time):%s\n", mean, line
	printf "busy periods: %d, median %d us, median %d requests; idle gaps: median %d us, mean %.0f us\n", \
		hn["busy"], hmed("busy"), hmed("bios"), hmed("idle"), hn["idle"] ? hsum["idle"] / hn["idle"] : 0
	if (hn["wake"])
		printf "idle gap, medians: last completion to the waiting call'"'"'s return %d us, to the next submitting call %d us, to its first request at the device %d us\n", \
			hmed("wake"), hmed("user"), hmed("kern")
	printf "context switches of the command: %d, %.3f per request\n", switches, switches / n
	line = ""
	for (c = 0; c < 4096; c++)
		if (c in scpu)
			line = line sprintf(" CPU%d %.0f%%", c, scpu[c] / nsc * 100)
	printf "CPUs of the command'"'"'s I/O system calls:%s; ", line
	line = ""
	for (c = 0; c < 4096; c++)
		if (c in ccpu)
			line = line sprintf(" CPU%d %.0f%%", c, ccpu[c] / n * 100)
	printf "of its completions:%s\n", line
}' "$prefix.txt" "$prefix.txt" "$prefix.txt"
