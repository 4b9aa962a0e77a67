#!/bin/sh
# s10-radio: the radio as an operator meets it (qualification, regulatory,
# radar channels, a phy held by a managed interface).
#
# Checks:
#   qualify              airqd -qualify exits 0 and says the phy qualifies; the
#                        retune line (time away and back, measured on hwsim) is
#                        in the detail
#   no_country_5ghz      in the world domain, -channel 36 is refused: non-zero
#                        exit before "ready", a message naming channel 36
#   country_5ghz.*       -country US -channel 36: the kernel domain becomes US,
#                        airqd is ready on 5180 MHz, a wpa_supplicant station
#                        associates there and pings the host
#   radar_refused        -country US -channel 52 (DFS): refused, with a message
#                        naming channel 52 and radar/DFS
#   busy_phy_refused     the AP phy's own managed wlan0 is up: airqd refuses to
#                        start and names wlan0
#   takeover.*           the same with -takeover: airqd brings wlan0 down, is
#                        ready, and a station associates and pings
# The scenario returns the kernel to the world domain at the end.
# timeout: 150
. /e2e/lib.sh

one_station
reg_world

# airqd_once NAME FLAGS...: run airqd in the foreground (30 s at most); RC, OUT
airqd_once() {
	_f=$LOGS/$S-$1.log
	shift
	echo "+ airqd $*" >"$_f"
	timeout -s KILL 30 airqd -control "" "$@" >>"$_f" 2>&1
	RC=$?
	OUT=$(grep -v '^+' "$_f" | grep -iE 'error|refus|cannot|fail|in use|radar|channel' | tail -2 | tr '\n' ' ')
}

############################################################################
log "qualification"
airqd_once qualify -phy "$APPHY" -ifname "$MONIF" -channel 1 -qualify
rt=$(grep -m1 'retune' "$LOGS/$S-qualify.log" | sed 's/^ *//; s/  */ /g')
if [ "$RC" = 0 ] && grep -q 'qualifies' "$LOGS/$S-qualify.log"; then
	result qualify pass "exit 0, $(grep -m1 'qualifies' "$LOGS/$S-qualify.log"); ${rt:-no retune line}"
else
	result qualify fail "exit $RC: $(tail -3 "$LOGS/$S-qualify.log" | tr '\n' ' ')"
fi
echo "qualification report:"
cat "$LOGS/$S-qualify.log"

############################################################################
log "5 GHz without a country"
airqd_once no-country -phy "$APPHY" -ifname "$MONIF" -tap "$TAPIF" -ssid "$SSID" -channel 36
reg=$(iw reg get | grep -m1 '^country')
if [ "$RC" != 0 ] && ! grep -qw ready "$LOGS/$S-no-country.log" && echo "$OUT" | grep -qE 'channel 36|5180'; then
	result no_country_5ghz pass "exit $RC ($reg): $OUT"
else
	result no_country_5ghz fail "exit $RC ($reg), message naming channel 36 wanted: $OUT"
fi

############################################################################
log "5 GHz with -country US"
CHANNEL=36 FREQ=5180
AIRQD_EXTRA="-country US"
if airq_up airqd-us36; then
	reg=$(iw reg get | grep -m1 '^country')
	ch=$(iw_dev_block "$MONIF" | grep -m1 channel | sed 's/^[[:space:]]*//')
	if echo "$reg" | grep -q 'country US' && echo "$ch" | grep -q '5180'; then
		result country_5ghz.ready pass "$reg; $MONIF: $ch; $(grep -m1 'regulatory domain applied' "$AIRQD_LOG" | grep -o 'country=[^ ]*.*')"
	else
		result country_5ghz.ready fail "domain '$reg', $MONIF '$ch'"
	fi
	wpas_start 1 "$(wpas_body 5180)"
	if wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1; then
		result country_5ghz.associated pass "$(in_sta 1 iw dev wlan1 link | grep -E 'Connected|freq' | tr -s '\t\n' '  ')"
		pings country_5ghz.ping 1 up 10
	else
		result country_5ghz.associated fail "station on 5180: $(wpas_state 1)"
		result country_5ghz.ping fail "not associated"
	fi
	stop "$(wpas_pid 1)"
else
	result country_5ghz.ready fail "airqd -country US -channel 36 not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"
	result country_5ghz.associated fail "airqd not ready"
	result country_5ghz.ping fail "airqd not ready"
fi
airq_down
AIRQD_EXTRA=
CHANNEL=1 FREQ=2412

############################################################################
log "radar channel"
airqd_once radar -phy "$APPHY" -ifname "$MONIF" -tap "$TAPIF" -ssid "$SSID" -country US -channel 52
if [ "$RC" != 0 ] && ! grep -qw ready "$LOGS/$S-radar.log" && echo "$OUT" | grep -qE 'channel 52|5260' && echo "$OUT" | grep -qiE 'radar|DFS'; then
	result radar_refused pass "exit $RC: $OUT"
else
	result radar_refused fail "exit $RC, message naming channel 52 and radar wanted: $OUT"
fi
reg_world

############################################################################
log "a managed interface holds the phy"
# wlan0 is the AP phy's default (managed) interface: re-create and bring it up
iw phy "$APPHY" interface add wlan0 type managed 2>/dev/null
ip link set wlan0 up
up0=$(ip link show wlan0 | grep -o '<[^>]*>')
airqd_once busy -phy "$APPHY" -ifname "$MONIF" -tap "$TAPIF" -ssid "$SSID" -channel 1
msg=$(grep -v '^+' "$LOGS/$S-busy.log" | grep -m1 'wlan0' | sed 's/^.*msg=//')
if [ "$RC" != 0 ] && ! grep -qw ready "$LOGS/$S-busy.log" && [ -n "$msg" ]; then
	result busy_phy_refused pass "wlan0 $up0; exit $RC: $msg"
else
	result busy_phy_refused fail "wlan0 $up0; exit $RC, a message naming wlan0 wanted: $(tail -2 "$LOGS/$S-busy.log" | tr '\n' ' ')"
fi

log "-takeover"
AIRQD_EXTRA="-takeover"
if airq_up airqd-takeover; then
	up0=$(ip link show wlan0 | grep -o '<[^>]*>')
	if ! echo "$up0" | grep -qE '[<,]UP[,>]'; then
		result takeover.ready pass "ready; wlan0 now $up0; $(grep -m1 'taking over' "$AIRQD_LOG" | grep -o 'ifname=.*')"
	else
		result takeover.ready fail "ready, but wlan0 still $up0"
	fi
	wpas_start 1
	if wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1; then
		result takeover.associated pass "station associated"
		pings takeover.ping 1 down 10
	else
		result takeover.associated fail "station: $(wpas_state 1)"
		result takeover.ping fail "not associated"
	fi
	stop "$(wpas_pid 1)"
else
	result takeover.ready fail "airqd -takeover not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"
	result takeover.associated fail "airqd not ready"
	result takeover.ping fail "airqd not ready"
fi
airq_down
AIRQD_EXTRA=
finish
