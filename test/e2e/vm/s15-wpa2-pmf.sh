#!/bin/sh
# s15-wpa2-pmf: protected management frames (802.11w, issue 21) with
# unmodified wpa_supplicant.
#
# Radios: wlan0 = airqd (wpa=2), wlan1 = a wpa_supplicant station, wlan2's
# phy = the attacker: an active monitor fmon0 from which tools/e2einject
# sends unprotected management frames, spoofed from the AP to the station
# and from the station to the AP.
#
# Checks:
#   w1.* / w2.*            airqd ieee80211w=1 (wpa_key_mgmt=WPA-PSK, station
#                          key_mgmt=WPA-PSK ieee80211w=1) and ieee80211w=2
#                          (WPA-PSK-SHA256 both sides, station ieee80211w=2),
#                          as hostapd's tests pair them:
#     .associated          COMPLETED with the key_mgmt asked for, CCMP
#     .mfp                 airqctl station get says "MFP: yes", and
#                          airq_rsn_igtk_installed counted the IGTK
#     .ping_up / .ping_down  10 pings each way, 0% loss
#     .tcp_down / .tcp_up  iperf3 TCP 4 s, >= 2 Mbit/s
#   attack.injected        (ieee80211w=2) 10 each of deauthentication,
#                          disassociation and authentication from the AP to
#                          the station and from the station to the AP, and 3
#                          association requests in the station's name, all
#                          unprotected, sent without error
#   attack.counted         airqd dropped the station-named deauthentications
#                          and disassociations (rx_mgmt_unprotected_deauth /
#                          _disassoc, at least 90% each), answered the
#                          authentications without touching the association
#                          (auth_kept_assoc, at least 90%), and refused the
#                          association requests with status 30 while the SA
#                          Query, answered by the real station, kept it
#                          (assoc_comeback >= 1, sa_query_kept >= 1)
#   attack.undisturbed     the station is still COMPLETED, associated at
#                          airqd, no AP-STA-DISCONNECTED since before the
#                          attack; 10 pings each way with 0% loss after it
#   restart.back           wpa_supplicant killed (SIGKILL) and started again:
#                          COMPLETED within 30 s. (The kernel deauthenticates
#                          on the dead supplicant's behalf, under the PTK, as
#                          its socket owned the connection: airqd takes that
#                          as the station leaving, as hostapd would.)
#   reconnect.back         the station reconnects without its old keys
#                          (wpa_cli reassociate: wpa_supplicant clears the
#                          kernel's keys, its deauthentication goes out
#                          unprotected and is dropped, its authentication
#                          leaves the association alone): status 30 with the
#                          comeback time, the SA Query goes unanswered and
#                          times out, and the station is COMPLETED again
#                          within 30 s (assoc_comeback >= 1,
#                          sa_query_timed_out >= 1); pings
#   nonpmf.refused         (ieee80211w=2) wpa_supplicant with ieee80211w=0 never
#                          completes in 15 s: it skips the BSS itself ("no mgmt
#                          frame protection enabled but AP requires it")
#   nonpmf.status31        so the attacker's radio plays that station from its
#                          own address: authentication status 0, then an
#                          association request whose RSNE lacks MFPC gets
#                          status 31 from airqd, as from hostapd
# timeout: 420
. /e2e/lib.sh

