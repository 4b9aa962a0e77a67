#!/bin/sh
# s12-scan: background scanning beside a real neighbour, without the clients
# noticing.
#
# Three radios: airqd on wlan0's phy (channel 1, -scan, continuous trips),
# station 1 (wpa_supplicant) associated to airqd, and hostapd (kernel AP mode)
# on wlan2, channel 6, SSID airq-e2e-nbr: the neighbour airqd must find.
#
# Checks:
#   hostapd_up            the neighbour beacons on channel 6
#   found_neighbour       "airqctl scan dump" lists hostapd's BSSID, SSID and
#                         2437 MHz (30 s limit)
#   associated            station 1 associates to airqd on channel 1
#   stays_associated      for 30 s of continuous scanning (airqctl scan: trips
#                         keep counting) the station's "iw event" shows no
#                         disconnect, deauth or beacon loss, wpa_supplicant no
#                         CTRL-EVENT-DISCONNECTED/BEACON-LOSS, and "iw link"
#                         still shows airqd
#   scanning_continued    airqctl scan's trip counter advanced during the 30 s
#   ping_during_scan      150 pings (0.2 s apart) station -> host during the
#                         scan. A station's frames sent while airqd is off
#                         channel find nobody to ACK them and are lost after
#                         the station's retries: the loss may be as large as
#                         the share of time away (airqctl scan's away_us), plus
#                         10 points; more means airqd lost frames at home. RTT
#                         and beacon gaps (e2esniff on hwsim0) are in the
#                         detail.
# timeout: 120
. /e2e/lib.sh

log "radios"
ap_radios 3 || { result setup fail "mac80211_hwsim radios=3"; finish; }
sta_init 1 || { result setup fail "station namespace"; finish; }
STA=$(sta_mac 1)
NBR=$(cat /sys/class/net/wlan2/address)
NBR_SSID=airq-e2e-nbr
ip link set hwsim0 up
e2esniff -i hwsim0 -sta "$STA" -beacon-every 1 >"$LOGS/$S-air.log" 2>&1 &
register $!

log "hostapd neighbour on channel 6"
cat >/tmp/$S-hostapd.conf <<EOC
interface=wlan2
driver=nl80211
ssid=$NBR_SSID
hw_mode=g
channel=6
ctrl_interface=/run/hostapd-nbr
EOC
hostapd -t /tmp/$S-hostapd.conf >"$LOGS/$S-hostapd.log" 2>&1 &
register $!
if wait_for 30 grep -q AP-ENABLED "$LOGS/$S-hostapd.log"; then
	result hostapd_up pass "hostapd $NBR ($NBR_SSID) on channel 6"
else
	result hostapd_up fail "no AP-ENABLED: $(tail -2 "$LOGS/$S-hostapd.log" | tr '\n' ' ')"
fi

AIRQD_EXTRA="-scan -scan-mode continuous"
if airq_up airqd; then :; else result airqd_ready fail "airqd -scan not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"; finish; fi
AIRQD_EXTRA=

