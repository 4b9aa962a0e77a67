#!/bin/sh
# s18-hostapd-cli: Debian's hostapd_cli, unmodified, against airqd's
# hostapd control socket (ctrl_interface=/run/hostapd, interface=wlan0)
# with a real station (wpa_supplicant, open network); then hostapd (the
# kernel's AP mode) on the same radio with the same station, and the reply
# fields of both compared.
#
# Checks:
#   socket              /run/hostapd/wlan0 is a socket with mode 0770
#   ping                hostapd_cli ping answers PONG
#   action.connected    hostapd_cli -a SCRIPT, started before the station,
#                       ran SCRIPT with "wlan0 AP-STA-CONNECTED <station>"
#   status              status: ssid[0]=$SSID, freq=$FREQ, num_sta[0]=1
#   all_sta             all_sta: one station, its address first, [AUTHORIZED]
#   sta                 sta <station>: its address first, then flags=
#   get_config          get_config: bssid= the AP's, ssid=$SSID
#   bss_load            the station's own scan (iw dev wlan1 scan) shows the
#                       BSS Load element (bss_load_update_period=1) with
#                       station count 1
#   reload_wpa_psk      OK
#   deauthenticate      OK, and the station loses the link (iw link), then
#                       wpa_supplicant joins again
#   disassociate        OK, and the same
#   action.disconnected the script ran with AP-STA-DISCONNECTED <station>
#   global.start        airqd restarted with -g /run/hostapd-global/hostapd and
#                       no -config: INTERFACES is empty and no beacon draws
#                       the station (it stays unlinked)
#   global.add          ADD bss_config=<phy>:<file> (through hostapd_cli -p
#                       /run/hostapd-global -i hostapd raw): OK, INTERFACES
#                       lists wlan0, and the station joins the added BSS
#   global.second       ADD of a second BSS on the radio answers FAIL
#   global.remove       REMOVE wlan0: OK, its socket is gone, the station
#                       loses the link
#   global.readd        ADD wlan0 config=<file>, then ENABLE on its socket: the
#                       station joins again
#   fields.status       hostapd's status on the same radio: the keys airqd's
#   fields.sta          reply carries appear in hostapd's reply in the same
#                       order (airqd leaves out what it has no counterpart
#                       for; README "hostapd's control interface")
# timeout: 300
. /e2e/lib.sh

CTRL=/run/hostapd
HCLI="hostapd_cli -p $CTRL -i wlan0"
one_station
echo "AP $APPHY $BSSID; station $STA"

printf 'interface=wlan0\nctrl_interface=%s\nctrl_interface_group=0\nbss_load_update_period=1\n' "$CTRL" >"/tmp/$S.conf"
AIRQD_EXTRA="-config /tmp/$S.conf"
airq_up airqd || { result setup fail "airqd not ready"; finish; }
AIRQD_EXTRA=

if [ -S "$CTRL/wlan0" ] && [ "$(stat -c %a "$CTRL/wlan0")" = 770 ]; then
	result socket pass "$(ls -l "$CTRL/wlan0")"
else
	result socket fail "$(ls -l "$CTRL" 2>&1 | tr '\n' ' ')"
fi
r=$($HCLI ping 2>&1)
if [ "$r" = PONG ]; then result ping pass PONG; else result ping fail "$r"; fi

# the action script: one line per event
printf '#!/bin/sh\necho "$@" >>%s\n' "$LOGS/$S-actions.log" >"/tmp/$S-action.sh"
chmod 755 "/tmp/$S-action.sh"
: >"$LOGS/$S-actions.log"
$HCLI -a "/tmp/$S-action.sh" >"$LOGS/$S-cli-action.log" 2>&1 &
ACTION=$!
register $ACTION
usleep 300000 # hostapd_cli attaches before the station joins

wpas_start 1
if ! { wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1; }; then
	result associated fail "station: $(wpas_state 1)"
	finish
fi
in_action() { grep -q "wlan0 $1 $STA" "$LOGS/$S-actions.log"; }
if wait_for 5 in_action AP-STA-CONNECTED; then result action.connected pass "$(head -1 "$LOGS/$S-actions.log")"
else result action.connected fail "script log: $(tr '\n' ' ' <"$LOGS/$S-actions.log")"; fi

