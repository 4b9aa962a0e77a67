# e2e.mk - the VM tier; included by the top-level Makefile.
#   make e2e                       boot the VM and run every scenario
#   make e2e E2E_SCENARIOS=s1-associate
# See test/e2e/README.md for the knobs (E2E_BUILD, E2E_TIMEOUT, ...).
E2E_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: e2e
e2e:
	bash $(E2E_DIR)/run.sh

# Host-side tests of run.sh (no VM): the accelerator's choice and KVM's
# fallback to TCG, the report's skip policy. Part of make check.
.PHONY: e2e-harness
e2e-harness:
	bash $(E2E_DIR)/harness_test.sh
