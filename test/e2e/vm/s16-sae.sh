#!/bin/sh
# s16-sae: WPA3-Personal with unmodified wpa_supplicant. airqd runs SAE
# (its worker off the core's loop), AKM 8's 4-way handshake and CCMP
# itself; the stations' mac80211 encrypts as with any AP. Debian's
# wpa_supplicant 2.10 takes sae_pwe as a global setting.
#
# Radios: wlan0 = airqd, wlan1 = station 1, wlan2 = station 2.
#
# Checks (airqd with sae_pwe=2, sae_groups=19 20, ieee80211w=2):
#   hnp19.associated / h2e20.associated  station 1 with sae_pwe=0 and group
#                                        19, station 2 with sae_pwe=1 and
#                                        group 20: COMPLETED, key_mgmt SAE
#   <name>.airqctl                       airqctl station get: akm SAE, the
#                                        group and the method
#   <name>.ping_up / ping_down           10 pings each way, 0% loss
#   h2e20.tcp_down / tcp_up              group 20: iperf3 TCP 2 s each
#                                        way, >= 2 Mbit/s
#   pmksa.reconnect / pmksa.ping_up      station 1 disconnects and reconnects
#                                        without a restart: its PMKSA is used
#                                        (sae_pmksa_hits counted, no new SAE
#                                        exchange), 5 pings up
#   wrong.refused                        station 2 with a wrong password never
#                                        COMPLETED
#   wrong.logged / wrong.counted         airqd logs "SAE authentication
#                                        failed ... wrong password likely";
#                                        sae_confirm_mismatch counted
#   transition.psk / transition.sae      airqd restarted with
#                                        wpa_key_mgmt=WPA-PSK SAE and
#                                        ieee80211w=1: a WPA-PSK-only station
#                                        and an SAE station COMPLETED at once,
#                                        pings both ways for each
# timeout: 420
. /e2e/lib.sh

PASS="airq e2e sae password"
PSK_PASS="airq e2e passphrase"
conf() { # FILE LINES: airqd's configuration, mode 0600
	umask 077
	printf 'wpa=2\nrsn_pairwise=CCMP\n%s' "$2" >"$1"
	umask 022
}
stat_of() { ctl status 2>/dev/null | sed -n "s/^$1=//p"; }

# sae_start I SAE_PWE GROUP PASSWORD: wpa_supplicant for station I with
# SAE, its global sae_pwe and sae_groups
sae_start() {
	printf 'ctrl_interface=/run/wpas%s\nsae_pwe=%s\nsae_groups=%s\nnetwork={\n\tssid="%s"\n\tkey_mgmt=SAE\n\tsae_password="%s"\n\tieee80211w=2\n\tproto=RSN\n\tpairwise=CCMP\n\tgroup=CCMP\n\tscan_freq=%s\n}\n' \
		"$1" "$2" "$3" "$SSID" "$4" "$FREQ" >"/tmp/$S-wpas$1.conf"
	nsenter -F -t "$(sta_pid "$1")" -n wpa_supplicant -i "wlan$1" -D nl80211 -c "/tmp/$S-wpas$1.conf" \
		-t -d -f "$LOGS/$S-wpas$1.log" &
	eval "WPAS_$1=$!"
	register $!
}

# joined NAME I WANT_KEY_MGMT [GROUP METHOD]: the station completed, shows
# in airqctl as it should, and pings both ways
joined() {
	t=$(T)
	if wait_for 60 wpas_completed "$2" && wait_for 5 sta_linked "$2"; then
		km=$(wpa "$2" status | sed -n 's/^key_mgmt=//p')
		check "$1.associated" "COMPLETED in $(since "$t")s: key_mgmt=$km" test "$km" = "$3"
	else
		result "$1.associated" fail "station $2: $(wpas_state "$2")"
		return
	fi
	g=$(ctl station get "$(sta_mac "$2")" 2>&1)
	echo "$g" >"$LOGS/$S-airqctl-station-$1.log"
	akm=$(echo "$g" | sed -n 's/^[[:space:]]*akm:[[:space:]]*//p')
	grp=$(echo "$g" | sed -n 's/^[[:space:]]*sae group:[[:space:]]*//p')
	mth=$(echo "$g" | sed -n 's/^[[:space:]]*sae method:[[:space:]]*//p')
	if [ -n "${4:-}" ]; then
		check "$1.airqctl" "akm=$akm group=$grp method=$mth" \
			sh -c "[ '$akm' = SAE ] && [ '$grp' = '$4' ] && [ '$mth' = '$5' ]"
	else
		check "$1.airqctl" "akm=$akm" test "$akm" = WPA-PSK
	fi
	pings "$1.ping_up" "$2" up 10
	pings "$1.ping_down" "$2" down 10
}

