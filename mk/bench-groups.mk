# The scheduler's decision with 2,007 stations in one BSS against the same
# stations over eight BSSes (txq's BenchmarkScheduleGroups), in counted
# instructions as bench-core counts them (mk/instructions.sh at GROUPS_N1
# and GROUPS_N2 decisions, the difference over the difference of the counts):
# groups=8 is eight BSSes without GroupShares, groups=8,shares eight with
# it (a radio of several BSSes). Prints each and its ratio to groups=1;
# exits non-zero naming a ratio above 1.10.
.PHONY: bench-groups
GROUPS_N1 ?= 20000
GROUPS_N2 ?= 60000
bench-groups:
	@command -v valgrind >/dev/null || { echo "bench-groups needs valgrind" >&2; exit 1; }
	@mkdir -p bin && $(GO) test -c -o bin/txq.test ./txq
	@rc=0; for b in groups=1 groups=8 groups=8,shares; do \
	  for n in $(GROUPS_N1) $(GROUPS_N2); do \
	    sh mk/instructions.sh bin/txq.test "^BenchmarkScheduleGroups/$$b\$$" $$n > bin/bench-groups.$$n || exit 1; \
	  done; \
	  i=$$(awk -v n1=$(GROUPS_N1) -v n2=$(GROUPS_N2) 'NR==FNR {i1=$$1; next} {printf "%.0f", ($$1-i1)/(n2-n1)}' \
	    bin/bench-groups.$(GROUPS_N1) bin/bench-groups.$(GROUPS_N2)); \
	  [ $$b = groups=1 ] && one=$$i; \
	  r=$$(awk -v i=$$i -v o=$$one 'BEGIN {printf "%.2f", i/o}'); \
	  printf "%-18s %6d instructions/decision  %s x groups=1\n" $$b $$i $$r; \
	  if awk -v r=$$r 'BEGIN {exit !(r > 1.10)}'; then echo "bench-groups: $$b is $$r x the single BSS's decision: target missed (1.10)"; rc=1; fi; \
	done; exit $$rc
