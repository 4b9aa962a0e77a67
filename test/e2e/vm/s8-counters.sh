#!/bin/sh
# s8-counters: airqctl station dump agrees with what the client counts.
#
# Station 1 ("iw connect") exchanges a known amount of traffic: 100 pings each
# way with 1000-byte payloads (1028-byte IP packets), 0.05 s apart. Before and
# after, airqd's "airqctl station get" and the client's "iw dev wlan1 station
# dump" (its entry for the AP) are read; the deltas are compared crosswise:
#   airqd rx packets/bytes  vs  client tx packets/bytes  (uplink)
#   airqd tx packets/bytes  vs  client rx packets/bytes  (downlink)
# The client also counts the AP's beacons in its rx packets/bytes: e2esniff
# (hwsim0) logs every beacon with its length, and the beacons sent between
# the two snapshots are added to airqd's tx side, twice to the packets:
# mac80211 increments a station's rx packets for every frame in
# ieee80211_rx_h_defragment and once more when it queues a management frame
# (the beacon) to the interface; its "beacon rx" counter shows the real
# number. Signal is not compared.
#
# Checks:
#   traffic        both ping runs 0% loss
#   uplink_packets / downlink_packets   deltas within 2% + 3 packets
#   uplink_bytes / downlink_bytes       deltas within 5% + 300 bytes (the
#                                       sides may count headers differently;
#                                       the detail shows bytes per packet)
#   tx_failed      neither side counts a failed TX
# timeout: 120
. /e2e/lib.sh

one_station
ip link set hwsim0 up
e2esniff -i hwsim0 -sta "$STA" -beacon-every 1 >"$LOGS/$S-air.log" 2>&1 &
SNIFF=$!
register $SNIFF
if airq_up airqd; then result airqd_ready pass "airqd pid $AIRQD_PID"
else result airqd_ready fail "airqd not ready"; finish; fi
iwc 1
if ! { wait_for 20 sta_linked 1 && wait_for 5 airq_has_sta "$STA"; }; then
	result setup fail "station not associated"
	finish
fi
# settle: ARP, IPv6 noise of the first seconds
in_sta 1 ping -c 2 -W 2 "$HOST_IP" >/dev/null 2>&1

# snap TAG: both sides' counters -> $LOGS/$S-TAG-{airq,client}.log
snap() {
	eval "T_$1=$(T)"
	ctl station get "$STA" >"$LOGS/$S-$1-airq.log" 2>&1
	in_sta 1 iw dev wlan1 station dump >"$LOGS/$S-$1-client.log" 2>&1
}
# val FILE KEY: the number after "KEY:" (e.g. "rx bytes")
val() { awk -v k="$2:" '{ line = $0; sub(/^[ \t]+/, "", line) } index(line, k) == 1 { sub(k, "", line); split(line, f, " "); print f[1]; exit }' "$1"; }
delta() {
	_d=$(($(val "$LOGS/$S-after-$1.log" "$2") - $(val "$LOGS/$S-before-$1.log" "$2")))
	# beacons from the AP between the snapshots count on the client's rx
	# side: mac80211 counts a beacon twice in rx packets (once in
	# ieee80211_rx_h_defragment like every frame, once more when it queues
	# the management frame to the interface) and once in rx bytes
	if [ "$1" = airq ]; then
		case $2 in "tx packets") _d=$((_d + 2 * BEACONS)) ;; "tx bytes") _d=$((_d + BEACON_BYTES)) ;; esac
	fi
	echo "$_d"
}

snap before
pings traffic_up 1 up 100 0.05 1000
pings traffic_down 1 down 100 0.05 1000
snap after
set -- $(awk -v a="$T_before" -v b="$T_after" -v bss="bssid=$BSSID" '$2 == "beacon" && $3 == bss && $1 >= a && $1 <= b {
	n++; for (i = 3; i <= NF; i++) if ($i ~ /^len=/) { sub(/len=/, "", $i); s += $i } } END { print n + 0, s + 0 }' "$LOGS/$S-air.log")
BEACONS=$1 BEACON_BYTES=$2
echo "beacons between the snapshots: $BEACONS ($BEACON_BYTES bytes), added to airqd's tx side (packets twice: mac80211 counts a beacon twice)"

# compare NAME AIRQ_KEY CLIENT_KEY REL ABS
compare() {
	a=$(delta airq "$2") c=$(delta client "$3")
	d="airqd $2 +$a, client $3 +$c"
	case $2 in *bytes) 
		pa=$(delta airq "${2% bytes} packets") pc=$(delta client "${3% bytes} packets")
		d="$d (per packet: airqd $(div "$a" "$pa"), client $(div "$c" "$pc"))" ;;
	esac
	if awk -v a="$a" -v c="$c" -v r="$4" -v x="$5" 'BEGIN{d = a - c; if (d < 0) d = -d; m = (a > c ? a : c); exit !(a > 0 && d <= m * r + x)}'; then
		result "$1" pass "$d"
	else
		result "$1" fail "$d (tolerance ${4}x + $5)"
	fi
}
compare uplink_packets "rx packets" "tx packets" 0.02 3
compare downlink_packets "tx packets" "rx packets" 0.02 3
compare uplink_bytes "rx bytes" "tx bytes" 0.05 300
compare downlink_bytes "tx bytes" "rx bytes" 0.05 300
fa=$(val "$LOGS/$S-after-airq.log" "tx failed") fc=$(val "$LOGS/$S-after-client.log" "tx failed")
if [ "$fa" = 0 ] && [ "$fc" = 0 ]; then result tx_failed pass "airqd tx failed 0, client tx failed 0"
else result tx_failed fail "airqd tx failed ${fa:-?}, client tx failed ${fc:-?}"; fi
airq_down
finish