# BSS Load as a station reads it: a fresh scan (wpa_supplicant may hold the
# radio for a moment: tried a few times)
bss_load_seen() {
	in_sta 1 iw dev wlan1 scan freq "$FREQ" >"$LOGS/$S-scan.txt" 2>&1 &&
		grep -A3 "BSS Load:" "$LOGS/$S-scan.txt" | grep -q "station count: 1\$"
}
if wait_for 10 bss_load_seen; then
	result bss_load pass "$(grep -A3 'BSS Load:' "$LOGS/$S-scan.txt" | tr -s '\t\n' '  ')"
else
	result bss_load fail "$(grep -A3 'BSS Load:' "$LOGS/$S-scan.txt" | tr '\n' ' ') $(head -c 300 "$LOGS/$S-scan.txt")"
fi

$HCLI status >"$LOGS/$S-status-airq.txt" 2>&1
if grep -qx "ssid\[0\]=$SSID" "$LOGS/$S-status-airq.txt" && grep -qx "freq=$FREQ" "$LOGS/$S-status-airq.txt" &&
	grep -qx "num_sta\[0\]=1" "$LOGS/$S-status-airq.txt"; then
	result status pass "$(tr '\n' ' ' <"$LOGS/$S-status-airq.txt")"
else
	result status fail "$(tr '\n' ' ' <"$LOGS/$S-status-airq.txt")"
fi
$HCLI all_sta >"$LOGS/$S-all_sta.txt" 2>&1
if [ "$(head -1 "$LOGS/$S-all_sta.txt")" = "$STA" ] && [ "$(grep -c '^flags=' "$LOGS/$S-all_sta.txt")" = 1 ] &&
	grep -q '^flags=.*\[AUTHORIZED\]' "$LOGS/$S-all_sta.txt"; then
	result all_sta pass "$(sed -n 2p "$LOGS/$S-all_sta.txt")"
else
	result all_sta fail "$(tr '\n' ' ' <"$LOGS/$S-all_sta.txt")"
fi
$HCLI sta "$STA" >"$LOGS/$S-sta-airq.txt" 2>&1
if [ "$(head -1 "$LOGS/$S-sta-airq.txt")" = "$STA" ] && sed -n 2p "$LOGS/$S-sta-airq.txt" | grep -q '^flags='; then
	result sta pass "$(wc -l <"$LOGS/$S-sta-airq.txt") lines"
else
	result sta fail "$(tr '\n' ' ' <"$LOGS/$S-sta-airq.txt")"
fi
r=$($HCLI get_config 2>&1)
if echo "$r" | grep -qx "bssid=$BSSID" && echo "$r" | grep -qx "ssid=$SSID"; then result get_config pass "$(echo "$r" | tr '\n' ' ')"
else result get_config fail "$(echo "$r" | tr '\n' ' ')"; fi
r=$($HCLI reload_wpa_psk 2>&1)
if [ "$r" = OK ]; then result reload_wpa_psk pass OK; else result reload_wpa_psk fail "$r"; fi

# leave CMD: the command answers OK, the station loses its link and joins again
leave() {
	r=$($HCLI "$1" "$STA" 2>&1)
	if [ "$r" = OK ] && wait_for 10 sta_unlinked 1 && wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1; then
		result "$1" pass "OK, the station left and joined again"
	else
		result "$1" fail "reply $r, station $(wpas_state 1)"
	fi
}
leave deauthenticate
leave disassociate
if in_action AP-STA-DISCONNECTED; then result action.disconnected pass "$(grep -c AP-STA-DISCONNECTED "$LOGS/$S-actions.log") events"
else result action.disconnected fail "script log: $(tr '\n' ' ' <"$LOGS/$S-actions.log")"; fi

stop "$ACTION"
airq_down
wait_for 10 sh -c "! ip link show $MONIF" 2>/dev/null

log "the global socket"
GDIR=/run/hostapd-global
GCLI="hostapd_cli -p $GDIR -i hostapd raw"
# the BSS the global socket adds: the radio's running settings (flags only),
# since a key that only a start applies (bss_load_update_period) is refused
printf 'interface=wlan0\nctrl_interface=%s\nctrl_interface_group=0\n' "$CTRL" >"/tmp/$S-global.conf"
AIRQD_EXTRA="-g $GDIR/hostapd"
airq_up airqd-global || { result global.start fail "airqd -g not ready"; finish; }
AIRQD_EXTRA=
r=$($GCLI INTERFACES 2>&1)
if [ -z "$r" ] && ! wait_for 3 sta_linked 1; then result global.start pass "no BSS, the station unlinked"
else result global.start fail "INTERFACES: $r; station $(wpas_state 1)"; fi
r=$($GCLI "ADD bss_config=$APPHY:/tmp/$S-global.conf" 2>&1)
if [ "$r" = OK ] && [ "$($GCLI INTERFACES 2>&1)" = wlan0 ] && wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1; then
	result global.add pass "OK, the station joined"
