#!/bin/bash
# Time-of-check-to-time-of-use: a name swapped between the moment iotrial looks at it and
# the moment it opens it. The swaps are made on cue (tests/t/t0023-shim.c, preloaded), so
# the window a hostile user hits once in a while is hit every time. copytree: a source
# entry swapped just before it is opened is never followed into a read or a write, a FIFO
# never holds the run, and the copy takes its mode from what was opened. An existing target
# that is written (allow_overwrite): a swap after the plan checked it (not mounted, allowed)
# is refused at the open, and a block device whose size the plan asks is not waited on when
# a FIFO took its place. What a job reads (a read target, a copy's source, a copytree's
# source folder) swapped after the plan checked it is refused the same way. (The old code
# waited forever on the FIFOs, copied a swapped file with the mode of the one it replaced,
# wrote the file or device swapped in after the plan's checks, and read and copied the
# file or folder swapped in for a source.)
. "$(dirname "$0")/lib.sh"

need_cmd cc
# An ASan build wants its runtime first among the libraries; told not to check, it runs
# with the shim preloaded all the same.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
cc -shared -fPIC -o "$TRASH/shim.so" "$SRC/tests/t/t0023-shim.c" -ldl
SHIM=$TRASH/shim.so

# tree NAME: a source tree NAME/src (a.dat, sub/b.dat, sub/c.dat), an empty NAME/dst, an
# outside folder NAME/out holding secret.dat, and NAME.yaml copying src into dst.
tree() {
	mkdir -p "$1/src/sub" "$1/dst" "$1/out"
	head -c 65536 /dev/zero >"$1/src/a.dat"
	head -c 65536 /dev/zero >"$1/src/sub/b.dat"
	head -c 65536 /dev/zero >"$1/src/sub/c.dat"
	chmod 644 "$1/src/a.dat" "$1/src/sub/b.dat"
	echo outside >"$1/out/secret.dat"
	printf "jobs:\n  - {name: ct, workload: copytree, source: $TRASH/$1/src, target: $TRASH/$1/dst, file_size: 64KiB${2:+, $2}}\n" >"$1.yaml"
}

# swap NAME ENTRY TO: run NAME.yaml with ENTRY swapped for TO just before it is opened;
# exit status 1 within 20 s (a FIFO must not hold the run: a worker waiting in open(2)
# outlives SIGTERM, hence -k), stderr in NAME.err.
swap() {
	expect_code 1 timeout -k 5 20 env SHIM_SWAP="$2" SHIM_SWAP_TO="$3" LD_PRELOAD="$SHIM" \
		"$IOTRIAL" run -q "$1.yaml" -o "$1.res" 2>"$1.err"
	cat "$1.err"
}

test_expect_success 'copytree: a source file swapped for a FIFO fails the trial at once, named' '
	tree c1
	swap c1 b.dat fifo
	grep -Fx "job '"'"'ct'"'"' trial 0: copytree: cannot open '"'"'$TRASH/c1/src/sub/b.dat'"'"': it was a file and is now a FIFO (replaced while the tree was copied), which iotrial leaves alone" c1.err
	test -p c1/src/sub/b.dat
	expect_eq "$(ls -A c1/dst)" ""
'

test_expect_success 'copytree: a source folder swapped for a symlink: named, not followed' '
	tree c2
	swap c2 sub symlink
	grep -Fx "job '"'"'ct'"'"' trial 0: copytree: cannot read '"'"'$TRASH/c2/src/sub'"'"': it is a symbolic link, which iotrial does not follow" c2.err
	test -L c2/src/sub
	expect_eq "$(ls -A c2/dst)" ""
'

