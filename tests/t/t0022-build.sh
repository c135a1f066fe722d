#!/bin/bash
# The build and the source checks (docs/building.md): the user's CFLAGS never drop the
# project's flags; a missing library stops the build naming its Debian package; a backend or
# transport left out is a file left out; scripts/check-layers.sh finds a back edge and an
# include cycle; scripts/check-format.sh finds a misformatted file. Builds go to folders of
# this test's own (make -n where compiling is not the point).
. "$(dirname "$0")/lib.sh"

# make in the source tree as from a clean shell: without the calling make's flags (-j, the
# jobserver) or its command-line variables, which make exports (make test WITH_LIBAIO=no).
mk() {
	env -u MAKEFLAGS -u MFLAGS -u B -u WITH_LIBURING -u WITH_LIBAIO -u MPI -u SANITIZE \
		-u CFLAGS make --no-print-directory -C "$SRC" "$@"
}

test_expect_success 'make CFLAGS=-O0 keeps -std=c11 -D_GNU_SOURCE -I., -pthread and the warnings' '
	mk -n CFLAGS=-O0 B="$TRASH/o0/" "$TRASH/o0/engine/stats/hist.o" >cmd
	grep -F -- "-std=c11 -D_GNU_SOURCE -pthread -I. -Wall -Wextra" cmd
	grep -F -- " -O0 " cmd
	not grep -F -- "-O2" cmd
'

test_expect_success 'CFLAGS come after the project flags, so a user flag can override one' '
	mk -n CFLAGS="-O1 -Wno-shadow" B="$TRASH/o1/" "$TRASH/o1/engine/stats/hist.o" >cmd
	grep -E -- "-Wshadow .* -O1 -Wno-shadow" cmd
'

mkdir -p "$TRASH/no-pc"
test_expect_success 'a required library pkg-config cannot find stops the build, naming its package' '
	PKG_CONFIG_LIBDIR="$TRASH/no-pc" PKG_CONFIG_PATH= expect_code 2 \
		mk -s B="$TRASH/nolib/" "$TRASH/nolib/iotrial" 2>err
	cat err
	grep "^iotrial: pkg-config finds no .yaml-0\.1.: apt-get install libyaml-dev" err
	grep -F "apt-get install libjansson-dev" err
	grep -F "apt-get install nettle-dev" err
	grep -F "apt-get install zlib1g-dev" err
	test ! -e nolib/engine/stats/hist.o
'

test_expect_success 'without the libraries, make clean-objs B=DIR/ still works, in DIR/ only' '
	ls -i "$SRC/Makefile" >before
	if [ -e "$SRC/iotrial" ]; then ls -i "$SRC/iotrial" >>before; fi
	mkdir -p nolib/engine/stats
	touch nolib/iotrial nolib/iotrial.o nolib/libiotrial.a nolib/engine/stats/hist.o
	PKG_CONFIG_LIBDIR="$TRASH/no-pc" PKG_CONFIG_PATH= mk -s B="$TRASH/nolib/" clean-objs
	ls nolib >left
	expect_eq "$(cat left)" engine
	test ! -e nolib/engine/stats/hist.o
	awk "{ print \$2 }" before | xargs ls -i >after
	expect_eq "$(cat after)" "$(cat before)" "the tree'"'"'s own files"
'

test_expect_success 'WITH_LIBURING=no WITH_LIBAIO=no: io_uring.c and libaio.c are left out, the io_uring options kept' '
	mk -n WITH_LIBURING=no WITH_LIBAIO=no B="$TRASH/nob/" "$TRASH/nob/iotrial" >cmds
	grep -F "engine/io/backends/sync.c" cmds
	grep -F "engine/io/backends/registry.c" cmds
	grep -F "engine/io/backends/io_uring_opts.c" cmds
	not grep -F "engine/io/backends/io_uring.c" cmds
	not grep -F "engine/io/backends/libaio.c" cmds
	not grep -e "-luring" -e "-laio" -e "HAVE_LIBURING" -e "HAVE_LIBAIO" cmds
'

test_expect_success 'a serial build compiles dist_serial.c, not dist_mpi.c' '
	mk -n B="$TRASH/ser/" "$TRASH/ser/iotrial" >cmds
	grep -F "engine/dist/dist_serial.c" cmds
	not grep -F "engine/dist/dist_mpi.c" cmds
'

if pkg-config --exists liburing; then
	test_expect_success 'with liburing found, io_uring.c is built' '
		mk -n B="$TRASH/uring/" "$TRASH/uring/iotrial" >cmds
		grep -F "engine/io/backends/io_uring.c" cmds
	'