PASS="airq e2e passphrase"
stat_of() { ctl status 2>/dev/null | sed -n "s/^$1=//p"; }
sent_of() { sed -n 's/^SUMMARY sent=\([0-9]*\) .*/\1/p' "$1"; }
errors_of() { sed -n 's/^SUMMARY .*errors=\([0-9]*\).*/\1/p' "$1"; }
delta() { echo $((${1:-0} - ${2:-0})); }
at_least90() { [ "$2" -gt 0 ] && [ $(($1 * 10)) -ge $(($2 * 9)) ]; }
conf() { # IEEE80211W AKMS: airqd's configuration, mode 0600
	umask 077
	printf 'wpa=2\nwpa_passphrase=%s\nwpa_key_mgmt=%s\nrsn_pairwise=CCMP\nieee80211w=%s\n' "$PASS" "$2" "$1" >/tmp/$S.conf
	umask 022
}
wpa_body() { # KEY_MGMT IEEE80211W
	printf '\tssid="%s"\n\tkey_mgmt=%s\n\tpsk="%s"\n\tproto=RSN\n\tpairwise=CCMP\n\tgroup=CCMP\n\tieee80211w=%s\n\tscan_freq=%s' \
		"$SSID" "$1" "$PASS" "$2" "$FREQ"
}
wpas_stop() { stop "$(wpas_pid 1)" 5; }
airqd_with() { # IEEE80211W AKMS
	conf "$1" "$2"
	AIRQD_EXTRA="-config /tmp/$S.conf"
	if airq_up "airqd-w$1"; then result "w$1.airqd_ready" pass "airqd pid $AIRQD_PID with wpa=2 ieee80211w=$1 wpa_key_mgmt=$2"
	else result "w$1.airqd_ready" fail "airqd (ieee80211w=$1) not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"; finish; fi
}
tcp() { # NAME
	for dir in down up; do
		r=; [ $dir = down ] && r=-R
		iperf_bg "$1.tcp_$dir" 1 4 $r
		wait $IPERF_PID
		iperf_check "$1.tcp_$dir" 2
	done
}
# join NAME KEY_MGMT IEEE80211W WANT_KEY_MGMT: station 1 joins and carries traffic
join() {
	t=$(T)
	wpas_start 1 "$(wpa_body "$2" "$3")"
	if wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1 && wait_for 5 airq_has_sta "$STA1"; then
		st=$(wpa 1 status)
		km=$(echo "$st" | sed -n 's/^key_mgmt=//p') pc=$(echo "$st" | sed -n 's/^pairwise_cipher=//p')
		d="COMPLETED in $(since "$t")s: key_mgmt=$km pairwise=$pc $(echo "$st" | grep -E '^pmf=' | tr '\n' ' ')"
		if [ "$km" = "$4" ] && [ "$pc" = CCMP ]; then result "$1.associated" pass "$d"
		else result "$1.associated" fail "$d, want $4 CCMP"; fi
	else
		result "$1.associated" fail "station 1: $(wpas_state 1)"
		return 1
	fi
	g=$(ctl station get "$STA1" 2>&1)
	echo "$g" >"$LOGS/$S-airqctl-station-$1.log"
	mfp=$(echo "$g" | sed -n 's/^[[:space:]]*MFP:[[:space:]]*//p') igtk=$(stat_of igtk_installed)
	check "$1.mfp" "station get MFP: ${mfp:-none}; igtk_installed=${igtk:-0}" sh -c "[ '$mfp' = yes ] && [ '${igtk:-0}' -ge 1 ]"
	pings "$1.ping_up" 1 up 10
	pings "$1.ping_down" 1 down 10
	tcp "$1"
}

modprobe aesni_intel >/dev/null 2>&1
station_and_injector

log "ieee80211w=1, WPA-PSK"
airqd_with 1 WPA-PSK
iperf_servers 1 || result setup fail "iperf3 server"
join w1 WPA-PSK 1 WPA2-PSK
wpas_stop
airq_down

log "ieee80211w=2, WPA-PSK-SHA256"
airqd_with 2 WPA-PSK-SHA256
join w2 WPA-PSK-SHA256 2 WPA2-PSK-SHA256 || finish

log "the attacker's unprotected management frames"
disc0=$(grep -c "AP-STA-DISCONNECTED addr=$STA1" "$AIRQD_LOG")
de0=$(stat_of rx_mgmt_unprotected_deauth) di0=$(stat_of rx_mgmt_unprotected_disassoc) ak0=$(stat_of auth_kept_assoc)
cb0=$(stat_of assoc_comeback) kp0=$(stat_of sa_query_kept)
ok=true
for spec in "$BSSID $STA1 deauth 10" "$BSSID $STA1 disassoc 10" "$BSSID $STA1 auth 10" \
	"$STA1 $BSSID deauth 10" "$STA1 $BSSID disassoc 10" "$STA1 $BSSID auth 10" "$STA1 $BSSID assoc 3"; do
	set -- $spec
	f=$LOGS/$S-inject-$3-from-$([ "$1" = "$BSSID" ] && echo ap || echo sta).log
	e2einject mgmt -ifname fmon0 -ta "$1" -ra "$2" -bssid "$BSSID" -kind "$3" -ssid "$SSID" -akm 6 -n "$4" -interval 100ms >"$f" 2>&1
	[ "$(sent_of "$f")" = "$4" ] && [ "$(errors_of "$f")" = 0 ] || ok=false
	echo "$3 from $1 to $2: $(grep SUMMARY "$f")"
done
check attack.injected "63 frames: $(cat "$LOGS"/$S-inject-*.log | grep -c SUMMARY) runs" $ok
sleep 2
de=$(delta "$(stat_of rx_mgmt_unprotected_deauth)" "$de0") di=$(delta "$(stat_of rx_mgmt_unprotected_disassoc)" "$di0")
ak=$(delta "$(stat_of auth_kept_assoc)" "$ak0") cb=$(delta "$(stat_of assoc_comeback)" "$cb0") kp=$(delta "$(stat_of sa_query_kept)" "$kp0")
check attack.counted "rx_mgmt_unprotected_deauth +$de, _disassoc +$di, auth_kept_assoc +$ak (of 10 each), assoc_comeback +$cb, sa_query_kept +$kp; sa_query_answered=$(stat_of sa_query_answered)" \
	sh -c "$(at_least90 "$de" 10 && at_least90 "$di" 10 && at_least90 "$ak" 10 && echo true || echo false) && [ $cb -ge 1 ] && [ $kp -ge 1 ]"
