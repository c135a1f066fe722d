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
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wno-unused-parameter -pthread -I.
ifneq ($(filter 1 true,$(DEVELOPER) $(CI)),)
CFLAGS += -Werror
endif
LDLIBS += -pthread -lm

REQ_PC := yaml-0.1 jansson libcrypto zlib
CFLAGS += $(shell $(PKG_CONFIG) --cflags $(REQ_PC) 2>/dev/null)
LDLIBS += $(shell $(PKG_CONFIG) --libs $(REQ_PC) 2>/dev/null)

# Optional backends: pkg-config for liburing; libaio has no .pc file, so a two-line probe.
BACKENDS := sync null
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

LIB_SRC := $(sort $(wildcard engine/*.c engine/backends/*.c parsers/*.c reporters/*.c))
LIB_OBJ := $(LIB_SRC:.c=.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:.c=)
DEPS := $(LIB_OBJ:.o=.d) iotrial.d $(UNIT_SRC:.c=.d)

all: iotrial

# Print once which backends this build carries (the build's one line of news).
.backends-line:
	@echo "iotrial: backends compiled in: $(BACKENDS)"

%.o: %.c
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

libiotrial.a: $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

iotrial: iotrial.o libiotrial.a | .backends-line
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

tests/unit/test_%: tests/unit/test_%.c libiotrial.a
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS) $(shell $(PKG_CONFIG) --cflags cmocka) -MMD -MP -o $@ $< libiotrial.a \
		$(LDFLAGS) $(LDLIBS) $(shell $(PKG_CONFIG) --libs cmocka)

deps:
	$(Q)scripts/install-deps.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory iotrial
	./iotrial run jobs/quickstart.yaml

test: deps
	$(Q)$(MAKE) --no-print-directory iotrial $(UNIT_BIN)
	$(Q)tests/run-tests.sh $(UNIT_BIN)

# Same tests, built with AddressSanitizer and UndefinedBehaviorSanitizer into build-asan/.
test-asan: deps
	$(Q)$(MAKE) --no-print-directory clean-objs
	$(Q)$(MAKE) --no-print-directory iotrial $(UNIT_BIN) SANITIZE=1
	$(Q)ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 tests/run-tests.sh $(UNIT_BIN)
	$(Q)$(MAKE) --no-print-directory clean-objs

bench: deps
	$(Q)$(MAKE) --no-print-directory iotrial
	bench/vs-fio.sh

install: iotrial
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/doc/iotrial $(DESTDIR)$(PREFIX)/share/iotrial/jobs
	install -m 755 iotrial $(DESTDIR)$(PREFIX)/bin/iotrial
	install -m 644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/iotrial/
	install -m 644 jobs/*.yaml $(DESTDIR)$(PREFIX)/share/iotrial/jobs/

clean-objs:
	$(Q)rm -f $(LIB_OBJ) iotrial.o libiotrial.a iotrial $(UNIT_BIN) $(DEPS)

clean: clean-objs
	$(Q)rm -rf tests/trash.* results

.PHONY: all deps demo test test-asan bench install clean clean-objs .backends-line

-include $(DEPS)
