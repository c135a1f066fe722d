#!/bin/bash
# An existing file written over (allow_overwrite) counts what it will grow by against the free
# space of the file system it is on (t0052 "a file written over counts what it grows by"):
# the file system of the file, not of the folder of a symbolic link that names it, and
# what it holds on disk only where that can lie within what the jobs write, not past it.
# (The plan counted the link's folder's file system, which refused a file that fits
# elsewhere and passed one that did not fit on its own; and a file whose data lay past the
# region written counted as growing by nothing, so its trial failed with ENOSPC.)
# The ranks' regions of a shared file are in t0011.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ] || ! mkdir disk || ! mount -t tmpfs -o size=1m tmpfs disk 2>/dev/null; then
	skip_rest 'needs root to mount a small tmpfs'
fi
mkdir elsewhere

# job TARGET FILE_SIZE: one write over TARGET, file_size FILE_SIZE from offset 0.
job() {
	printf 'experiment: grow\nreplication: {runs: 1, warmup: 0}\njobs:\n  - {target: %s, name: w, workload: write, backend: sync, allow_overwrite: true, file_size: %s, block_size: 64KiB}\n' "$@"
}
job elsewhere/link 2MiB >to-disk.yaml
job disk/link 2MiB >from-disk.yaml

test_expect_success 'a file named by a symbolic link counts on the file system of the file, not of the link' '
	head -c 65536 /dev/zero >disk/ex.bin
	ln -s "$PWD/disk/ex.bin" elsewhere/link
	expect_code 1 "$IOTRIAL" run -q -o r1 to-disk.yaml 2>err
	grep -x "to-disk.yaml:4:14: key .target.: not enough free space in .$PWD/disk.: 2031616 bytes needed for what the plan creates or grows on its file system (1 file), 983040 available" err
	expect_eq "$(wc -l <err)" 1 "lines on stderr"
	expect_eq "$(stat -c %s disk/ex.bin)" 65536 "the file written over"
	test ! -e r1
	rm disk/ex.bin elsewhere/link
	head -c 65536 /dev/zero >elsewhere/ex.bin
	ln -s "$PWD/elsewhere/ex.bin" disk/link
	"$IOTRIAL" run -q -o r2 from-disk.yaml
	expect_eq "$(stat -c %s elsewhere/ex.bin)" 2097152 "the file written over"
	rm disk/link
'

# A file of 2 MiB whose first 1408 KiB are a hole and whose last 640 KiB hold data: 393216
# bytes free. Writing its first 512 KiB fills 512 KiB of the hole; its first 320 KiB fit.
job disk/sp.bin 512KiB >hole.yaml
job disk/sp.bin 320KiB >hole-fits.yaml
test_expect_success 'a file whose data lies past the region written: its holes there count in full' '
	truncate -s 2M disk/sp.bin
	dd if=/dev/zero of=disk/sp.bin bs=64K seek=22 count=10 conv=notrunc 2>/dev/null
	expect_eq "$(stat -c %b disk/sp.bin)" 1280 "512-byte blocks held"
	expect_code 1 "$IOTRIAL" run -q -o r3 hole.yaml 2>err
	grep -x "hole.yaml:4:14: key .target.: not enough free space in .disk.: 524288 bytes needed for what the plan creates or grows on its file system (1 file), 393216 available" err
	expect_eq "$(stat -c %b disk/sp.bin)" 1280 "512-byte blocks held"
	test ! -e r3
	"$IOTRIAL" run -q -o r4 hole-fits.yaml
	expect_eq "$(stat -c %b disk/sp.bin)" 1920 "512-byte blocks held"
	rm disk/sp.bin
'

umount disk

test_done
