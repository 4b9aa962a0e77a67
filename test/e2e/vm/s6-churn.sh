#!/bin/sh
# s6-churn: stations leave and come back; airqd restarts under them.
#
# Checks:
#   reassoc_20       station 1 ("iw connect") deauthenticates ("iw dev wlan1
#                    disconnect": a Deauthentication frame) and associates again,
#                    20 times; each round: airqd drops it from its table, then it
#                    is linked again, listed by airqd and answers one ping
#   deauth_logged    airqd logged 20 AP-STA-DISCONNECTED for it (deauthenticated
#                    by the station) and 21 AP-STA-CONNECTED
#   restart_term     stations 1 and 2 (wpa_supplicant) connected; airqd stopped
#                    with SIGTERM and started again: both reconnect by themselves
#                    (COMPLETED, listed by airqd, ping) within 60 s
#   kill_monitor     airqd killed with SIGKILL while stations are connected: the
#                    kernel removes its monitor interface (SOCKET_OWNER, 10 s)
#   restart_kill     airqd started again after the SIGKILL: both stations are
#                    back (listed by airqd, ping) within 60 s
# timeout: 240
. /e2e/lib.sh

log "radios"
ap_radios 3 || { result setup fail "mac80211_hwsim radios=3"; finish; }
for i in 1 2; do sta_init $i || { result setup fail "station $i namespace"; finish; }; done
STA1=$(sta_mac 1) STA2=$(sta_mac 2)
if airq_up airqd; then result airqd_ready pass "airqd pid $AIRQD_PID"
else result airqd_ready fail "airqd not ready"; finish; fi

log "20 x deauthenticate and associate again"
ok=0 t=$(T) why=
iwc 1
wait_for 20 sta_linked 1 && wait_for 5 airq_has_sta "$STA1" || why="first association failed"
for n in $(seq 1 20); do
	[ -z "$why" ] || break
	in_sta 1 iw dev wlan1 disconnect
	wait_for 10 airq_lacks_sta "$STA1" || { why="round $n: airqd still lists $STA1 10 s after the deauthentication"; break; }
	in_sta 1 iw dev wlan1 connect "$SSID" "$FREQ" "$BSSID"
	wait_for 20 sta_linked 1 || { why="round $n: not linked again: $(in_sta 1 iw dev wlan1 link | head -1)"; break; }
	wait_for 5 airq_has_sta "$STA1" || { why="round $n: linked but airqd does not list $STA1"; break; }
	in_sta 1 ping -c 1 -W 3 "$HOST_IP" >/dev/null 2>&1 || in_sta 1 ping -c 1 -W 3 "$HOST_IP" >/dev/null 2>&1 ||
		{ why="round $n: no ping reply"; break; }
	ok=$n
done
if [ "$ok" = 20 ]; then result reassoc_20 pass "20/20 rounds in $(since "$t")s"
else result reassoc_20 fail "$ok/20 rounds: $why"; fi
ndis=$(grep -c "AP-STA-DISCONNECTED addr=$STA1" "$AIRQD_LOG")
ncon=$(grep -c "AP-STA-CONNECTED addr=$STA1" "$AIRQD_LOG")
reason=$(grep "AP-STA-DISCONNECTED addr=$STA1" "$AIRQD_LOG" | sed -n 's/.*\(reason=[0-9]*\) \(why=.*\)/\1 \2/p' | sort | uniq -c | tr -s ' ' | tr '\n' ';')
if [ "$ndis" = 20 ] && [ "$ncon" = 21 ]; then result deauth_logged pass "$ncon connected, $ndis disconnected:$reason"
else result deauth_logged fail "$ncon connected (want 21), $ndis disconnected (want 20):$reason"; fi
in_sta 1 iw dev wlan1 disconnect
wait_for 10 sta_unlinked 1

log "airqd restarts under connected stations"
wpas_start 1
wpas_start 2
both_back() {
	wpas_completed 1 && wpas_completed 2 && airq_has_sta "$STA1" && airq_has_sta "$STA2" &&
		in_sta 1 ping -c 1 -W 2 "$HOST_IP" && in_sta 2 ping -c 1 -W 2 "$HOST_IP"
}
if wait_for 45 both_back; then
	stop "$AIRQD_PID" 10
	t=$(T)
	if airq_up airqd-restart && wait_for 60 both_back; then
		result restart_term pass "both stations back $(since "$t")s after the restart"
	else
		result restart_term fail "after 60 s: sta1=$(wpas_state 1) sta2=$(wpas_state 2) airqd lists: $(ctl station dump 2>&1 | grep -c ^Station)"
	fi
else
	result restart_term fail "stations not connected before the restart: sta1=$(wpas_state 1) sta2=$(wpas_state 2)"
fi

log "SIGKILL under connected stations"
wait_for 30 both_back
kill -KILL "$AIRQD_PID"
t=$(T)
if wait_for 10 sh -c "! ip link show $MONIF && ! iw dev | grep -q 'Interface $MONIF\$'"; then
	result kill_monitor pass "$MONIF gone $(since "$t")s after SIGKILL"
else
	result kill_monitor fail "$MONIF still there 10 s after SIGKILL"
fi
wait_for 5 gone "$AIRQD_PID"
t=$(T)
if airq_up airqd-after-kill && wait_for 60 both_back; then
	result restart_kill pass "both stations back $(since "$t")s after the start (sta1 $(wpas_state 1), sta2 $(wpas_state 2))"
else
	result restart_kill fail "after 60 s: sta1=$(wpas_state 1) sta2=$(wpas_state 2) airqd lists: $(ctl station dump 2>&1 | grep -c ^Station)"
fi
stop "$(wpas_pid 1)"
stop "$(wpas_pid 2)"
airq_down
finish
