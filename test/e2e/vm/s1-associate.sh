#!/bin/sh
# s1-associate: airqd on one hwsim radio, an unmodified wpa_supplicant station
# (open network) on another radio in its own network namespace.
#
# Checks:
#   airqd_ready        airqd starts and logs "ready"
#   monitor_iface      "iw dev" shows airqd's monitor interface: type monitor,
#                      addr == BSSID (the phy's permanent address), channel 1
#                      (2412 MHz)
#   tap_iface          the TAP exists and is up (the harness assigns 10.0.0.1/24
#                      to it: the "host behind the TAP")
#   associated         wpa_supplicant reaches COMPLETED and "iw link" shows the
#                      BSSID and SSID
#   ping_sta_to_host   20 pings station -> 10.0.0.1, 0% loss
#   ping_host_to_sta   20 pings 10.0.0.1 -> station, 0% loss
#   acked_mlme         the station got authenticated and associated, and none of
#                      its auth/assoc frames was retried at once (a retry, if any,
#                      came only after the 100 ms reply timeout: "try 2/3" >= 80 ms
#                      after "try 1/3")
#   airqctl_station    airqctl's station dump (over airqd's -control socket)
#                      lists the station
#   acked_data         the station's counters for the AP: tx failed == 0 with at
#                      least 20 frames sent (its 20 echo requests alone)
#
# Why the last two prove that airqd's ACTIVE monitor ACKs: mac80211_hwsim decides
# ACKs in software. A frame counts as ACKed only if a radio on the same channel
# has an interface *in the driver* whose address equals addr1. A plain monitor
# is not added to the driver; an active one is. The only interface with the
# BSSID is airqd's monitor (the phy's default wlan interface is deleted first,
# and the harness checks no other netdev has that address). If the station's
# frame is not ACKed, hwsim reports the TX status "not acked" synchronously and
# mac80211 (a) immediately sends the next auth/assoc try ("try 2/3" within about
# 1 ms, long before a userspace reply can arrive) and (b) counts a unicast data
# frame in the station's "tx failed". With the ACK, mac80211 waits for the reply
# (AUTH_TIMEOUT_SHORT, 100 ms), so normally only "try 1/3" is logged (and a
# slow reply shows as a retry 100 ms later, not as an immediate one), and
# "tx failed" stays 0. On the perfect hwsim medium both are deterministic.
# With a plain monitor a reply can still win the race on a single attempt,
# which is why tx_failed (every data frame) is the check that cannot be fooled.
# timeout: 150
. /e2e/lib.sh

log "radios"
hwsim_reset 2 || { result setup fail "mac80211_hwsim radios=2"; finish; }
APPHY=$(phy_of wlan0)
STAPHY=$(phy_of wlan1)
BSSID=$(perm_addr "$APPHY")
STAMAC=$(cat /sys/class/net/wlan1/address)
echo "AP phy $APPHY (index $(phy_index "$APPHY"), permanent address $BSSID), station phy $STAPHY ($STAMAC)"
# airqd's monitor takes the phy's permanent address: the default interface
# has it too and would answer (and ACK) in its place.
iw dev wlan0 del || { result setup fail "iw dev wlan0 del"; finish; }

iw event -t -f >"$LOGS/$S-iw-event-root.log" 2>&1 &
register $!
dmesg_mark

log "airqd on $APPHY"
t=$(T)
airqd_start "$APPHY" airqd
if airqd_wait_ready 30; then
	result airqd_ready pass "in $(since "$t")s (pid $AIRQD_PID)"
else
	result airqd_ready fail "no 'ready' line within 30 s"
fi

# The monitor interface as "iw dev" shows it.
iw dev >"$LOGS/$S-iw-dev.log" 2>&1
blk=$(iw_dev_block "$MONIF")
echo "$blk"
mon_type=$(echo "$blk" | awk '$1=="type"{print $2}')
mon_addr=$(echo "$blk" | awk '$1=="addr"{print $2}')
mon_chan=$(echo "$blk" | sed -n 's/^[[:space:]]*\(channel [0-9]* ([0-9]* MHz)\).*/\1/p')
mon_phy=$(echo "$blk" | sed -n 's/^phy#\([0-9]*\)/\1/p')
detail="iface=$MONIF type=${mon_type:-none} addr=${mon_addr:-none} bssid=$BSSID phy#${mon_phy:-?} (AP phy index $(phy_index "$APPHY")) ${mon_chan:-no channel}"
if [ "$mon_type" = monitor ] && [ "$mon_addr" = "$BSSID" ] && [ "$mon_chan" = "channel $CHANNEL ($FREQ MHz)" ] &&
	[ "$mon_phy" = "$(phy_index "$APPHY")" ]; then
	result monitor_iface pass "$detail"