else
	test_skip 'with liburing found, io_uring.c is built' 'liburing is not installed'
fi

test_expect_success 'check-layers: the tree itself has no include against the layers and no cycle' '
	"$SRC/scripts/check-layers.sh" >out
	cat out
	grep -E "^check-layers: [0-9]+ includes, every one down the layers, no include cycle$" out
'

# A small tree for scripts/check-layers.sh: a unit of each kind, every include allowed.
tree="$TRASH/tree"
mkdir -p "$tree/scripts" "$tree/engine/run" "$tree/engine/io/backends" "$tree/parsers" "$tree/cli"
cp "$SRC/scripts/check-layers.sh" "$tree/scripts/"
printf '#include "engine/io/backends/backend.h"\n' >"$tree/engine/run/trial.h"
printf '#include "engine/run/trial.h"\n#include "engine/run/trial_internal.h"\n' >"$tree/engine/run/trial.c"
printf '#include "engine/run/trial.h"\n' >"$tree/engine/run/trial_internal.h"
printf '#include "engine/run/trial.h"\n' >"$tree/engine/run/stonewall.h"
printf '/* empty */\n' >"$tree/engine/io/backends/backend.h"
printf '/* empty */\n' >"$tree/parsers/yp.h"
printf '#include "engine/run/trial.h"\n#include "parsers/yp.h"\n' >"$tree/cli/cli.c"
printf '#include "cli/cli.h"\n' >"$tree/iotrial.c"
printf '/* empty */\n' >"$tree/cli/cli.h"

test_expect_success 'check-layers: a tree whose includes all point down passes' '
	"$tree/scripts/check-layers.sh" >out
	grep -F "check-layers: 8 includes, every one down the layers, no include cycle" out
'

test_expect_success 'check-layers: an include cycle between two modules fails, both named' '
	cp "$tree/engine/run/trial_internal.h" saved.h
	printf "#include \"engine/run/stonewall.h\"\n" >>"$tree/engine/run/trial_internal.h"
	rc=0
	"$tree/scripts/check-layers.sh" >out || rc=$?
	cp saved.h "$tree/engine/run/trial_internal.h"
	cat out
	expect_eq "$rc" 1
	grep -F "include cycle between 2 modules: engine/run/trial, engine/run/stonewall" out
	grep -F "engine/run/trial_internal.h:2: #include \"engine/run/stonewall.h\"" out
	grep -F "engine/run/stonewall.h:1: #include \"engine/run/trial.h\"" out
'

test_expect_success 'check-layers: an include against the layers fails, file and line named' '
	printf "#include \"engine/run/trial.h\"\n" >>"$tree/parsers/yp.h"
	rc=0
	"$tree/scripts/check-layers.sh" >out || rc=$?
	printf "/* empty */\n" >"$tree/parsers/yp.h"
	cat out
	expect_eq "$rc" 1
	grep -F "parsers/yp.h:2: #include \"engine/run/trial.h\": parsers/ may not include engine/run/" out
'

test_expect_success 'check-layers: a folder missing from the table fails' '
	mkdir -p "$tree/extra"
	printf "/* empty */\n" >"$tree/extra/x.h"
	printf "#include \"extra/x.h\"\n" >"$tree/cli/cli.h"
	rc=0
	"$tree/scripts/check-layers.sh" >out || rc=$?
	printf "/* empty */\n" >"$tree/cli/cli.h"
	rm -r "$tree/extra"
	cat out
	expect_eq "$rc" 1
	grep -F "extra/x.h is in no unit of the layer table" out
'

cp "$SRC/.clang-format" .
if command -v clang-format >/dev/null; then
	test_expect_success 'check-format: a file as .clang-format writes it passes, a misformatted one fails' '
		printf "int f(int x)\n{\n\treturn x + 1;\n}\n" >good.c
		"$SRC/scripts/check-format.sh" good.c >out
		grep -F "format-check: 1 files as .clang-format writes them" out
		printf "int  f(int x) {\n  return x+1; }\n" >bad.c
		expect_code 1 "$SRC/scripts/check-format.sh" good.c bad.c >out
		grep -F "format-check: bad.c: " out
		not grep -F "good.c" out
	'
else
	test_skip 'check-format: a file as .clang-format writes it passes, a misformatted one fails' \
		'clang-format is not installed (scripts/install-deps.sh lint)'
fi

test_done