test_expect_success 'copytree: a source folder swapped for a FIFO, a file for a folder: named' '
	tree c3
	swap c3 sub fifo
	grep -Fx "job '"'"'ct'"'"' trial 0: copytree: cannot read '"'"'$TRASH/c3/src/sub'"'"': it was a folder and is now a FIFO (replaced while the tree was copied), which iotrial leaves alone" c3.err
	tree c4
	swap c4 a.dat dir
	grep -Fx "job '"'"'ct'"'"' trial 0: copytree: cannot open '"'"'$TRASH/c4/src/a.dat'"'"': it was a file and is now a folder (replaced while the tree was copied), which iotrial leaves alone" c4.err
	expect_eq "$(ls -A c3/dst c4/dst | grep -c iotrial)" 0
'

# The copy of a file swapped for another (mode 0600) between the look and the open is made
# with the mode of the file read, not the 0644 of the one it replaced.
test_expect_success 'copytree: a source file swapped for another: copied with the mode of the file read' '
	tree c5 "keep_files: true"
	env SHIM_SWAP=b.dat SHIM_SWAP_TO=file LD_PRELOAD="$SHIM" timeout -k 5 20 "$IOTRIAL" run -q c5.yaml -o c5.res
	copy=$(echo c5/dst/iotrial.ct.copy.*)
	expect_eq "$(cat "$copy/sub/b.dat")" secret
	expect_eq "$(stat -c %a "$copy/sub/b.dat")" 600
	expect_eq "$(stat -c %a "$copy/a.dat")" 644
'

# The copy is iotrial's user's (root's, here), not the source's owner's: a set-user-ID or
# set-group-ID file of another user must not become a root one.
test_expect_success 'copytree: a set-user-ID and set-group-ID source is copied without those bits' '
	tree c6 "keep_files: true"
	chmod 6755 c6/src/a.dat
	chmod 1755 c6/src/sub/b.dat
	chown 65534 c6/src/a.dat 2>/dev/null || true
	"$IOTRIAL" run -q c6.yaml -o c6.res
	copy=$(echo c6/dst/iotrial.ct.copy.*)
	expect_eq "$(stat -c %a "$copy/a.dat")" 755
	expect_eq "$(stat -c %a "$copy/sub/b.dat")" 755
'

# The source's mode, as cp -p keeps it, not the mode cut by iotrial's umask (022: 0664
# became 0644).
test_expect_success 'copytree: a copy has the mode of its source file, whatever the umask' '
	tree c7 "keep_files: true"
	chmod 2775 c7/src/a.dat
	chmod 666 c7/src/sub/b.dat
	chmod 604 c7/src/sub/c.dat
	(
		umask 077
		"$IOTRIAL" run -q c7.yaml -o c7.res
	)
	copy=$(echo c7/dst/iotrial.ct.copy.*)
	expect_eq "$(stat -c %a "$copy/a.dat")" 775
	expect_eq "$(stat -c %a "$copy/sub/b.dat")" 666
	expect_eq "$(stat -c %a "$copy/sub/c.dat")" 604
'

# p1: a write target swapped, just after the plan checked it, for a symlink to a file the
# job file does not name.
test_expect_success 'a target written (allow_overwrite) swapped after the plan checked it: refused, the new file untouched' '
	mkdir p1
	head -c 65536 /dev/zero >p1/out.dat
	echo "not yours" >p1/victim.dat
	printf "jobs:\n  - {name: w, workload: write, target: $TRASH/p1/out.dat, allow_overwrite: true, block_size: 4KiB}\n" >p1.yaml
	expect_code 1 timeout -k 5 20 env SHIM_SWAP_STAT="$TRASH/p1/out.dat" SHIM_SWAP_LINK="$TRASH/p1/victim.dat" LD_PRELOAD="$SHIM" \
		"$IOTRIAL" run -q p1.yaml -o p1.res 2>p1.err
	cat p1.err
	grep -Fx "job '"'"'w'"'"' trial 0: '"'"'$TRASH/p1/out.dat'"'"' is no longer the file it was when the run started (replaced by another file or a symlink?): not writing to it" p1.err
	expect_eq "$(cat p1/victim.dat)" "not yours"
'

