#!/bin/sh
# s11-nonroot: airqd as a service runs it: a non-root user that holds only
# CAP_NET_ADMIN and CAP_NET_RAW (systemd's User= + AmbientCapabilities=).
#
# e2edrop (tools/) switches to uid/gid 1000 keeping those two capabilities as
# ambient ones and execs airqd in place; the control socket directory
# (systemd's RuntimeDirectory=) belongs to that user.
#
# Checks:
#   airqd_ready      ready, running as uid 1000 with exactly NET_ADMIN+NET_RAW
#                    effective (CapEff 0x3000) and no_new_privs
#   associated       a wpa_supplicant station associates
#   ping_up / ping_down   50 pings each way, 0% loss
#   link.ssid / link.bssid / link.connected
#                    airqctl (run as the same user, no capabilities) agrees
#                    with the client's "iw dev wlan1 link": SSID, BSSID, freq,
#                    the station associated
#   link.rx_bytes / link.tx_bytes
#                    over the pings, airqd's rx bytes follow the client's TX
#                    bytes and airqd's tx bytes (plus the beacons e2esniff
#                    saw) the client's RX bytes, within 5% + 300 bytes
# timeout: 120
. /e2e/lib.sh

one_station
ip link set hwsim0 up
e2esniff -i hwsim0 -sta "$STA" -beacon-every 1 >"$LOGS/$S-air.log" 2>&1 &
register $!

grep -q '^airq:' /etc/passwd || echo "airq:x:1000:1000:airq:/:/bin/sh" >>/etc/passwd
grep -q '^airq:' /etc/group 2>/dev/null || echo "airq:x:1000:" >>/etc/group
chown 1000:1000 /run/airq && chmod 0750 /run/airq
# /init's mknod leaves /dev/net/tun root-only; distributions (udev, the tun
# driver's own devtmpfs node) make it 0666: opening it needs no capability,
# creating the TAP takes CAP_NET_ADMIN
chmod 0666 /dev/net/tun
AIRQD_WRAP="e2edrop -uid 1000 -gid 1000 -caps net_admin,net_raw --"
if airq_up airqd; then
	st=/proc/$AIRQD_PID/status
	uid=$(awk '/^Uid:/ {print $2 "/" $3}' "$st") eff=$(awk '/^CapEff:/ {print $2}' "$st")
	amb=$(awk '/^CapAmb:/ {print $2}' "$st") nnp=$(awk '/^NoNewPrivs:/ {print $2}' "$st")
	d="uid(real/effective) $uid CapEff $eff CapAmb $amb NoNewPrivs $nnp; socket $(ls -ln "$CTLSOCK" | awk '{print $1, $3 ":" $4}')"
	if [ "$uid" = 1000/1000 ] && [ "$eff" = 0000000000003000 ]; then result airqd_ready pass "$d"
	else result airqd_ready fail "$d"; fi
else
	result airqd_ready fail "airqd as uid 1000 not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -3 | tr '\n' ' ')"
	finish
fi
AIRQD_WRAP=
# airqctl as the service's user, without capabilities
uctl() { e2edrop -uid 1000 -gid 1000 -caps "" -- airqctl -socket "$CTLSOCK" -i "$MONIF" "$@"; }

wpas_start 1
if wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1 && wait_for 5 airq_has_sta "$STA"; then
	result associated pass "station $STA"
else
	result associated fail "station: $(wpas_state 1)"
	finish
fi
in_sta 1 ping -c 2 -W 2 "$HOST_IP" >/dev/null 2>&1 # ARP

snap() {
	eval "T_$1=$(T)"
	uctl station get "$STA" >"$LOGS/$S-$1-airq.log" 2>&1
	in_sta 1 iw dev wlan1 link >"$LOGS/$S-$1-link.log" 2>&1
}
snap before
pings ping_up 1 up 50 0.05 500
pings ping_down 1 down 50 0.05 500
snap after
uctl status >"$LOGS/$S-airqctl-status.log" 2>&1
cat "$LOGS/$S-after-link.log" "$LOGS/$S-after-airq.log"

