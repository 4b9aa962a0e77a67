#!/bin/sh
# timeout: 6900
# hwsim-suite: hostap's tests/hwsim (run-tests.py) with airqd in place of
# hostapd; started by test/e2e/hwsim-suite.sh, which copies hostap's tests,
# its wpa_supplicant and wlantest and Debian's python3 to /hostap and /usr.
# Not one of make e2e's scenarios (its name is no sN-).
#
# The set-up is hostap's tests/hwsim/start.sh: seven radios (wlan0-2 the
# stations, wlan3 and wlan4 the APs, wlan5 the spare wpa_supplicant's),
# wlantest on hwsim0, and the AP daemon's global socket at
# /var/run/hostapd-global. There airqd (-g, -hostapd-testing) drives wlan3's
# radio; run-tests.py adds each test's AP with ADD wlan3 /var/run/hostapd,
# SET ... and ENABLE, as it does with hostapd. One radio per airqd: tests
# that start a second AP on wlan4 find no daemon there.
#
# Checks: hwsim-suite.run passes when run-tests.py gave verdicts (whatever
# they are: those are the figures, in hwsim-suite-run-tests.out on the
# share, counted per module by test/e2e/hwsim-suite.sh).
. /e2e/lib.sh

H=/hostap/tests/hwsim
HL=$LOGS/hwsim
mkdir -p "$HL/run" /var/run/hostapd

log "radios as hostap's start.sh makes them"
modprobe -a cfg80211 mac80211 || { result setup fail "cfg80211"; finish; }
if [ -d /sys/module/mac80211_hwsim ]; then rmmod mac80211_hwsim; fi
modprobe mac80211_hwsim radios=7 support_p2p_device=0 &&
	wait_for 10 test -e /sys/class/net/wlan6 || { result setup fail "mac80211_hwsim radios=7"; finish; }
ip link set hwsim0 up
/hostap/wlantest/wlantest -i hwsim0 -n "$HL/run/hwsim0.pcapng" -c -dtN -L "$HL/run/hwsim0" >/dev/null 2>&1 &
register $!
for i in 0 1 2; do
	sed "s/ GROUP=.*$/ GROUP=adm/" "$H/p2p$i.conf" >"$HL/run/p2p$i.conf"
	/hostap/wpa_supplicant/wpa_supplicant -g "/tmp/wpas-wlan$i" -Gadm -Dnl80211 -iwlan$i -c "$HL/run/p2p$i.conf" \
		-ddKt -f "$HL/run/log$i" &
	register $!
done
/hostap/wpa_supplicant/wpa_supplicant -g /tmp/wpas-wlan5 -Gadm -ddKt -f "$HL/run/log5" &
register $!

log "airqd on wlan3's radio, the global socket at /var/run/hostapd-global"
airqd_flags || { result setup fail "airqd flags"; finish; }
AIRQD_LOG=$LOGS/$S-airqd.log
# airqd's TAP takes wlan3's name: it is the AP's network interface, whose
# carrier hwsim_utils reads and where the testing commands' frames cross,
# as hostapd's wlan3 is. From hostap's tests directory, as start.sh runs
# hostapd: the tests name files relative to it (wpa_psk_file=hostapd.wpa_psk)
APPHY=$(phy_of wlan3)
iw dev wlan3 del
# shellcheck disable=SC2086
(cd "$H" && exec airqd -phy "$APPHY" -tap wlan3 -ifname "$MONIF" -g /var/run/hostapd-global -hostapd-testing $AIRQD_OPT) \
	>"$AIRQD_LOG" 2>&1 &
AIRQD_PID=$!
register $AIRQD_PID
if ! wait_for 30 airqd_is_ready; then result setup fail "airqd not ready: $(tail -n 5 "$AIRQD_LOG")"; finish; fi
ip link set wlan3 up
for i in 0 1 2 5; do
	wait_for 10 /hostap/wpa_supplicant/wpa_cli -g "/tmp/wpas-wlan$i" ping >/dev/null ||
		{ result setup fail "wpa_supplicant wlan$i"; finish; }
done
result setup pass "airqd and four wpa_supplicant instances up ($(cat /hostap/version))"

# One run-tests.py for every module: it imports all of hostap's test modules
# at its start, which under TCG takes minutes
MODS=$(sed 's/^test_//; s/ test_/ /g' /hostap/modules)
TESTS=$(cat /hostap/tests.list)
if [ -n "$TESTS" ]; then args=$TESTS; else args="-f $MODS"; fi
log "run-tests.py $args"
out=$LOGS/hwsim-suite-run-tests.out
mkdir -p "$HL/run"
t0=$(T)
# where it is, once a minute: its log's last line
(while sleep 60; do echo "progress: $(tail -n 1 "$HL/run/run-tests.log" 2>/dev/null | cut -c1-160)"; done) &
PROGRESS=$!
register $PROGRESS
# its PASS/FAIL/SKIP lines on the console too, as they come
# shellcheck disable=SC2086
(
	cd "$H" && python3 -u ./run-tests.py --logdir "$HL/run" $args 2>&1
	echo "run-tests.py exit $?"
) | tee "$out" | grep -E '^(PASS|FAIL|SKIP) |^run-tests.py exit'
log "run-tests.py: $(sed -n 's/^run-tests.py exit //p' "$out" | sed 's/^/exit /') after $(since "$t0") s"
n=$(grep -cE '^(PASS|FAIL|SKIP) ' "$out")
if [ "$n" -gt 0 ]; then result run pass "$n verdicts"; else result run fail "no verdicts: $(tail -n 3 "$out" | tr '\n' ' ')"; fi
stop "$PROGRESS"
stop "$AIRQD_PID" 10
# run-tests.py's logs per test (wpa_supplicant's, airqd's stderr beside them)
tar -C "$LOGS" -czf "$LOGS/hwsim-suite-logs.tar.gz" hwsim "$(basename "$AIRQD_LOG")" 2>/dev/null
rm -rf "$HL"
finish
