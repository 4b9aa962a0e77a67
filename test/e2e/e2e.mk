# e2e.mk - the VM tier; included by the top-level Makefile.
#   make e2e                       boot the VMs and run every scenario
#   make e2e E2E_SCENARIOS=s1-associate
#   make e2e-costs                 the cost table from the last run's logs
# See test/e2e/README.md for the knobs (E2E_BUILD, E2E_VMS, ...).
E2E_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: e2e
e2e:
	bash $(E2E_DIR)/run.sh

# The per-scenario costs that split the scenarios over the VMs and size their
# budgets, measured from the serial logs of the last make e2e; review, then
# commit: make e2e && make e2e-costs
.PHONY: e2e-costs
e2e-costs:
	bash $(E2E_DIR)/run.sh costs >$(E2E_DIR)/costs.txt.new && mv $(E2E_DIR)/costs.txt.new $(E2E_DIR)/costs.txt
	cat $(E2E_DIR)/costs.txt

# Host-side tests of run.sh (no VM): the accelerator's choice and KVM's
# fallback to TCG, the report's skip policy, the split over the VMs, their
# budgets and the merge of their results. Part of make check.
.PHONY: e2e-harness
e2e-harness:
	bash $(E2E_DIR)/harness_test.sh

# hostap's own tests/hwsim (run-tests.py) with airqd in place of hostapd, in
# one VM; by hand, never part of make test: make e2e-hostap HOSTAP=DIR
# [HOSTAP_MODULES="test_ap_open ..."]. See test/e2e/README.md.
.PHONY: e2e-hostap
e2e-hostap:
	@[ -n "$(HOSTAP)" ] || { echo "make e2e-hostap HOSTAP=<hostap source tree>"; exit 2; }
	bash $(E2E_DIR)/hwsim-suite.sh $(HOSTAP) $(HOSTAP_MODULES)
