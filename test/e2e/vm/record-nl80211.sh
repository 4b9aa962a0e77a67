#!/bin/sh
# record-nl80211: records the kernel's nl80211 replies for the nl80211
# package's unit tests (nl80211/testdata/recorded). Not a test of airqd, and
# outside the vm/s*.sh pattern, so only run on demand, with nlrecord
# (tools/nlrecord) supplied through E2E_EXTRA:
#
#	d=$(mktemp -d) && mkdir -p "$d/usr/local/bin" &&
#	(cd test/e2e/tools && CGO_ENABLED=0 go build -trimpath -o "$d/usr/local/bin/nlrecord" ./nlrecord) &&
#	E2E_OUT=/tmp/airq-e2e/nlrec E2E_EXTRA=$d E2E_SCENARIOS=record-nl80211 bash test/e2e/run.sh
#
# The recordings land in $E2E_OUT/vm1/share/nlrec-*.hex.
# timeout: 120
. /e2e/lib.sh

if ! command -v nlrecord >/dev/null; then
	result nlrecord fail "nlrecord not in the image (build it into E2E_EXTRA)"
	finish
fi
log "kernel $(uname -r)"
uname -a >"$LOGS/nlrec-kernel.txt"
check hwsim_loaded "radios=2" hwsim_reset 2
reg_world
iw reg get >"$LOGS/nlrec-reg-before.txt" 2>&1
# hwsim keeps a channel survey only for the channels a scan visited: one
# scan on wlan1 gives phy1's GET_SURVEY dump something to report.
ip link set wlan1 up && iw dev wlan1 scan >"$LOGS/nlrec-scan.txt" 2>&1
ip link set wlan1 down
check recorded "nlrecord -out $LOGS/nlrec -phy-of wlan1" nlrecord -out "$LOGS/nlrec" -phy-of wlan1
iw reg get >"$LOGS/nlrec-reg-after.txt" 2>&1
reg_world
rmmod mac80211_hwsim
finish