else
	result monitor_iface fail "$detail"
fi
# No other netdev may carry the BSSID (it would ACK in airqd's place).
others=$(for i in /sys/class/net/*; do [ "$(cat "$i/address")" = "$BSSID" ] && [ "${i##*/}" != "$MONIF" ] && echo "${i##*/}"; done)
[ -z "$others" ] || result monitor_iface fail "other interfaces with the BSSID: $others"

# The host behind the TAP.
if link_exists "$TAPIF" && ip addr add "$HOST_IP/24" dev "$TAPIF" && ip link set "$TAPIF" up; then
	result tap_iface pass "$TAPIF $(cat /sys/class/net/$TAPIF/address) $HOST_IP/24 operstate=$(cat "/sys/class/net/$TAPIF/operstate")"
else
	result tap_iface fail "$TAPIF missing or not configurable: $(ip -o link show 2>&1 | awk -F': ' '{printf "%s ", $2}')"
fi

log "station: $STAPHY into its own network namespace"
netns_new || { result setup fail "network namespace"; finish; }
iw phy "$STAPHY" set netns "$NSPID" || { result setup fail "iw phy $STAPHY set netns"; finish; }
wait_for 5 sta ip link show wlan1 || { result setup fail "wlan1 not in the station namespace"; finish; }
sta ip link set lo up
# Background jobs call nsenter directly (not the sta function), so that $! is
# the process itself and not a subshell.
nsenter -F -t "$NSPID" -n iw event -t -f >"$LOGS/$S-iw-event-sta.log" 2>&1 &
STAEV_PID=$!
register $STAEV_PID
cat >/tmp/$S-wpas.conf <<EOF
ctrl_interface=/run/wpa_supplicant
network={
	ssid="$SSID"
	key_mgmt=NONE
	scan_freq=$FREQ
}
EOF
sta_completed() { sta wpa_cli -p /run/wpa_supplicant -i wlan1 status 2>/dev/null | grep -q '^wpa_state=COMPLETED'; }
sta_linked() { sta iw dev wlan1 link | grep -q "Connected to $BSSID"; }

dmesg_mark
t=$(T)
nsenter -F -t "$NSPID" -n wpa_supplicant -i wlan1 -D nl80211 -c /tmp/$S-wpas.conf -t -d -f "$LOGS/$S-wpas.log" &
WPAS_PID=$!
register $WPAS_PID
if wait_for 45 sta_completed && wait_for 5 sta_linked; then
	assoc_s=$(since "$t")
	sta iw dev wlan1 link >"$LOGS/$S-iw-link.log" 2>&1
	result associated pass "in ${assoc_s}s: $(sed -n 's/^\(Connected to [^ ]*\).*/\1/p; s/^[[:space:]]*SSID: /SSID=/p; s/^[[:space:]]*freq: /freq=/p' "$LOGS/$S-iw-link.log" | tr '\n' ' ')"
	ASSOC=yes
else
	sta iw dev wlan1 link >"$LOGS/$S-iw-link.log" 2>&1
	result associated fail "not COMPLETED within 45 s: $(sta wpa_cli -p /run/wpa_supplicant -i wlan1 status 2>&1 | grep wpa_state) $(head -1 "$LOGS/$S-iw-link.log")"
	ASSOC=no
fi
dmesg_mark

if [ $ASSOC = yes ]; then
	log "ping"
	sta ip addr add "$STA_IP/24" dev wlan1
	sta ping -c 20 -i 0.2 -W 2 -w 30 "$HOST_IP" >"$LOGS/$S-ping-sta-to-host.log" 2>&1
	if ping_ok "$LOGS/$S-ping-sta-to-host.log" 20; then r=pass; else r=fail; fi
	result ping_sta_to_host $r "$(pingsum "$LOGS/$S-ping-sta-to-host.log")"
	ping -c 20 -i 0.2 -W 2 -w 30 "$STA_IP" >"$LOGS/$S-ping-host-to-sta.log" 2>&1
	if ping_ok "$LOGS/$S-ping-host-to-sta.log" 20; then r=pass; else r=fail; fi
	result ping_host_to_sta $r "$(pingsum "$LOGS/$S-ping-host-to-sta.log")"
else
	result ping_sta_to_host fail "skipped: not associated"
	result ping_host_to_sta fail "skipped: not associated"
fi

# ACK proof 1: the station's MLME retry timing (dmesg since wpa_supplicant start).
grep -E 'authenticate with|send auth|authenticated|associate with|associated|timed out|RX AssocResp|deauth|disassoc' \
	"$LOGS/$S-dmesg.log" | sed -n '/wlan1/p' >"$LOGS/$S-mlme.log"
cat "$LOGS/$S-mlme.log"
# Every retry of an auth/assoc frame and its gap to the previous try (ms).
# ACKed: the next try only comes after the 100 ms reply timeout; not ACKed:
# at once (about 1 ms, at most a few tens of ms under TCG).
retries=$(awk '
	/send auth to|associate with .*\(try/ {
		ts = $0; sub(/^\[ */, "", ts); sub(/\].*/, "", ts)
		kind = ($0 ~ /send auth/) ? "auth" : "assoc"
		match($0, /try [0-9]+/); k = substr($0, RSTART + 4, RLENGTH - 4) + 0
		if (k > 1) printf "%s:%d:%.1f ", kind, k, (ts - last[kind]) * 1000
		last[kind] = ts
	}' "$LOGS/$S-mlme.log")
n_fast=$(echo "$retries" | tr ' ' '\n' | awk -F: 'NF == 3 && $3 < 80 {n++} END {print n + 0}')
n_auth=$(grep -c "send auth to $BSSID" "$LOGS/$S-mlme.log")
n_assoc=$(grep -c "associate with $BSSID" "$LOGS/$S-mlme.log")
n_ok_auth=$(grep -c 'wlan1: authenticated' "$LOGS/$S-mlme.log")
n_ok_assoc=$(grep -c 'wlan1: associated' "$LOGS/$S-mlme.log")
n_tmo=$(grep -c 'timed out' "$LOGS/$S-mlme.log")
detail="auth_tx=$n_auth assoc_tx=$n_assoc authenticated=$n_ok_auth associated=$n_ok_assoc timeouts=$n_tmo retries=[${retries% }] immediate_retries=$n_fast"
if [ "$n_ok_auth" -ge 1 ] && [ "$n_ok_assoc" -ge 1 ] && [ "$n_fast" = 0 ]; then
	result acked_mlme pass "$detail"
else
	result acked_mlme fail "$detail"
fi

# ACK proof 2: the station's own TX counters for the AP.
sta iw dev wlan1 station dump >"$LOGS/$S-sta-station-dump.log" 2>&1
cat "$LOGS/$S-sta-station-dump.log"
txp=$(awk '/tx packets:/{print $3}' "$LOGS/$S-sta-station-dump.log")
txr=$(awk '/tx retries:/{print $3}' "$LOGS/$S-sta-station-dump.log")
txf=$(awk '/tx failed:/{print $3}' "$LOGS/$S-sta-station-dump.log")
detail="station->AP tx_packets=${txp:-?} tx_retries=${txr:-?} tx_failed=${txf:-?} (station rx bitrate: $(awk -F'\t' '/rx bitrate:/{print $3}' "$LOGS/$S-sta-station-dump.log"))"
if [ -n "$txf" ] && [ "$txf" = 0 ] && [ "${txp:-0}" -ge 20 ]; then
	result acked_data pass "$detail"
else
	result acked_data fail "$detail (need tx_failed=0, tx_packets>=20)"
fi

# airqd's own view over its control socket.
if ! [ -S /run/airq/airqd.sock ]; then
	result airqctl_station fail "no control socket /run/airq/airqd.sock"
else
	airqctl -socket /run/airq/airqd.sock -i "$MONIF" status >"$LOGS/$S-airqctl-status.log" 2>&1
	airqctl -socket /run/airq/airqd.sock -i "$MONIF" station dump >"$LOGS/$S-airqctl-station-dump.log" 2>&1
	rc=$?
	cat "$LOGS/$S-airqctl-station-dump.log"
	d=$(awk '/packets:|tx failed:|tx retries:/{gsub(/^[ \t]+/, ""); gsub(/:[ \t]+/, "="); gsub(/ /, "_"); printf "%s ", $0}' \
		"$LOGS/$S-airqctl-station-dump.log")
	if [ $rc = 0 ] && grep -q "^Station $STAMAC" "$LOGS/$S-airqctl-station-dump.log"; then
		result airqctl_station pass "airqctl station dump lists $STAMAC: $d"
	else
		result airqctl_station fail "rc=$rc, $STAMAC not listed: $(head -3 "$LOGS/$S-airqctl-station-dump.log" | tr '\n' ' ')"
	fi
fi
for f in rx_packets tx_packets rx_dropped tx_dropped; do
	echo "$TAPIF $f $(cat "/sys/class/net/$TAPIF/statistics/$f" 2>/dev/null)"
done >"$LOGS/$S-tap-stats.log"

log "teardown"
stop "$WPAS_PID"
stop "$AIRQD_PID" 10
stop "$STAEV_PID"
stop "$NSPID"
dmesg_mark
finish
