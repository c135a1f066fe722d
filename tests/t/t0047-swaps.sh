#!/bin/bash
# Time-of-check-to-time-of-use: a name swapped between the moment iotrial looks at it and
# the moment it opens it. The swaps are made on cue (tests/t/t0023-shim.c, preloaded), so
# the window a hostile user hits once in a while is hit every time. copytree: a source
# entry swapped just before it is opened is never followed into a read or a write, a FIFO
# never holds the run, and the copy takes its mode from what was opened. (The old code
# waited forever on the FIFO and copied a swapped file with the mode of the one it
# replaced.)
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

test_done