found() { ctl -i "$MONIF" scan dump 2>/dev/null | awk -v b="$NBR" -v s="$NBR_SSID" '
	/^BSS / { inb = (index($2, b) == 1) } inb && /freq: 2437/ { f = 1 } inb && $1 == "SSID:" && $2 == s { n = 1 }
	END { exit !(f && n) }'; }
t0=$(T)
if wait_for 30 found; then
	ctl -i "$MONIF" scan dump >"$LOGS/$S-scan-dump.log" 2>&1
	result found_neighbour pass "after $(since "$t0") s: $(awk -v b="$NBR" '/^BSS / { inb = (index($2, b) == 1) } inb && /^BSS|freq:|SSID:|signal:/' "$LOGS/$S-scan-dump.log" | tr -s '\t\n' '  ')"
else
	ctl -i "$MONIF" scan dump >"$LOGS/$S-scan-dump.log" 2>&1
	result found_neighbour fail "$NBR not listed after 30 s; scan dump lists: $(grep -c '^BSS' "$LOGS/$S-scan-dump.log") BSSs; $(ctl scan 2>&1 | tr '\n' ' ')"
fi

wpas_start 1
if wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1; then
	result associated pass "station $STA associated while airqd scans"
else
	result associated fail "station: $(wpas_state 1)"
	finish
fi
in_sta 1 ping -c 2 -W 2 "$HOST_IP" >/dev/null 2>&1 # ARP

log "30 s of continuous scanning with the station pinging"
ctl scan >"$LOGS/$S-scan-before.log" 2>&1
nev0=$(wc -l <"$LOGS/$S-iw-event-sta1.log")
t0=$(T)
f=$LOGS/$S-ping-during-scan.log
in_sta 1 ping -c 150 -i 0.2 -W 2 -w 45 "$HOST_IP" >"$f" 2>&1
ctl scan >"$LOGS/$S-scan-after.log" 2>&1
ctl status >"$LOGS/$S-airqctl-status.log" 2>&1
t1=$(T)
rx=$(awk '/packets transmitted/ {print $4}' "$f")
rtt=$(rtt_of "$f")
trips0=$(sed -n 's/^trips=//p' "$LOGS/$S-scan-before.log") trips1=$(sed -n 's/^trips=//p' "$LOGS/$S-scan-after.log")
gaps=$(awk -v a="$t0" -v b="$t1" -v bss="bssid=$BSSID" '$2 == "beacon" && $3 == bss && $1 >= a && $1 <= b {
	if (p != "") { g = ($1 - p) * 1000; if (g > m) m = g; if (g > 153.6) n++ } p = $1; c++ }
	END { printf "%d beacons, max gap %.0f ms, %d gaps > 1.5 intervals", c, m, n }' "$LOGS/$S-air.log")
missed=$(sed -n 's/^beacon_missed_intervals=//p' "$LOGS/$S-airqctl-status.log")
d="$(pingsum "$f"); airqd trips $trips0 -> $trips1; on the air: $gaps${missed:+; airqd beacon_missed_intervals=$missed}"
away0=$(sed -n 's/^away_us=//p' "$LOGS/$S-scan-before.log") away1=$(sed -n 's/^away_us=//p' "$LOGS/$S-scan-after.log")
awaypct=$(awk -v a="${away0:-0}" -v b="${away1:-0}" -v t0="$t0" -v t1="$t1" 'BEGIN{printf "%.0f", (b-a)/1e6/(t1-t0)*100}')
lostpct=$(awk -v r="${rx:-0}" 'BEGIN{printf "%.0f", (150-r)/150*100}')
d="$d; away ${awaypct}% of the time, ${lostpct}% of pings lost"
if [ "$lostpct" -le $((awaypct + 10)) ]; then result ping_during_scan pass "$d"
else result ping_during_scan fail "$d (at most the time away + 10 points)"; fi
if [ -n "$trips1" ] && [ "${trips1:-0}" -gt "${trips0:-0}" ]; then
	result scanning_continued pass "trips $trips0 -> $trips1 in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}') s; $(grep -E '^(trip_limit_us|sweeps|away_us|time_away)' "$LOGS/$S-scan-after.log" | tr '\n' ' ')"
else
	result scanning_continued fail "trips $trips0 -> $trips1: $(tr '\n' ' ' <"$LOGS/$S-scan-after.log")"
fi
bad=$(tail -n +"$((nev0 + 1))" "$LOGS/$S-iw-event-sta1.log" | grep -iE 'disconnect|deauth|disassoc|beacon loss|del station' | head -3)
wbad=$(grep -E 'CTRL-EVENT-(DISCONNECTED|BEACON-LOSS)' "$LOGS/$S-wpas1.log" | head -2)
if [ -z "$bad" ] && [ -z "$wbad" ] && sta_linked 1; then
	result stays_associated pass "no disconnect/beacon-loss event in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}') s of scanning; iw link: $(in_sta 1 iw dev wlan1 link | head -1)"
else
	result stays_associated fail "iw event: ${bad:-none}; wpa_supplicant: ${wbad:-none}; linked: $(sta_linked 1 && echo yes || echo no)"
fi
stop "$(wpas_pid 1)"
airq_down
finish
