# iotrial — one GNU Makefile for the binary, the tests, the demo and the benchmarks.
# Quiet unless V=1; warnings are errors under DEVELOPER=1 and in CI (CI=true).

PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
PKG_CONFIG ?= pkg-config
WITH_LIBURING ?= auto
WITH_LIBAIO ?= auto

ifeq ($(V),1)
Q :=
else
Q := @
endif

CFLAGS ?= -O2 -g
ifeq ($(SANITIZE),1)
CFLAGS += -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
# The fuzz build (make fuzz-build): the library instrumented for libFuzzer, linked by clang.
ifeq ($(SANITIZE),fuzz)
CFLAGS += -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wno-unused-parameter -pthread -I.
ifneq ($(filter 1 true,$(DEVELOPER) $(CI)),)
CFLAGS += -Werror
endif
LDLIBS += -pthread -lm

REQ_PC := yaml-0.1 jansson libcrypto zlib
CFLAGS += $(shell $(PKG_CONFIG) --cflags $(REQ_PC) 2>/dev/null)
LDLIBS += $(shell $(PKG_CONFIG) --libs $(REQ_PC) 2>/dev/null)

# Optional backends: pkg-config for liburing; libaio has no .pc file, so a two-line probe.
BACKENDS := sync null synthetic fault
ifneq ($(WITH_LIBURING),no)
HAVE_LIBURING := $(shell $(PKG_CONFIG) --exists liburing 2>/dev/null && echo 1)
ifeq ($(HAVE_LIBURING),1)
CFLAGS += -DHAVE_LIBURING $(shell $(PKG_CONFIG) --cflags liburing)
LDLIBS += $(shell $(PKG_CONFIG) --libs liburing)
BACKENDS += io_uring
else ifeq ($(WITH_LIBURING),yes)
$(error WITH_LIBURING=yes but liburing was not found: apt-get install liburing-dev)
endif
endif
ifneq ($(WITH_LIBAIO),no)
HAVE_LIBAIO := $(shell echo 'int main(void){io_context_t c = 0; return io_setup(1, &c);}' | \
	$(CC) -include libaio.h -x c - -laio -o /dev/null 2>/dev/null && echo 1)
ifeq ($(HAVE_LIBAIO),1)
CFLAGS += -DHAVE_LIBAIO
LDLIBS += -laio
BACKENDS += libaio
else ifeq ($(WITH_LIBAIO),yes)
$(error WITH_LIBAIO=yes but libaio was not found: apt-get install libaio-dev)
endif
endif

# Distributed runs: `make MPI=1` builds against the MPI pkg-config finds (mpi-c, or Open MPI's
# own ompi-c; MPI_PC=NAME names another .pc file). engine/dist_mpi.c is then the transport,
# engine/dist_serial.c otherwise; a plain `make` needs no MPI at all.
ifeq ($(MPI),1)
MPI_PC ?= $(firstword $(foreach p,mpi-c ompi-c,$(shell $(PKG_CONFIG) --exists $(p) 2>/dev/null && echo $(p))))
ifeq ($(MPI_PC),)
$(error MPI=1 but pkg-config finds no MPI (mpi-c or ompi-c): scripts/install-deps.sh mpi, or set MPI_PC)
endif
ifneq ($(shell $(PKG_CONFIG) --exists $(MPI_PC) 2>/dev/null && echo 1),1)
$(error MPI=1 but pkg-config knows no '$(MPI_PC)' (MPI_PC))
endif
CFLAGS += -DIOTRIAL_MPI $(shell $(PKG_CONFIG) --cflags $(MPI_PC))
LDLIBS += $(shell $(PKG_CONFIG) --libs $(MPI_PC))
TRANSPORT := mpi
TRANSPORT_LINE := ; distributed runs: MPI ($(MPI_PC))
else
TRANSPORT := serial
TRANSPORT_LINE :=
endif

