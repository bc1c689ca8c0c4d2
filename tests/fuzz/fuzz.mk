# libFuzzer targets (tests/fuzz/README): included by the top Makefile.
#   make fuzz [FUZZ_SECONDS=N]   build the targets with clang, make seed corpora
#                                from real objects, run each target N seconds
# The same targets are also built with $(CC) as plain replay programs
# (tests/fuzz/replay.c) that `make check` runs on the kept crash inputs in
# tests/data/fuzz/ and on the text seeds.

FUZZ_CC ?= clang-14
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := schedule symvers record module
FB := build/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude -iquote lib $(CHECKER_INC) $(KS_DEFS) \
	-g -O1 -fno-omit-frame-pointer $(FUZZ_SAN)
# the checker's objects as the program links them (Makefile: CORE_OBJS)
FUZZ_DEP_O := $(FB)/libksunset-checker.a $(FB)/libksunset.a
$(FB)/libksunset-checker.a: $(addprefix $(FB)/modpost-ext/,$(CORE_OBJS))
$(FB)/libksunset.a: $(addprefix $(FB)/lib/,$(LIB_OBJS))
$(FUZZ_DEP_O):
	$(echo-cmd) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^
FUZZERS := $(addprefix $(FB)/fuzz_,$(FUZZ_TARGETS))
.PRECIOUS: $(FB)/%.o $(B)/tests/fuzz/%.o

$(FB)/lib/%.o $(FB)/modpost-ext/%.o $(FB)/tests/fuzz/%.o: FUZZ_CFLAGS += -fsanitize=fuzzer-no-link
$(FB)/%.o: %.c
	$(echo-cmd) FUZZCC $<
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FB)/fuzz_%: $(FB)/tests/fuzz/fuzz_%.o $(FUZZ_DEP_O)
	$(echo-cmd) LD $@
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS_CHECKER)

.PHONY: fuzz fuzz-build fuzz-seeds
fuzz-build:
	$(Q)sh scripts/install-deps.sh fuzz
	$(Q)$(MAKE) --no-print-directory $(FUZZERS)

fuzz-seeds: fuzz-build
	$(Q)sh tests/fuzz/seeds.sh $(FB)/seeds

fuzz: fuzz-seeds
	$(Q)for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FB)/corpus/$$t $(FB)/crashes && \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s" && \
		$(FB)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=$(FB)/crashes/$$t- $(FB)/corpus/$$t $(FB)/seeds/$$t \
			$$(ls -d tests/fuzz/seeds/$$t tests/data/fuzz/$$t 2>/dev/null) >$(FB)/$$t.log 2>&1; \
		rc=$$?; grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+ *DONE' \
			$(FB)/$$t.log; \
		if [ $$rc -ne 0 ]; then tail -60 $(FB)/$$t.log; \
			echo "fuzz: $$t failed; input in $(FB)/crashes/"; exit 1; fi; \
	done

# The replay programs for `make check`.
REPLAY := $(addprefix $(B)/fuzz/replay-,$(FUZZ_TARGETS))
$(B)/fuzz/replay-%: $(B)/tests/fuzz/fuzz_%.o $(B)/tests/fuzz/replay.o $(LIBCORE) $(LIBKS)
	$(echo-cmd) LD $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_CHECKER)

check-shell: $(REPLAY)
