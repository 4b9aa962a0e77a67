# tshark: Wireshark's dissectors decode the capture of `airqd -radio sim
# -pcap` in cmd/airqd's tests (TestPcapSimDecodes), which fail without it.
# The race tests need it, so the gate installs it from Debian where it is
# missing (as root, non-interactively).
.PHONY: tshark
race: tshark
tshark:
	@command -v tshark >/dev/null 2>&1 || { \
		echo "tshark: not found, installing it with apt-get"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -q && apt-get install -y -q --no-install-recommends tshark; }
	@command -v tshark >/dev/null 2>&1 || { \
		echo "tshark: still missing; install Debian's tshark package (as root: apt-get install tshark)"; exit 1; }
