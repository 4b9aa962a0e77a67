# units: `systemd-analyze verify` on configs/airqd.service and
# configs/airqd@.service (as the instance airqd@phy0), on temporary copies
# whose /usr/bin/airqd is the binary `make build` just made (verify checks
# that every Exec line's command exists). Any output fails the target:
# verify reports unknown keys and bad values on stderr yet exits 0. The gate
# runs it; where systemd-analyze is missing it installs Debian's systemd
# package (as root, non-interactively) and fails if it still cannot run.
.PHONY: units
check: units
units: build
	@command -v systemd-analyze >/dev/null 2>&1 || { \
		echo "units: systemd-analyze not found, installing systemd with apt-get"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -q && apt-get install -y -q --no-install-recommends systemd; }
	@command -v systemd-analyze >/dev/null 2>&1 || { \
		echo "units: systemd-analyze still missing; install Debian's systemd package (as root: apt-get install systemd)"; exit 1; }
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	for u in airqd.service airqd@.service; do \
		sed 's#/usr/bin/airqd#$(CURDIR)/bin/airqd#g' configs/$$u >"$$dir/$$u" || exit 1; \
	done && \
	out=$$(cd "$$dir" && systemd-analyze verify ./airqd.service ./airqd@phy0.service 2>&1); rc=$$?; \
	if [ $$rc -ne 0 ] || [ -n "$$out" ]; then \
		echo "units: systemd-analyze verify (exit $$rc):"; echo "$$out"; exit 1; fi; \
	echo "units: systemd-analyze verify: airqd.service and airqd@phy0.service clean"
