#!/bin/sh
# s15-flood: admission floods from a radio of their own (issue 19).
#
# Three radios: airqd on the first, a wpa_supplicant station on the second,
# and on the third an active monitor (fmon0) from which tools/e2eflood
# injects open authentications and association requests to airqd's BSSID
# from 3,000 random addresses, 600 frames a second for 10 s (each address
# authenticates once, its association request follows 30 addresses later),
# four times, from new addresses each time. hwsim acknowledges a frame only
# for an interface in a driver with that address, so no forged address
# acknowledges anything: none may ever be associated. airqd runs on its
# shipped settings (no GOGC); the scrapes of /metrics after each flood make
# garbage enough for a collection, and go_gc_heap_live_bytes is the live
# heap as of the last one.
#
# Checks:
#   airqd_ready      airqd up with -metrics
#   flood_N          flood N (1-4) injected its frames (at least 90% of 6,000,
#                    no write errors) and reached airqd's admission (its
#                    authentication responses went unacknowledged:
#                    auth_not_acked grew)
#   join_N           during flood N, once it reached airqd, the station
#                    (disconnected before) reconnects: wpa_supplicant COMPLETED
#                    and airqd lists it associated, within 5 s
#   no_ghosts        after each flood airqd has at most the station associated,
#                    and its log has AP-STA-CONNECTED for the station only
#   heap_flat        the live heap after a collection that followed the fourth
#                    flood is within 10% of the one after the first
#   filter_sheds     radio_filtered (the monitor's rx_packets less what the
#                    receive filter passed, echoes aside) stays below a tenth
#                    of the echoes through the floods: hwsim hands airqd almost
#                    nothing its filter sheds, so a figure near the echoes'
#                    count would mean the interface counted echoes as
#                    received; then e2eflood sends frames to another BSSID,
#                    and radio_filtered grows by their number (at most 10 more)
#   ping             the station still pings the host afterwards
# timeout: 360
. /e2e/lib.sh

METRICS=127.0.0.1:9125
station_and_injector
ip link set lo up # the metrics listener is on 127.0.0.1
AIRQD_EXTRA="-metrics $METRICS"
if airq_up airqd; then result airqd_ready pass "airqd pid $AIRQD_PID, metrics on $METRICS"
else result airqd_ready fail "airqd not ready"; finish; fi
AIRQD_EXTRA=

# status KEY: one of airqd's status counters
status() { ctl status 2>/dev/null | sed -n "s/^$1=//p"; }
# metric NAME FILE: a series' value in a scrape
metric() { awk -v n="$1" '$1 == n {print $2}' "$2"; }
scrape() { wget -q -O "$1" "http://$METRICS/metrics"; }
# live_heap N: scrape until a collection has run since the first scrape,
# and keep that scrape's live heap in HEAP_N (bytes)
live_heap() {
	_f=$LOGS/$S-metrics-$1.log
	scrape "$_f" || return 1
	_gc0=$(metric go_gc_duration_seconds_count "$_f")
	for _k in $(seq 1 100); do
		scrape "$_f" || return 1
		[ "$(metric go_gc_duration_seconds_count "$_f")" != "$_gc0" ] && break
		usleep 100000
	done
	[ "$(metric go_gc_duration_seconds_count "$_f")" != "$_gc0" ] || return 1
	eval "HEAP_$1=$(metric go_gc_heap_live_bytes "$_f" | awk '{printf "%d", $1}')"
}
joined() { wpas_completed 1 && airq_has_sta "$STA1"; }
settled() { [ "$(status num_auth)" = 0 ] && [ "$(status num_pending)" = 0 ]; }
# The flood has reached airqd once its answers go unacknowledged: 20 are
# proof enough (about 17 a second since unacknowledged strangers' association
# requests are answered too, within the same reply budget).
flood_on() { [ "$(status auth_not_acked)" -gt $((_nack0 + 20)) ]; }

wpas_start 1
if ! { wait_for 45 wpas_completed 1 && wait_for 5 airq_has_sta "$STA1"; }; then
	result setup fail "the station did not associate before the floods: $(wpas_state 1)"
	finish
