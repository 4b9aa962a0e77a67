# The closed-round study on a real kernel (docs/closed-rounds.md, "The real
# kernel"): Debian's 6.12 mac80211, mainline and with seed 000's patch, on
# mac80211_hwsim in a qemu VM, with the Go medium of study/kernel. Needs a
# Debian 12 host (root, apt); not part of `make check`. Knobs: study/kernel/run.sh.
.PHONY: study-kernel
study-kernel:
	bash study/kernel/run.sh
