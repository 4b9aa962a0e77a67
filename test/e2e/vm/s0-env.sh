#!/bin/sh
# s0-env: the VM itself. mac80211_hwsim loads, its radios advertise active
# monitor mode (airqd needs it: only an ACTIVE monitor vif ACKs frames
# addressed to it), the TUN driver is there for airqd's TAP, and the airqd
# binary runs and accepts the flags the scenarios pass; nl80211's
# TestIntegrationHwsim and TestIntegrationHwsimHolders pass on the hwsim
# radios.
# timeout: 60
. /e2e/lib.sh

log "kernel $(uname -r), $(nproc) cpu(s), $(awk '/MemTotal/{print int($2/1024)}' /proc/meminfo) MiB"
t=$(T)
if hwsim_reset 2; then result hwsim_loaded pass "radios=2, wlan0/wlan1 in $(since "$t")s"
else result hwsim_loaded fail "modprobe mac80211_hwsim radios=2"; fi
iw phy "$(phy_of wlan0)" info >"$LOGS/$S-phy-info.log" 2>&1
check active_monitor_supported "$(grep -i 'active monitor' "$LOGS/$S-phy-info.log" | sed 's/^[[:space:]]*//')" \
	grep -qi 'supports active monitor' "$LOGS/$S-phy-info.log"
check tun_device "/dev/net/tun + tun module" sh -c 'modprobe tun && test -c /dev/net/tun'
airqd -h >"$LOGS/$S-help.log" 2>&1
check airqd_runs "airqd -h mentions -phy" grep -q -- '-phy' "$LOGS/$S-help.log"
if m=$(airqd_flags); then result airqd_flags pass "airqd -h lists -ifname, -control and -log-level (every start passes them)"
else result airqd_flags fail "$m"; fi
# nl80211's own integration test (go test -c -tags hwsim, run.sh) on these radios
nl80211.test -test.run '^TestIntegrationHwsim(Holders)?$' -test.v -test.count=1 >"$LOGS/$S-nl80211-test.log" 2>&1
rc=$?
check nl80211_integration "nl80211.test TestIntegrationHwsim rc=$rc: $(grep -- '^--- ' "$LOGS/$S-nl80211-test.log" | tr '\n' ' ')" \
	sh -c "[ $rc = 0 ] && grep -q '^--- PASS: TestIntegrationHwsim ' '$LOGS/$S-nl80211-test.log' && grep -q '^--- PASS: TestIntegrationHwsimHolders ' '$LOGS/$S-nl80211-test.log'"
rmmod mac80211_hwsim
finish