# q1-q3: what a job reads, swapped just after the plan checked it (its first stat(2)) for a
# symlink to a file or folder the job file does not name. The old code read that: a copy
# wrote a 0600 file out as its new 0644 destination, a read measured another file, a
# copytree copied another folder.
# secret NAME: NAME/secret.dat, 64 KiB (the size of the file it stands in for) beginning
# with the line "secret", mode 0600.
secret() {
	mkdir -p "$1"
	{
		echo secret
		head -c 65529 /dev/zero
	} >"$1/secret.dat"
	chmod 600 "$1/secret.dat"
}

# read_swap NAME PATH TO: run NAME.yaml with PATH swapped for a symlink to TO just after the
# plan's first stat(2) of it; exit status 1 within 20 s, stderr in NAME.err.
read_swap() {
	expect_code 1 timeout -k 5 20 env SHIM_SWAP_STAT="$2" SHIM_SWAP_LINK="$3" LD_PRELOAD="$SHIM" \
		"$IOTRIAL" run -q "$1.yaml" -o "$1.res" 2>"$1.err"
	cat "$1.err"
}

test_expect_success 'a copy source swapped after the plan checked it: refused, the other file not copied' '
	mkdir q1 q1/dst
	head -c 65536 /dev/zero >q1/in.dat
	secret q1
	printf "jobs:\n  - {name: c, workload: copy, source: $TRASH/q1/in.dat, target: $TRASH/q1/dst, keep_files: true}\n" >q1.yaml
	read_swap q1 "$TRASH/q1/in.dat" "$TRASH/q1/secret.dat"
	grep -Fx "job '"'"'c'"'"' trial 0: '"'"'$TRASH/q1/in.dat'"'"' is no longer the file it was when the run started (replaced by another file or a symlink?): not reading it" q1.err
	not grep -r secret q1/dst
'

test_expect_success 'a read target swapped after the plan checked it: refused, the other file not read' '
	mkdir q2
	head -c 65536 /dev/zero >q2/in.dat
	secret q2
	printf "jobs:\n  - {name: r, workload: read, target: $TRASH/q2/in.dat, block_size: 4KiB}\n" >q2.yaml
	read_swap q2 "$TRASH/q2/in.dat" "$TRASH/q2/secret.dat"
	grep -Fx "job '"'"'r'"'"' trial 0: '"'"'$TRASH/q2/in.dat'"'"' is no longer the file it was when the run started (replaced by another file or a symlink?): not reading it" q2.err
'

test_expect_success 'a copytree source folder swapped after the plan checked it: refused, the other folder not copied' '
	tree q3 "keep_files: true"
	read_swap q3 "$TRASH/q3/src" "$TRASH/q3/out"
	grep -Fx "job '"'"'ct'"'"' trial 0: copytree: '"'"'$TRASH/q3/src'"'"' is no longer the folder it was when the run started (replaced by another folder or a symlink?): not reading it" q3.err
	not grep -r outside q3/dst
'

# p6: the target folder swapped, just after the plan checked it (its second stat(2): the
# first says it is a folder), for a symlink to another folder. keep_files, so that what the
# old code made there stays to be seen.
test_expect_success 'a target folder swapped after the plan checked it: refused, nothing made in the other' '
	mkdir p6 p6else
	printf "jobs:\n  - {name: w, workload: write, target: $TRASH/p6, file_size: 64KiB, block_size: 4KiB, keep_files: true}\n" >p6.yaml
	expect_code 1 timeout -k 5 20 env SHIM_SWAP_STAT="$TRASH/p6" SHIM_SWAP_SKIP=1 SHIM_SWAP_LINK="$TRASH/p6else" LD_PRELOAD="$SHIM" \
		"$IOTRIAL" run -q p6.yaml -o p6.res 2>p6.err
	cat p6.err
	grep -Fx "job '"'"'w'"'"' trial 0: the folder '"'"'$TRASH/p6'"'"' is not the one iotrial checked when the run started (another folder or a symlink was put in its place): not writing in it" p6.err
	expect_eq "$(ls -A p6else p6.aside)" "p6.aside:

