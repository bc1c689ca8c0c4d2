# ksunset: one entry point for building, testing, installing and the demo.
#   make            build the checker (build/ksunset) and the plugin (build/ksunset.so)
#   make check      install missing dependencies, run every test
#   make demo       install missing dependencies, run the bundled example
#   make fuzz       libFuzzer targets, FUZZ_SECONDS=N each (tests/fuzz/README)
#   make bench      speed against nm and libelf (.ko, .ko.xz), plugin overhead, DWARF lines,
#                   check --target against real builds
#                   (bench/results.md); PARTS="check plugin xz dwarf" picks parts
#   make V=1        show full commands; SANITIZE=1 builds with ASan+UBSan

.DEFAULT_GOAL := all
VERSION := 0.1.0
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
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
CHECKER_INC := -iquote modpost-ext
KS_DEFS := -DKS_VERSION='"$(VERSION)"' -DKS_PLUGINDIR='"$(PREFIX)/lib/ksunset"' \
	-DKS_DATADIR='"$(PREFIX)/share"' -DKS_SYSCONFDIR='"$(SYSCONFDIR)"'
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude -iquote lib $(CHECKER_INC) $(KS_DEFS) \
	$(CPPFLAGS) $(CFLAGS) $(SANFLAGS)
LDLIBS_CHECKER := $(shell $(PKG_CONFIG) --libs libdw 2>/dev/null || echo -ldw) \
	-lelf -llzma -lzstd -lz -pthread

ifeq ($(V),1)
Q :=
echo-cmd = @:
else
Q := @
echo-cmd = @printf '  %-7s %s\n'
endif

LIB_OBJS := alloc.o array.o buf.o cond.o condres.o date.o diag.o file.o license.o path.o record.o schedule.o strmap.o wording.o
# The checker, by folder (doc/HACKING.md says what goes where).
CHECKER_OBJS := main.o
# cmd/: one file per subcommand, and the command-line steps they share
CHECKER_OBJS += cmd/cmd.o cmd/cli.o cmd/locate.o cmd/check.o cmd/lint.o cmd/unused.o cmd/users.o cmd/mark.o cmd/make.o
# module/: reading a module: files, ELF, kernel policy, and the plugin's
# records as a location source
CHECKER_OBJS += module/modfile.o module/elfmod.o module/modinfo.o module/policy.o \
	module/use.o module/records.o module/shapes.o module/debuginfo.o
# dwarf/: the module's DWARF as a location source
CHECKER_OBJS += dwarf/dwarf.o dwarf/sites.o dwarf/index.o dwarf/place.o dwarf/libdw.o \
	dwarf/dwarfpath.o dwarf/dwarfrel.o dwarf/dwarfpick.o \
	dwarf/debugfile.o
# input/: arguments and directories, Module.symvers, schedule writing
CHECKER_OBJS += input/inputs.o input/scan.o input/symvers.o input/schedwrite.o input/migrations.o \
	input/ctext.o cmd/fix.o
# another kernel: diff and --target (Module.symvers compared, namespaces as
# the loader decides them, changes as schedule entries)
CHECKER_OBJS += cmd/diff.o module/namespace.o input/kernel.o input/symdiff.o input/diffsched.o \
	input/headers.o rules/target.o module/exports.o
# forecast/: will the modules build on the --target kernel (probes of its headers)
CHECKER_OBJS += forecast/forecast.o forecast/source.o forecast/judge.o forecast/kbuild.o
# rules/: the check rules, the lint rules, import counts, baselines
CHECKER_OBJS += rules/rules.o rules/lintrules.o rules/imports.o rules/baseline.o
# report/: the report writers
CHECKER_OBJS += report/report.o report/text.o report/json.o report/sarif.o report/column.o report/rewrite.o \
	report/escape.o