link=$LOGS/$S-after-link.log
l_ssid=$(sed -n 's/^[[:space:]]*SSID: //p' "$link")
l_bssid=$(sed -n 's/^Connected to \([0-9a-f:]*\).*/\1/p' "$link")
l_freq=$(sed -n 's/^[[:space:]]*freq: \([0-9]*\).*/\1/p' "$link")
a_ssid=$(sed -n 's/^ssid=//p' "$LOGS/$S-airqctl-status.log" | head -1)
a_bssid=$(sed -n 's/^bssid=//p' "$LOGS/$S-airqctl-status.log" | head -1)
a_freq=$(sed -n 's/^freq=//p' "$LOGS/$S-airqctl-status.log" | head -1)
d="iw link SSID '$l_ssid', airqctl status ssid '$a_ssid'"
if [ -n "$l_ssid" ] && [ "$l_ssid" = "$a_ssid" ]; then result link.ssid pass "$d"; else result link.ssid fail "$d"; fi
d="iw link BSSID $l_bssid freq $l_freq, airqctl status bssid $a_bssid freq ${a_freq:-?}"
if [ -n "$l_bssid" ] && [ "$l_bssid" = "$a_bssid" ] && { [ -z "$a_freq" ] || [ "$a_freq" = "$l_freq" ]; }; then
	result link.bssid pass "$d"
else result link.bssid fail "$d"; fi
assoc=$(awk '/associated:/ {print $2}' "$LOGS/$S-after-airq.log")
if grep -q "^Connected to $a_bssid" "$link" && [ "$assoc" = yes ]; then
	result link.connected pass "iw link: $(head -1 "$link"); airqctl station get $STA: associated $assoc"
else
	result link.connected fail "iw link: $(head -1 "$link"); airqctl associated: ${assoc:-?}"
fi

# iw link: "RX: 12345 bytes (67 packets)"
linkval() { sed -n "s/^[[:space:]]*$2: \([0-9]*\) bytes.*/\1/p" "$LOGS/$S-$1-link.log"; }
val() { awk -v k="$2:" '{ line = $0; sub(/^[ \t]+/, "", line) } index(line, k) == 1 { sub(k, "", line); split(line, f, " "); print f[1]; exit }' "$LOGS/$S-$1-airq.log"; }
set -- $(awk -v a="$T_before" -v b="$T_after" -v bss="bssid=$BSSID" '$2 == "beacon" && $3 == bss && $1 >= a && $1 <= b {
	n++; for (i = 3; i <= NF; i++) if ($i ~ /^len=/) { sub(/len=/, "", $i); s += $i } } END { print n + 0, s + 0 }' "$LOGS/$S-air.log")
BEACONS=$1 BEACON_BYTES=$2
near() { awk -v a="$1" -v c="$2" 'BEGIN{d = a - c; if (d < 0) d = -d; m = (a > c ? a : c); exit !(a > 0 && d <= m * 0.05 + 300)}'; }
up_a=$(($(val after "rx bytes") - $(val before "rx bytes")))
up_c=$(($(linkval after TX) - $(linkval before TX)))
d="airqd rx bytes +$up_a, iw link TX +$up_c"
if near "$up_a" "$up_c"; then result link.rx_bytes pass "$d"; else result link.rx_bytes fail "$d (5% + 300)"; fi
dn_a=$(($(val after "tx bytes") - $(val before "tx bytes") + BEACON_BYTES))
dn_c=$(($(linkval after RX) - $(linkval before RX)))
d="airqd tx bytes + $BEACONS beacons ($BEACON_BYTES bytes) +$dn_a, iw link RX +$dn_c"
if near "$dn_a" "$dn_c"; then result link.tx_bytes pass "$d"; else result link.tx_bytes fail "$d (5% + 300)"; fi
stop "$(wpas_pid 1)"
airq_down
chown 0:0 /run/airq
finish
