# ksunset: one entry point for building, testing, installing and the demo.
#   make            build the checker (build/ksunset) and the plugin (build/ksunset.so)
#   make check      install missing dependencies, run every test
#   make demo       install missing dependencies, run the bundled example
#   make V=1        show full commands; SANITIZE=1 builds with ASan+UBSan

VERSION := 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=

CC ?= gcc
CXX ?= g++
PLUGIN_CC ?= gcc
PKG_CONFIG ?= pkg-config

ifeq ($(origin CC),default)
CC := gcc
endif
ifeq ($(origin CXX),default)
CXX := g++
endif

SANITIZE ?=
ifneq ($(SANITIZE),)
B := build/san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
B := build
SANFLAGS :=
endif

WARN := -Wall -Wextra -Werror -Wmissing-prototypes -Wformat=2
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude -Ilib \
	-DKS_VERSION='"$(VERSION)"' $(CFLAGS) $(SANFLAGS)
LDLIBS_CHECKER := -lelf -llzma -lzstd -lz

ifeq ($(V),1)
Q :=
echo-cmd = @:
else
Q := @
echo-cmd = @printf '  %-7s %s\n'
endif

LIB_OBJS := buf.o date.o diag.o record.o schedule.o strmap.o
CHECKER_OBJS := main.o cli.o lint.o
UNIT_OBJS := runner.o check_date.o check_schedule.o check_record.o

LIB_O := $(addprefix $(B)/lib/,$(LIB_OBJS))
CHECKER_O := $(addprefix $(B)/modpost-ext/,$(CHECKER_OBJS))
UNIT_O := $(addprefix $(B)/tests/unit/,$(UNIT_OBJS))

KSUNSET := $(B)/ksunset
LIBKS := $(B)/libksunset.a
UNIT := $(B)/unit-tests

.PHONY: all deps check check-unit check-shell demo install uninstall clean
.DELETE_ON_ERROR:

all: $(KSUNSET)

$(B)/%.o: %.c
	$(echo-cmd) CC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(LIBKS): $(LIB_O)
	$(echo-cmd) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(KSUNSET): $(CHECKER_O) $(LIBKS)
	$(echo-cmd) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_CHECKER)

$(B)/tests/unit/%.o: ALL_CFLAGS += $(shell $(PKG_CONFIG) --cflags check 2>/dev/null) \
	-DKS_TEST_DATA='"$(CURDIR)/tests/data"' -DKS_EXAMPLES='"$(CURDIR)/examples"'

$(UNIT): $(UNIT_O) $(filter-out $(B)/modpost-ext/main.o,$(CHECKER_O)) $(LIBKS)
	$(echo-cmd) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(shell $(PKG_CONFIG) --libs check) $(LDLIBS_CHECKER)

deps:
	$(Q)sh scripts/install-deps.sh

check: deps
	$(Q)$(MAKE) --no-print-directory check-unit check-shell

check-unit: $(UNIT)
	$(Q)CK_FORK=yes $(UNIT)

check-shell: $(KSUNSET)
	$(Q)KSUNSET=$(CURDIR)/$(KSUNSET) sh tests/shell/run.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)KSUNSET=$(CURDIR)/$(KSUNSET) sh examples/demo.sh

install: $(KSUNSET)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/ksunset
	install -m 755 $(KSUNSET) $(DESTDIR)$(PREFIX)/bin/ksunset
	install -m 644 include/ksunset/*.h $(DESTDIR)$(PREFIX)/include/ksunset/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ksunset
	rm -rf $(DESTDIR)$(PREFIX)/include/ksunset

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