else
	result global.add fail "reply $r, INTERFACES $($GCLI INTERFACES 2>&1), station $(wpas_state 1)"
fi
r=$($GCLI "ADD wlan1 $CTRL" 2>&1)
if [ "$r" = FAIL ]; then result global.second pass FAIL; else result global.second fail "$r"; fi
r=$($GCLI "REMOVE wlan0" 2>&1)
if [ "$r" = OK ] && [ ! -e "$CTRL/wlan0" ] && wait_for 10 sta_unlinked 1; then result global.remove pass "OK, the station left"
else result global.remove fail "reply $r, station $(wpas_state 1)"; fi
r=$($GCLI "ADD wlan0 config=/tmp/$S-global.conf" 2>&1)
e=$($HCLI enable 2>&1)
if [ "$r" = OK ] && [ "$e" = OK ] && wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1; then
	result global.readd pass "ADD OK, ENABLE OK, the station joined again"
else
	result global.readd fail "ADD $r, ENABLE $e, station $(wpas_state 1)"
fi
stop "$(wpas_pid 1)"
airq_down
wait_for 10 sh -c "! ip link show $MONIF" 2>/dev/null

log "hostapd on the same radio, for the field comparison"
iw phy "$APPHY" interface add wlan0 type managed
printf 'interface=wlan0\ndriver=nl80211\nssid=%s\nhw_mode=g\nchannel=%s\nwmm_enabled=1\nctrl_interface=%s\n' \
	"$SSID" "$CHANNEL" "$CTRL" >"/tmp/$S-hostapd.conf"
hostapd -t -d "/tmp/$S-hostapd.conf" >"$LOGS/$S-hostapd.log" 2>&1 &
HAPD=$!
register $HAPD
# keys FILE: the key names of a key=value reply, one a line
keys() { sed -n 's/^\([^=]*\)=.*/\1/p' "$1"; }
# in_order A B: every line of A is in B, in A's order
in_order() { awk 'NR == FNR { b[++n] = $0; next } { while (i < n && b[++i] != $0) {} if (b[i] != $0) exit 1 }' "$2" "$1"; }
if wait_for 30 sh -c "grep -q 'AP-ENABLED' $LOGS/$S-hostapd.log"; then
	wpas_start 1
	if wait_for 45 wpas_completed 1; then
		hostapd_cli -p "$CTRL" -i wlan0 status >"$LOGS/$S-status-hostapd.txt" 2>&1
		hostapd_cli -p "$CTRL" -i wlan0 sta "$STA" >"$LOGS/$S-sta-hostapd.txt" 2>&1
		for f in status sta; do
			keys "$LOGS/$S-$f-airq.txt" >"/tmp/$S-$f-airq.keys"
			keys "$LOGS/$S-$f-hostapd.txt" >"/tmp/$S-$f-hostapd.keys"
			if [ -s "/tmp/$S-$f-airq.keys" ] && [ -s "/tmp/$S-$f-hostapd.keys" ] && in_order "/tmp/$S-$f-airq.keys" "/tmp/$S-$f-hostapd.keys"; then
				result "fields.$f" pass "$(wc -l <"/tmp/$S-$f-airq.keys") of hostapd's $(wc -l <"/tmp/$S-$f-hostapd.keys") keys, in its order"
			else
				result "fields.$f" fail "airq: $(tr '\n' ' ' <"/tmp/$S-$f-airq.keys"); hostapd: $(tr '\n' ' ' <"/tmp/$S-$f-hostapd.keys")"
			fi
		done
	else
		result fields.status fail "station 1 with hostapd: $(wpas_state 1)"
		result fields.sta fail "station 1 with hostapd: $(wpas_state 1)"
	fi
	stop "$(wpas_pid 1)"
else
	result fields.status fail "hostapd: no AP-ENABLED: $(tail -3 "$LOGS/$S-hostapd.log" | tr '\n' ' ')"
	result fields.sta fail "hostapd did not start"
fi
stop "$HAPD"
wait_for 5 link_exists wlan0 && iw dev wlan0 del
finish
