# Counted instructions per frame of the core alone: each benchmark runs
# under cachegrind twice, at CORE_N1 and CORE_N2 frames, and the difference
# of the two instruction totals over the difference of the frame counts is
# the per-frame cost (setup, the first pass and the process's start cancel
# out). One thread and no GC. runtime.memclrNoHeapPointers is left out of
# the totals: the hot path never calls it (it allocates nothing), and the
# setup's large allocations clear fresh pages or not from one run to the
# next, which would move the figure by a hundred instructions.
# CORE_TAGS=purego counts the portable CCM instead of the AES-NI loop.
.PHONY: bench-core
CORE_TAGS  ?=
CORE_N1    ?= 10000
CORE_N2    ?= 30000
CORE_BENCH ?= DownlinkFrame DownlinkFrame8 DownlinkFrameCCMP UplinkFrameCCMP
bench-core:
	@command -v valgrind >/dev/null || { echo "bench-core needs valgrind" >&2; exit 1; }
	@mkdir -p bin && $(GO) test -c $(if $(CORE_TAGS),-tags $(CORE_TAGS)) -o bin/ap.test ./ap
	@for b in $(CORE_BENCH); do \
	  for n in $(CORE_N1) $(CORE_N2); do \
	    sh mk/instructions.sh bin/ap.test "^Benchmark$$b$$" $$n > bin/bench-core.$$n || exit 1; \
	  done; \
	  awk -v b=$$b -v n1=$(CORE_N1) -v n2=$(CORE_N2) 'NR==FNR {i1=$$1; next} {printf "%-22s %8.0f instructions/frame\n", b, ($$1-i1)/(n2-n1)}' \
	    bin/bench-core.$(CORE_N1) bin/bench-core.$(CORE_N2); \
	done