# B is where a build goes: the tree itself by default, build-asan/ for the sanitizer build.
B ?=
LIB_SRC := $(sort $(wildcard engine/*.c engine/backends/*.c parsers/*.c reporters/*.c plot/*.c))
LIB_OBJ := $(addprefix $(B),$(LIB_SRC:.c=.o))
# The command line: iotrial.c and cli/, linked into the binary only.
CLI_SRC := $(sort $(wildcard cli/*.c))
CLI_OBJ := $(addprefix $(B),$(CLI_SRC:.c=.o))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(addprefix $(B),$(UNIT_SRC:.c=))
FUZZ_TARGETS := jobfile results
DEPS := $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(B)iotrial.d $(addprefix $(B),$(UNIT_SRC:.c=.d)) \
	$(patsubst %,$(B)tests/fuzz/fuzz_%.d,$(FUZZ_TARGETS))

all: $(B)iotrial

# The transport a build folder was built with: switching between `make` and `make MPI=1` in
# one folder rebuilds the transport files and relinks instead of mixing the two.
# The same for the optional backends (WITH_LIBURING, WITH_LIBAIO): the stamp holds both, so
# a build never mixes objects made with and without a library.
TRANSPORT_STAMP := $(B).transport
ifneq ($(shell cat $(TRANSPORT_STAMP) 2>/dev/null),$(TRANSPORT) $(BACKENDS))
$(shell mkdir -p $(or $(B),.) && echo $(TRANSPORT) $(BACKENDS) >$(TRANSPORT_STAMP))
endif
$(B)engine/dist_serial.o $(B)engine/dist_mpi.o $(B)iotrial.o: $(TRANSPORT_STAMP)
$(B)engine/backends/registry.o $(B)engine/backends/io_uring.o: $(TRANSPORT_STAMP)
$(B)engine/backends/libaio.o: $(TRANSPORT_STAMP)

# Print once which backends this build carries (the build's one line of news).
.backends-line:
	@echo "iotrial: backends compiled in: $(BACKENDS)$(TRANSPORT_LINE)"

$(B)%.o: %.c
	@$(if $(Q),echo "  CC      $@")
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(B)libiotrial.a: $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)iotrial: $(B)iotrial.o $(CLI_OBJ) $(B)libiotrial.a $(TRANSPORT_STAMP) | .backends-line
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $(filter-out $(TRANSPORT_STAMP),$^) $(LDFLAGS) $(LDLIBS)

$(B)tests/unit/test_%: tests/unit/test_%.c $(B)libiotrial.a
	@$(if $(Q),echo "  CC      $@")
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) $(shell $(PKG_CONFIG) --cflags cmocka) -MMD -MP \
		-o $@ $< $(B)libiotrial.a $(LDFLAGS) $(LDLIBS) $(shell $(PKG_CONFIG) --libs cmocka)

deps:
	$(Q)scripts/install-deps.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory iotrial
	./iotrial run jobs/quickstart.yaml

test: deps
	$(Q)$(MAKE) --no-print-directory iotrial $(UNIT_BIN)
	$(Q)tests/run-tests.sh $(UNIT_BIN)

# Same tests, built with AddressSanitizer and UndefinedBehaviorSanitizer into build-asan/
# (the normal build in the tree is left alone).
test-asan: deps
	$(Q)$(MAKE) --no-print-directory B=build-asan/ SANITIZE=1 build-asan/iotrial \
		$(addprefix build-asan/,$(UNIT_SRC:.c=))
	$(Q)IOTRIAL=$(CURDIR)/build-asan/iotrial ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/run-tests.sh $(addprefix build-asan/,$(UNIT_SRC:.c=))

$(B)tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(B)libiotrial.a
	@$(if $(Q),echo "  CC      $@")
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) -fsanitize=fuzzer -MMD -MP -o $@ $< \
		$(B)libiotrial.a $(LDFLAGS) $(LDLIBS)

# libFuzzer targets over the job-file parser + planner and the results.json reader, built with
# clang into build-fuzz/. `make fuzz FUZZ_SECONDS=N` runs each for N seconds from its seed
# corpus tests/fuzz/corpus/<target>/; what it discovers goes to build-fuzz/corpus/<target>/
# (copy inputs into tests/fuzz/corpus/ by hand), a crash to build-fuzz/crashes/ and fails.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS ?= -timeout=60 -rss_limit_mb=2048
fuzz-build:
	$(Q)$(MAKE) --no-print-directory B=build-fuzz/ SANITIZE=fuzz CC=clang fuzz-bins

fuzz-bins: $(patsubst %,$(B)tests/fuzz/fuzz_%,$(FUZZ_TARGETS))
	@:

fuzz:
	$(Q)scripts/install-deps.sh fuzz
	$(Q)$(MAKE) --no-print-directory fuzz-build
	$(Q)st=0; for t in $(FUZZ_TARGETS); do \
		mkdir -p build-fuzz/corpus/$$t build-fuzz/crashes; \
		echo "fuzz: $$t for $(FUZZ_SECONDS)s (log: build-fuzz/fuzz-$$t.log)"; \
		if build-fuzz/tests/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS) \
			-print_final_stats=1 -artifact_prefix=build-fuzz/crashes/$$t- \
			build-fuzz/corpus/$$t tests/fuzz/corpus/$$t >build-fuzz/fuzz-$$t.log 2>&1; then \
			grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' \
				build-fuzz/fuzz-$$t.log; \
		else \
			tail -n 60 build-fuzz/fuzz-$$t.log; echo "fuzz: $$t FAILED"; st=1; \
		fi; \
	done; exit $$st

# Opt-in: the shell tests against falsified results, one mutant at a time (tests/mutants.sh,
# docs/testing.md); fails unless every mutant is caught. MUTANTS_FLAGS=--all lists every catch.
test-mutants: deps
	$(Q)$(MAKE) --no-print-directory iotrial
	tests/mutants.sh $(MUTANTS_FLAGS)

# Opt-in: 1,000 (SOAK_RUNS) mixed runs on every backend, interrupted at random, among planted
# foreign files that must come out byte-identical (docs/safety.md#the-soak-test).
soak: deps
	$(Q)$(MAKE) --no-print-directory iotrial
	tests/soak.sh

bench: deps
	$(Q)$(MAKE) --no-print-directory iotrial
	bench/vs-fio.sh

install: iotrial
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/doc/iotrial $(DESTDIR)$(PREFIX)/share/iotrial/jobs
	install -m 755 iotrial $(DESTDIR)$(PREFIX)/bin/iotrial
	install -m 644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/iotrial/
	install -m 644 jobs/*.yaml $(DESTDIR)$(PREFIX)/share/iotrial/jobs/

clean-objs:
	$(Q)rm -f $(LIB_OBJ) $(CLI_OBJ) iotrial.o libiotrial.a iotrial $(UNIT_BIN) $(DEPS) $(TRANSPORT_STAMP)

clean: clean-objs
	$(Q)rm -rf tests/trash.* results build-asan build-fuzz build-mpi build-mpi-asan build-mutants

.PHONY: all deps demo test test-asan test-mutants fuzz fuzz-build fuzz-bins bench install clean clean-objs .backends-line

-include $(DEPS)