p6else:"
'

# p7: a file swapped, just before a trial opens it, for a symlink to a FIFO whose other end
# waits in its own open(2): iotrial looks (O_PATH) before it opens, so the FIFO is never
# opened, and the process waiting at the other end is not let through. The old code opened
# it (O_NONBLOCK), and only then saw it was not the file.
# fifo_waiter NAME MODE: a process waiting in open(2) of the FIFO NAME/fifo (MODE r: to read,
# w: to write); its pid in NAME.pid.
fifo_waiter() {
	mkfifo "$1/fifo"
	if [ "$2" = r ]; then
		sh -c "exec cat \"$1/fifo\" >/dev/null" &
	else
		sh -c "echo x >\"$1/fifo\"" &
	fi
	echo $! >"$1.pid"
}

# k: the job (w or r); wl: its workload; other: the FIFO end the waiting process holds;
# extra: the job's other keys.
for k in w r; do
	if [ $k = w ]; then
		wl=write other=r extra=", allow_overwrite: true"
	else
		wl=read other=w extra=
	fi
	test_expect_success "a $wl target swapped for a FIFO with a process waiting at its other end: not opened" '
		mkdir p7$k
		head -c 65536 /dev/zero >p7$k/f.dat
		fifo_waiter p7$k $other
		printf "jobs:\n  - {name: j, workload: $wl, target: $TRASH/p7$k/f.dat, block_size: 4KiB$extra}\n" >p7$k.yaml
		expect_code 1 timeout -k 5 20 env SHIM_SWAP_OPEN="$TRASH/p7$k/f.dat" SHIM_SWAP_LINK="$TRASH/p7$k/fifo" LD_PRELOAD="$SHIM" \
			"$IOTRIAL" run -q p7$k.yaml -o p7$k.res 2>p7$k.err
		cat p7$k.err
		grep -F "$TRASH/p7$k/f.dat" p7$k.err
		sleep 0.2
		kill -0 "$(cat p7$k.pid)"
		kill "$(cat p7$k.pid)"
	'
done

# p8: without /proc, a file is opened by its name after the look, and checked again: a
# swap between the look and that open is refused all the same, the file swapped in not
# written; and a run with no swap goes as usual. The swap comes after the worker's look,
# the third open(2) of the path (before it, the page-cache drop looks and opens by name).
test_expect_success 'without /proc: files opened by name after the look, checked again' '
	mkdir p8
	head -c 65536 /dev/zero >p8/out.dat
	echo "not yours" >p8/victim.dat
	printf "jobs:\n  - {name: w, workload: write, target: $TRASH/p8/out.dat, allow_overwrite: true, block_size: 4KiB}\n  - {name: r, workload: read, target: $TRASH/p8, file_size: 64KiB, block_size: 4KiB}\n" >p8.yaml
	env SHIM_NO_PROC=1 LD_PRELOAD="$SHIM" timeout -k 5 20 "$IOTRIAL" run -q p8.yaml -o p8a.res
	expect_code 1 timeout -k 5 20 env SHIM_NO_PROC=1 SHIM_SWAP_OPENED="$TRASH/p8/out.dat" SHIM_SWAP_SKIP=2 SHIM_SWAP_LINK="$TRASH/p8/victim.dat" LD_PRELOAD="$SHIM" \
		"$IOTRIAL" run -q p8.yaml -o p8b.res 2>p8.err
	cat p8.err
	grep -Fx "job '"'"'w'"'"' trial 0: '"'"'$TRASH/p8/out.dat'"'"' is no longer the file it was when the run started (replaced by another file or a symlink?): not writing to it" p8.err
	expect_eq "$(cat p8/victim.dat)" "not yours"
'