fi
ghosts=0 ghostwhy= heapwhy=
for n in 1 2 3 4; do
	log "flood $n"
	wpa 1 disconnect >/dev/null
	wait_for 10 airq_lacks_sta "$STA1"
	_nack0=$(status auth_not_acked)
	e2eflood -ifname fmon0 -bssid "$BSSID" -ssid "$SSID" -addrs 3000 -rate 600 -duration 10s \
		>"$LOGS/$S-flood$n.log" 2>&1 &
	fpid=$!
	register $fpid
	if wait_for 5 flood_on; then
		t=$(T)
		wpa 1 reconnect >/dev/null
		if wait_for 5 joined; then
			result "join_$n" pass "associated $(since "$t")s into the flood"
		else
			result "join_$n" fail "not associated 5 s into the flood: $(wpas_state 1)"
		fi
	else
		result "join_$n" fail "the flood did not reach airqd in 5 s (auth_not_acked $(status auth_not_acked), was $_nack0)"
	fi
	wait_for 30 gone "$fpid"
	sum=$(grep SUMMARY "$LOGS/$S-flood$n.log")
	sent=$(echo "$sum" | sed -n 's/.*sent=\([0-9]*\).*/\1/p') errs=$(echo "$sum" | sed -n 's/.*errors=\([0-9]*\).*/\1/p')
	nack=$(($(status auth_not_acked) - _nack0))
	if [ "${sent:-0}" -ge 5400 ] && [ "$errs" = 0 ] && [ "$nack" -gt 0 ]; then
		result "flood_$n" pass "$sum; $nack authentication responses unacknowledged"
	else
		result "flood_$n" fail "${sum:-no summary: $(tail -n 1 "$LOGS/$S-flood$n.log")}; auth_not_acked +$nack"
	fi
	assoc=$(status num_sta)
	[ "${assoc:-9}" -le 1 ] || { ghosts=$((ghosts + assoc - 1)); ghostwhy="$ghostwhy flood $n: num_sta=$assoc;"; }
	wait_for 15 settled
	live_heap $n || heapwhy="$heapwhy no collection within 100 scrapes after flood $n;"
	log "flood $n: live heap $(eval echo \$HEAP_$n) bytes; $(ctl status | grep -E '^(num_|auth_not_acked|assoc_early|replies_throttled|throttled_|radio_)' | tr '\n' ' ')"
done
others=$(grep AP-STA-CONNECTED "$AIRQD_LOG" | grep -vc "addr=$STA1")
if [ "$ghosts" = 0 ] && [ "$others" = 0 ]; then
	result no_ghosts pass "num_sta at most 1 after each flood; AP-STA-CONNECTED only for $STA1"
else
	result no_ghosts fail "$ghostwhy $others AP-STA-CONNECTED for other addresses"
fi
if [ -n "$HEAP_1" ] && [ -n "$HEAP_4" ] &&
	awk -v a="$HEAP_1" -v b="$HEAP_4" 'BEGIN{exit !(b <= a * 1.10 && b >= a * 0.90)}'; then
	result heap_flat pass "live heap $HEAP_1 -> $HEAP_2 -> $HEAP_3 -> $HEAP_4 bytes after floods 1-4"
else
	result heap_flat fail "live heap $HEAP_1 -> $HEAP_2 -> $HEAP_3 -> $HEAP_4 bytes after floods 1-4 (want the fourth within 10% of the first)$heapwhy"
fi
shed=$(status radio_filtered) echoes=$(status echoes) rxp=$(cat "/sys/class/net/$MONIF/statistics/rx_packets")
d="radio_filtered=$shed echoes=$echoes rx_frames=$(status rx_frames) $MONIF rx_packets=$rxp"
log "frames for another BSS, which the receive filter sheds"
e2eflood -ifname fmon0 -bssid 02:ff:00:00:00:01 -addrs 100 -rate 200 -duration 1s >"$LOGS/$S-foreign.log" 2>&1
foreign=$(sed -n 's/.*sent=\([0-9]*\).*/\1/p' "$LOGS/$S-foreign.log")
shed_grew() { [ "$(status radio_filtered)" -ge $((shed + ${foreign:-1})) ]; }
wait_for 5 shed_grew
grew=$(($(status radio_filtered) - shed))
d="$d; $foreign frames for another BSS: radio_filtered +$grew"
if [ -n "$shed" ] && [ "$echoes" -gt 100 ] && [ "$shed" -lt $((echoes / 10)) ] && [ "${foreign:-0}" -gt 0 ] &&
	[ "$grew" -ge "$foreign" ] && [ "$grew" -le $((foreign + 10)) ]; then
	result filter_sheds pass "$d"
else
	result filter_sheds fail "$d (want below a tenth of the echoes, and the foreign frames counted, +10 at most)"
fi
wait_for 20 joined
pings ping 1 up 10
stop "$(wpas_pid 1)"
airq_down
finish