st1=$(wpas_state 1)
disc=$(grep -c "AP-STA-DISCONNECTED addr=$STA1" "$AIRQD_LOG")
check attack.undisturbed "station $st1, associated at airqd: $(airq_has_sta "$STA1" && echo yes || echo no), AP-STA-DISCONNECTED $disc0 -> $disc; station log: $(grep -c 'CTRL-EVENT-DISCONNECTED' "$LOGS/$S-wpas1.log") disconnections" \
	sh -c "[ '$st1' = COMPLETED ] && [ '$disc' = '$disc0' ] && $(airq_has_sta "$STA1" && echo true || echo false)"
pings attack.ping_up 1 up 10
pings attack.ping_down 1 down 10

log "wpa_supplicant killed and started again"
to0=$(stat_of sa_query_timed_out) disc0=$(grep -c "AP-STA-DISCONNECTED addr=$STA1" "$AIRQD_LOG")
kill -KILL "$(wpas_pid 1)"
wait_for 5 gone "$(wpas_pid 1)"
mv "$LOGS/$S-wpas1.log" "$LOGS/$S-wpas1-w2.log"
t=$(T)
wpas_start 1 "$(wpa_body WPA-PSK-SHA256 2)"
if wait_for 30 wpas_completed 1 && wait_for 5 airq_has_sta "$STA1"; then back="COMPLETED again in $(since "$t")s"; else back="not back: $(wpas_state 1)"; fi
why=$(grep "AP-STA-DISCONNECTED addr=$STA1" "$AIRQD_LOG" | tail -n +$((disc0 + 1)) | sed -n 's/.*why=//p' | tr '\n' ' ')
check restart.back "$back; airqd's disconnections since: ${why:-none}; sa_query_timed_out +$(delta "$(stat_of sa_query_timed_out)" "$to0")" \
	wpas_completed 1
pings restart.ping_up 1 up 5

log "the station reconnects without its old keys"
to0=$(stat_of sa_query_timed_out) cb0=$(stat_of assoc_comeback) de0=$(stat_of rx_mgmt_unprotected_deauth)
ak0=$(stat_of auth_kept_assoc) disc0=$(grep -c "AP-STA-DISCONNECTED addr=$STA1" "$AIRQD_LOG")
t=$(T)
wpa 1 reassociate >/dev/null
usleep 500000
if wait_for 30 wpas_completed 1 && wait_for 5 airq_has_sta "$STA1"; then back="COMPLETED again in $(since "$t")s"; else back="not back: $(wpas_state 1)"; fi
to=$(delta "$(stat_of sa_query_timed_out)" "$to0") cb=$(delta "$(stat_of assoc_comeback)" "$cb0")
de=$(delta "$(stat_of rx_mgmt_unprotected_deauth)" "$de0") ak=$(delta "$(stat_of auth_kept_assoc)" "$ak0")
why=$(grep "AP-STA-DISCONNECTED addr=$STA1" "$AIRQD_LOG" | tail -n +$((disc0 + 1)) | sed -n 's/.*why=//p' | tr '\n' ' ')
check reconnect.back "$back; rx_mgmt_unprotected_deauth +$de, auth_kept_assoc +$ak, assoc_comeback +$cb, sa_query_timed_out +$to; airqd's disconnections since: ${why:-none}" \
	sh -c "$(wpas_completed 1 && echo true || echo false) && [ $to -ge 1 ] && [ $cb -ge 1 ]"
pings reconnect.ping_up 1 up 5
pings reconnect.ping_down 1 down 5
wpas_stop
mv "$LOGS/$S-wpas1.log" "$LOGS/$S-wpas1-restart.log"

log "a station without PMF against ieee80211w=2"
wpas_start 1 "$(wpa_body "WPA-PSK-SHA256 WPA-PSK" 0)"
sleep 15
why=$(grep -m1 -E 'status_code=31|no mgmt frame protection enabled but AP requires it' "$LOGS/$S-wpas1.log" | cut -d' ' -f2-)
check nonpmf.refused "state $(wpas_state 1) after 15 s; ${why:-no refusal in its log}" \
	sh -c "[ '$(wpas_state 1)' != COMPLETED ] && [ -n '$why' ]"
wpas_stop
FMON=$(cat /sys/class/net/fmon0/address)
e2einject join -ifname fmon0 -ta "$FMON" -bssid "$BSSID" -ssid "$SSID" -akm 6 -no-mfpc >"$LOGS/$S-join-nompfc.log" 2>&1
j=$(grep SUMMARY "$LOGS/$S-join-nompfc.log")
check nonpmf.status31 "from $FMON, RSNE without MFPC: ${j:-no summary: $(tail -1 "$LOGS/$S-join-nompfc.log")}" \
	sh -c "echo '$j' | grep -q 'auth=0 assoc=31 '"
ctl status >"$LOGS/$S-airqctl-status.log" 2>&1
echo "counters: $(grep -E '^(rx_mgmt_|sa_query_|assoc_comeback|auth_kept_assoc|igtk_installed)' "$LOGS/$S-airqctl-status.log" | tr '\n' ' ')"
airq_down
finish