# p5: the O_DIRECT probe of an existing file (before the first trial) finds a FIFO.
test_expect_success 'the O_DIRECT probe of a file swapped for a FIFO: refused at once, no hang' '
	mkdir p5
	head -c 65536 /dev/zero >p5/in.dat
	# direct before the target: its column does not depend on where the test runs.
	printf "jobs:\n  - {name: r, workload: read, direct: true, block_size: 4KiB, target: $TRASH/p5/in.dat}\n" >p5.yaml
	expect_code 1 timeout -k 5 20 env SHIM_SWAP_OPEN="$TRASH/p5/in.dat" SHIM_SWAP_TO=fifo LD_PRELOAD="$SHIM" \
		"$IOTRIAL" run -q p5.yaml -o p5.res 2>p5.err
	cat p5.err
	grep -Fx "p5.yaml:2:39: key '"'"'direct'"'"': '"'"'$TRASH/p5/in.dat'"'"' is no longer a file or a block device (a FIFO, a socket or a character device was put in its place): not using it" p5.err
	test -p p5/in.dat
'

# The same with block devices: two loop devices, the target a symlink to the first.
loop_ok=
if command -v losetup >/dev/null 2>&1; then
	truncate -s 1M a.img b.img
	if LA=$(losetup -f --show a.img 2>/dev/null) && LB=$(losetup -f --show b.img 2>/dev/null); then
		loop_ok=1
	fi
	trap 'losetup -d ${LA:-} ${LB:-} 2>/dev/null' EXIT
fi

# bdev NAME SWAP... : run a write of 64 KiB to NAME/disk (a symlink to $LA, allow_overwrite)
# with the shim variables SWAP; exit status 1 within 20 s, and $LB never written.
bdev() {
	mkdir "$1"
	ln -s "$LA" "$1/disk"
	printf "jobs:\n  - {name: w, workload: write, target: $TRASH/$1/disk, allow_overwrite: true, file_size: 64KiB, block_size: 4KiB}\n" >"$1.yaml"
	sum=$(sha256sum <"$LB")
	expect_code 1 timeout -k 5 20 env "${@:2}" LD_PRELOAD="$SHIM" "$IOTRIAL" run -q "$1.yaml" -o "$1.res" 2>"$1.err"
	cat "$1.err"
	expect_eq "$(sha256sum <"$LB")" "$sum" "$LB was written"
}

if [ -z "$loop_ok" ]; then
	for t in "a block device swapped for another after the plan checked it: refused, the other not written" \
		"a block device swapped for another while the plan checked it: refused, the other not written" \
		"a block device swapped for a FIFO while the plan checked it: refused at once, no hang"; do
		test_skip "$t" "no loop device (losetup, root)"
	done
else
	test_expect_success 'a block device swapped for another after the plan checked it: refused, the other not written' '
		bdev p2 SHIM_SWAP_OPENED="$TRASH/p2/disk" SHIM_SWAP_LINK="$LB"
		grep -Fx "job '"'"'w'"'"' trial 0: '"'"'$TRASH/p2/disk'"'"' is no longer the file it was when the run started (replaced by another file or a symlink?): not writing to it" p2.err
	'

	test_expect_success 'a block device swapped for another while the plan checked it: refused, the other not written' '
		bdev p3 SHIM_SWAP_STAT="$TRASH/p3/disk" SHIM_SWAP_LINK="$LB"
		grep -Fx "p3.yaml:2:40: key '"'"'target'"'"': '"'"'$TRASH/p3/disk'"'"' changed while iotrial checked it (it is no longer the block device it was): not using it" p3.err
	'

	test_expect_success 'a block device swapped for a FIFO while the plan checked it: refused at once, no hang' '
		bdev p4 SHIM_SWAP_OPEN="$TRASH/p4/disk" SHIM_SWAP_TO=fifo
		grep -Fx "p4.yaml:2:40: key '"'"'target'"'"': '"'"'$TRASH/p4/disk'"'"' changed while iotrial checked it (it is no longer the block device it was): not using it" p4.err
		test -p p4/disk
	'
fi

test_done