log "radios"
ap_radios 3 || { result setup fail "mac80211_hwsim radios=3"; finish; }
for i in 1 2; do sta_init $i || { result setup fail "station $i namespace"; finish; }; done
conf /tmp/$S.conf "wpa_key_mgmt=SAE
ieee80211w=2
sae_password=$PASS
sae_groups=19 20
sae_pwe=2
"
AIRQD_EXTRA="-config /tmp/$S.conf"
if airq_up airqd; then result airqd_ready pass "airqd pid $AIRQD_PID with wpa_key_mgmt=SAE"
else result airqd_ready fail "airqd -config (SAE) not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"; finish; fi

log "SAE: hunting and pecking, group 19; hash-to-element, group 20"
sae_start 1 0 19 "$PASS"
joined hnp19 1 SAE 19 hunting-and-pecking

log "reconnect with the PMKSA"
a0=$(stat_of sae_accepted) h0=$(stat_of sae_pmksa_hits)
wpa 1 disconnect >/dev/null
wait_for 10 sta_unlinked 1
wpa 1 reconnect >/dev/null
if wait_for 30 wpas_completed 1 && wait_for 5 sta_linked 1; then
	a=$(stat_of sae_accepted) h=$(stat_of sae_pmksa_hits)
	auth=$(grep -o 'SME: Trying to authenticate.*\|PMKSA caching was used\|Try to use PMKSA' "$LOGS/$S-wpas1.log" | tail -2 | tr '\n' ' ')
	check pmksa.reconnect "sae_accepted $a0 -> $a, sae_pmksa_hits $h0 -> $h; wpa_supplicant: $auth" \
		sh -c "[ '$a' = '$a0' ] && [ '${h:-0}' -gt '${h0:-0}' ]"
	pings pmksa.ping_up 1 up 5
else
	result pmksa.reconnect fail "station 1 after reconnect: $(wpas_state 1)"
fi
sae_start 2 1 20 "$PASS"
joined h2e20 2 SAE 20 hash-to-element
# group 20's CCMP carries TCP both ways as group 19's does (s16-sae-matrix)
iperf_servers 2 || result setup fail "iperf3 server"
for dir in down up; do
	r=
	[ $dir = down ] && r=-R
	iperf_bg "h2e20.tcp_$dir" 2 2 $r
	wait $IPERF_PID
	iperf_check "h2e20.tcp_$dir" 2
done
stop "$(wpas_pid 2)"

log "wrong password"
mm0=$(stat_of sae_confirm_mismatch)
sae_start 2 0 19 "not the password"
completed=no
end=$(awk -v a="$(T)" 'BEGIN{print a + 12}')
while [ "$(awk -v e="$end" -v b="$(T)" 'BEGIN{print (b > e)}')" = 0 ]; do
	wpas_completed 2 && completed=yes
	usleep 200000
done
check wrong.refused "COMPLETED: $completed; wpa_supplicant: $(grep -m1 -o 'SAE.*status_code=15\|CTRL-EVENT-SSID-TEMP-DISABLED.*' "$LOGS/$S-wpas2.log")" \
	test $completed = no
line=$(grep -m1 'msg="SAE authentication failed".*wrong password likely' "$AIRQD_LOG")
check wrong.logged "${line:-no line}" test -n "$line"
mm=$(stat_of sae_confirm_mismatch)
check wrong.counted "sae_confirm_mismatch $mm0 -> $mm" sh -c "[ '${mm:-0}' -gt '${mm0:-0}' ]"
stop "$(wpas_pid 2)"
stop "$(wpas_pid 1)"
ctl status >"$LOGS/$S-airqctl-status.log" 2>&1

log "transition mode: WPA-PSK and SAE on one BSS"
airq_down
conf /tmp/$S-transition.conf "wpa_key_mgmt=WPA-PSK SAE
ieee80211w=1
wpa_passphrase=$PSK_PASS
sae_password=$PASS
sae_pwe=2
"
AIRQD_EXTRA="-config /tmp/$S-transition.conf"
if airq_up airqd-transition; then
	wpas_start 1 "$(printf '\tssid="%s"\n\tkey_mgmt=WPA-PSK\n\tpsk="%s"\n\tproto=RSN\n\tpairwise=CCMP\n\tgroup=CCMP\n\tscan_freq=%s' "$SSID" "$PSK_PASS" "$FREQ")"
	sae_start 2 1 19 "$PASS"
	joined transition.psk 1 WPA2-PSK
	joined transition.sae 2 SAE 19 hash-to-element
else
	result transition.airqd fail "airqd (transition) not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"
fi
ctl status >"$LOGS/$S-airqctl-status-transition.log" 2>&1
finish
