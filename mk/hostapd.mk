# hostapd_cli: Debian's unmodified client drives airqd's hostapd control
# socket in cmd/airqd's tests (TestHostapdCLI*), which fail without it. The
# race and non-race passes need it, so the gate installs Debian's hostapd
# package where it is missing (as root, non-interactively).
.PHONY: hostapd-cli
race norace: hostapd-cli
hostapd-cli:
	@command -v hostapd_cli >/dev/null 2>&1 || test -x /usr/sbin/hostapd_cli || { \
		echo "hostapd_cli: not found, installing hostapd with apt-get"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -q && apt-get install -y -q --no-install-recommends hostapd; }
	@command -v hostapd_cli >/dev/null 2>&1 || test -x /usr/sbin/hostapd_cli || { \
		echo "hostapd_cli: still missing; install Debian's hostapd package (as root: apt-get install hostapd)"; exit 1; }