# The program is main.o and these; the unit tests and the fuzzers link the
# same archive. Each unit suite registers itself (tests/unit/suites.h).
CORE_OBJS := $(filter-out main.o,$(CHECKER_OBJS))
UNIT_OBJS := $(patsubst tests/unit/%.c,%.o,$(wildcard tests/unit/*.c))

LIB_O := $(addprefix $(B)/lib/,$(LIB_OBJS))
CORE_O := $(addprefix $(B)/modpost-ext/,$(CORE_OBJS))
UNIT_O := $(addprefix $(B)/tests/unit/,$(UNIT_OBJS))

KSUNSET := $(B)/ksunset
LIBKS := $(B)/libksunset.a
LIBCORE := $(B)/libksunset-checker.a
UNIT := $(B)/unit-tests

# The GCC plugin: C-style C++ against the plugin headers of PLUGIN_CC. A
# cross compiler's plugin goes to a directory named after its target
# triplet; its file keeps the name ksunset.so, since GCC takes the
# -fplugin-arg-NAME-KEY prefix from the file name.
PLUGIN_GCC_DIR := $(shell $(PLUGIN_CC) -print-file-name=plugin 2>/dev/null)
PLUGIN_TRIPLET := $(shell $(PLUGIN_CC) -dumpmachine 2>/dev/null)
ifeq ($(PLUGIN_CC),gcc)
PLUGIN := build/ksunset.so
PB := build/plugin
else
PLUGIN := build/$(PLUGIN_TRIPLET)/ksunset.so
PB := build/plugin-$(PLUGIN_TRIPLET)
endif
PLUGIN_OBJS := ksunset.o where.o token.o mark.o uses.o modinfo.o report.o note.o accept.o api.o shape.o consts.o text.o probe.o guard.o reach.o
PLUGIN_CXXFLAGS := -std=gnu++14 -fPIC -fno-rtti -fno-exceptions -O2 -g \
	-Wall -Wextra -Werror -Wno-unused-parameter \
	-I$(PLUGIN_GCC_DIR)/include -Iinclude -Ilib
PLUGIN_O := $(addprefix $(PB)/,$(PLUGIN_OBJS)) $(addprefix $(PB)/lib/,$(LIB_OBJS))

$(PB)/%.o: plugin/%.c
	$(echo-cmd) CXX $<
	@mkdir -p $(@D)
	$(Q)$(CXX) $(PLUGIN_CXXFLAGS) $(CPPFLAGS) -MMD -MP -c -o $@ $<

$(PB)/lib/%.o: lib/%.c
	$(echo-cmd) CC-PIC $<
	@mkdir -p $(@D)
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude -Ilib -fPIC $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# Linked by the C driver: operator new and delete come from cc1 itself,
# which exports them, so loading the plugin does not load (and relocate)
# libstdc++ for every compilation.
$(PLUGIN): $(PLUGIN_O)
	$(echo-cmd) LD $@
	@mkdir -p $(@D)
	$(Q)$(CC) -shared $(LDFLAGS) -o $@ $^

plugin: $(PLUGIN)

# The plugin's tests alone (make check runs them too, from check-shell).
.PHONY: check-plugin
check-plugin: $(KSUNSET) $(PLUGIN)
	$(Q)KSUNSET=$(CURDIR)/$(KSUNSET) PLUGIN=$(CURDIR)/$(PLUGIN) TESTS="t-plugin t-plugin-cross t-kbuild" \
		sh tests/shell/run.sh

# Real DKMS packages (../shared/corpus/dkms-packages.tsv) built with and
# without the plugin, then folders of Debian's linux-source-6.1 built as
# external modules, every caret checked (tests/kbuild/carets.sh; CARETS=
# names a few of its folders): minutes, and needs the Debian archive.
.PHONY: check-world
check-world: $(KSUNSET) $(PLUGIN)
	$(Q)PLUGIN=$(CURDIR)/$(PLUGIN) sh tests/kbuild/world.sh; w=$$?; \
	KSUNSET=$(CURDIR)/$(KSUNSET) PLUGIN=$(CURDIR)/$(PLUGIN) sh tests/kbuild/carets.sh $(CARETS); \
	c=$$?; test $$w -eq 0 && test $$c -eq 0

# Not part of check: minutes, and Debian's kernel package (fetched once).
.PHONY: bench
# the parts of make bench: bench/bench.sh's (see there: check, plugin or
# kbuild instr tu, xz), bench/dwarf.sh's (dwarf), bench/target.sh's (target)
# and bench/fix.sh's (fix)
PARTS ?= check plugin xz dwarf target
bench: $(KSUNSET) $(PLUGIN)
	$(Q)PARTS="$(PARTS)" KSUNSET=$(CURDIR)/$(KSUNSET) PLUGIN=$(CURDIR)/$(PLUGIN) sh bench/bench.sh
	$(Q)$(if $(filter dwarf,$(PARTS)),KSUNSET=$(CURDIR)/$(KSUNSET) PLUGIN=$(CURDIR)/$(PLUGIN) sh bench/dwarf.sh)
	$(Q)$(if $(filter target,$(PARTS)),KSUNSET=$(CURDIR)/$(KSUNSET) sh bench/target.sh)
	$(Q)$(if $(filter fix,$(PARTS)),KSUNSET=$(CURDIR)/$(KSUNSET) PLUGIN=$(CURDIR)/$(PLUGIN) sh bench/fix.sh)

.PHONY: all deps plugin install-gcc-plugin check check-unit check-shell demo install uninstall clean
.DELETE_ON_ERROR:
# keep intermediate objects (the fuzz replay programs), so make never ends a
# run with an "rm" after the test summary
.SECONDARY:

all: $(KSUNSET) $(PLUGIN)

$(B)/%.o: %.c
	$(echo-cmd) CC $<
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(LIBKS): $(LIB_O)
$(LIBCORE): $(CORE_O)
$(LIBKS) $(LIBCORE):
	$(echo-cmd) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(KSUNSET): $(B)/modpost-ext/main.o $(LIBCORE) $(LIBKS)
	$(echo-cmd) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_CHECKER)

$(B)/tests/unit/%.o: ALL_CFLAGS += $(shell $(PKG_CONFIG) --cflags check 2>/dev/null) \
	-DKS_TEST_DATA='"$(CURDIR)/tests/data"' -DKS_EXAMPLES='"$(CURDIR)/examples"' \
	-DKS_FIXTURES='"$(CURDIR)/$(B)/fixtures"'

# ELF fixtures for the unit tests, assembled from checked-in sources; units.o
# is an object of several units, linked as a module's are (ld -r).
FIXTURES := $(B)/fixtures/records.o $(B)/fixtures/bad-record.o $(B)/fixtures/units.o
UNITS_SRC := $(wildcard tests/data/elf/units/*.c)

$(B)/fixtures/units.o: $(UNITS_SRC)
	$(echo-cmd) LD-R $@
	@mkdir -p $(@D)/units
	$(Q)for s in $^; do $(CC) -g -O1 -fno-pic -fno-toplevel-reorder -c -o $(@D)/units/$$(basename $$s .c).o $$s || \
		exit 1; done
	$(Q)ld -r -o $@ $(patsubst tests/data/elf/units/%.c,$(@D)/units/%.o,$^)

$(B)/fixtures/%.o: tests/data/elf/%.S
	$(echo-cmd) AS $<
	@mkdir -p $(@D)
	$(Q)$(CC) -c -o $@ $<

$(B)/fixtures/bad-record.o: tests/data/elf/records.S
	$(echo-cmd) AS $@
	@mkdir -p $(@D)
	$(Q)$(CC) -c -DKS_BAD_RECORD -o $@ $<

$(UNIT): $(FIXTURES) $(UNIT_O) $(LIBCORE) $(LIBKS)
	$(echo-cmd) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(filter-out $(FIXTURES),$^) \
		$(shell $(PKG_CONFIG) --libs check) $(LDLIBS_CHECKER)

deps:
	$(Q)sh scripts/install-deps.sh

check: deps
	$(Q)$(MAKE) --no-print-directory check-unit check-shell

check-unit: $(UNIT)
	$(Q)CK_FORK=yes $(UNIT)

check-shell: $(KSUNSET) $(PLUGIN)
	$(Q)KSUNSET=$(CURDIR)/$(KSUNSET) PLUGIN=$(CURDIR)/$(PLUGIN) \
		$(if $(SANITIZE),KSUNSET_PLUGIN=$(CURDIR)/$(PLUGIN)) sh tests/shell/run.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)KSUNSET=$(CURDIR)/$(KSUNSET) sh examples/demo.sh; test $$? -le 1

# Install: the program, the plugin (PREFIX/lib/ksunset; install-gcc-plugin
# also puts it in GCC's plugin directory, so -fplugin=ksunset works by
# name), headers, man pages (naming PREFIX's and SYSCONFDIR's paths),
# schedule folders and a pkg-config file.
GCC_PLUGIN_DIR := $(shell $(PLUGIN_CC) -print-file-name=plugin 2>/dev/null)
MANDIR := $(PREFIX)/share/man
# bash-completion's directory below PREFIX (where its loader looks: /usr, or
# /usr/local through XDG_DATA_DIRS)
BASHCOMPDIR ?= $(or $(shell $(PKG_CONFIG) --define-variable=datadir=$(PREFIX)/share \
	--variable=completionsdir bash-completion 2>/dev/null),$(PREFIX)/share/bash-completion/completions)
INSTALL_DIRS := $(PREFIX)/bin $(PREFIX)/lib/ksunset $(PREFIX)/include/ksunset \
	$(MANDIR)/man1 $(MANDIR)/man5 $(PREFIX)/share/ksunset/schedule.d \
	$(PREFIX)/lib/pkgconfig $(SYSCONFDIR)/ksunset/schedule.d $(BASHCOMPDIR)

install: $(KSUNSET) $(PLUGIN)
	$(Q)for d in $(INSTALL_DIRS); do install -d "$(DESTDIR)$$d"; done
	$(Q)install -m 755 $(KSUNSET) $(DESTDIR)$(PREFIX)/bin/ksunset
	$(Q)install -m 755 $(PLUGIN) $(DESTDIR)$(PREFIX)/lib/ksunset/ksunset.so
	$(Q)install -m 644 include/ksunset/*.h $(DESTDIR)$(PREFIX)/include/ksunset/
	$(Q)for p in doc/*.1 doc/*.5; do \
		sed -e 's|/usr/local/|$(PREFIX)/|g' -e 's|/etc/ksunset/|$(SYSCONFDIR)/ksunset/|g' "$$p" \
			>"$(DESTDIR)$(MANDIR)/man$${p##*.}/$${p##*/}" && \
		chmod 644 "$(DESTDIR)$(MANDIR)/man$${p##*.}/$${p##*/}" || exit 1; done
	$(Q)install -m 644 completion/ksunset.bash $(DESTDIR)$(BASHCOMPDIR)/ksunset
	$(Q)install -m 644 share/history.schedule $(DESTDIR)$(PREFIX)/share/ksunset/
	$(Q)install -d $(DESTDIR)$(PREFIX)/share/ksunset/migrations
	$(Q)install -m 644 share/migrations/*.migrations $(DESTDIR)$(PREFIX)/share/ksunset/migrations/
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' ksunset.pc.in \
		>$(DESTDIR)$(PREFIX)/lib/pkgconfig/ksunset.pc
	@echo "installed under $(DESTDIR)$(PREFIX)"

install-gcc-plugin: $(PLUGIN)
	install -d $(DESTDIR)$(GCC_PLUGIN_DIR)
	install -m 755 $(PLUGIN) $(DESTDIR)$(GCC_PLUGIN_DIR)/ksunset.so

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ksunset $(DESTDIR)$(PREFIX)/lib/ksunset/ksunset.so
	rm -f $(DESTDIR)$(PREFIX)/lib/pkgconfig/ksunset.pc $(DESTDIR)$(BASHCOMPDIR)/ksunset
	rm -f $(DESTDIR)$(PREFIX)/share/ksunset/history.schedule
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/share/ksunset/migrations/,$(notdir $(wildcard share/migrations/*.migrations)))
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/include/ksunset/,$(notdir $(wildcard include/ksunset/*.h)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(wildcard doc/*.1)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(wildcard doc/*.5)))
	rm -f $(DESTDIR)$(GCC_PLUGIN_DIR)/ksunset.so
	-rmdir $(DESTDIR)$(PREFIX)/lib/ksunset $(DESTDIR)$(PREFIX)/include/ksunset \
		$(DESTDIR)$(PREFIX)/share/ksunset/schedule.d \
		$(DESTDIR)$(PREFIX)/share/ksunset/migrations $(DESTDIR)$(PREFIX)/share/ksunset \
		$(DESTDIR)$(SYSCONFDIR)/ksunset/schedule.d $(DESTDIR)$(SYSCONFDIR)/ksunset 2>/dev/null

clean:
	rm -rf build

include tests/fuzz/fuzz.mk

-include $(shell find build -name '*.d' 2>/dev/null)
