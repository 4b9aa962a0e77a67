#!/bin/sh
# s16-sae-hostapd: airqd beside hostapd (the kernel's AP mode) with the same
# WPA3-Personal configuration (issue 31): wpa_key_mgmt=SAE, ieee80211w=2,
# group 19, once with sae_pwe=1 (hash-to-element) and once with
# sae_pwe=0 (hunting and pecking), the station's wpa_supplicant with the
# same sae_pwe. One after another on the same two radios.
#
# Per AP and method: RECONNECTS times (disconnect, pmksa_flush so that no
# PMKSA skips SAE, reconnect): the association time (median of
# wpa_supplicant's own RECONNECT -> CTRL-EVENT-CONNECTED) and the AP
# process's CPU per handshake (utime + stime from /proc/PID/stat, clock
# ticks of 10 ms, summed from each reconnect to its CONNECTED, over the
# reconnects). The guest's clock counts instructions, so both repeat.
#
# Checks, for M in h2e and hnp:
#   M.airq / M.hostapd   the AP up, the station connects RECONNECTS times
#   M.assoc              airqd's median <= 2x hostapd's
#   M.cpu                airqd's CPU per handshake <= hostapd's (h2e), <= 2x
#                        hostapd's (hnp: OpenSSL's constant-time
#                        exponentiation is about twice bigmod's speed)
#   M.sae_group          hostapd_cli's STA reply from airqd names the
#                        station's group 19 (sae_group=), as hostapd's does
# timeout: 300
. /e2e/lib.sh

PASS="airq e2e sae side by side"
RECONNECTS=10

one_station
joined() { wpas_completed 1 && sta_linked 1; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# measure NAME PID PWE: RECONNECTS fresh SAE joins against the running AP
# (process PID); sets ASSOC (median s) and CPU (ticks per handshake)
measure() {
	printf 'ctrl_interface=/run/wpas1\nsae_pwe=%s\nnetwork={\n\tssid="%s"\n\tkey_mgmt=SAE\n\tsae_password="%s"\n\tieee80211w=2\n\tproto=RSN\n\tpairwise=CCMP\n\tgroup=CCMP\n\tscan_freq=%s\n}\n' \
		"$3" "$SSID" "$PASS" "$FREQ" >"/tmp/$S-wpas1.conf"
	_log=$LOGS/$S-wpas1-$1.log
	nsenter -F -t "$(sta_pid 1)" -n wpa_supplicant -i wlan1 -D nl80211 -c "/tmp/$S-wpas1.conf" -t -d -f "$_log" &
	WPAS_1=$!
	register $!
	ASSOC= CPU=
	wait_for 60 joined || { result "$1" fail "first join: $(wpas_state 1)"; stop "$WPAS_1"; return 1; }
	_ticks=0
	for _n in $(seq 1 $RECONNECTS); do
		wpa 1 disconnect >/dev/null
		wait_for 10 sta_unlinked 1
		wpa 1 pmksa_flush >/dev/null
		_c0=$(ticks "$2")
		wpa 1 reconnect >/dev/null
		wait_for 30 joined || { result "$1" fail "reconnect $_n: $(wpas_state 1)"; stop "$WPAS_1"; return 1; }
		_ticks=$((_ticks + $(ticks "$2") - _c0))
	done
	ASSOC=$(reconnect_median "$_log")
	sae=$(grep -c 'SME: Trying to authenticate' "$_log")
	CPU=$(awk -v t="$_ticks" -v n=$RECONNECTS 'BEGIN{printf "%.1f", t / n}')
	result "$1" pass "$RECONNECTS fresh SAE joins (pmksa_flush before each): median ${ASSOC}s, ${CPU} ticks of CPU per handshake ($_ticks in all); $sae authentications in wpa_supplicant's log"
}

for m in h2e hnp; do
	pwe=1
	[ $m = hnp ] && pwe=0
	CONF="wpa=2
rsn_pairwise=CCMP
wpa_key_mgmt=SAE
ieee80211w=2
sae_password=$PASS
sae_pwe=$pwe"
	umask 077
	printf '%s\ninterface=wlan0\nctrl_interface=/run/hostapd-airq\n' "$CONF" >/tmp/$S-$m.conf
	umask 022
	log "$m: airqd"
	AIRQD_EXTRA="-config /tmp/$S-$m.conf"
	if airq_up "airqd-$m"; then
		measure "$m.airq" "$AIRQD_PID" $pwe && A_ASSOC=$ASSOC A_CPU=$CPU
		sta=$(hostapd_cli -p /run/hostapd-airq -i wlan0 sta "$STA" 2>&1)
		echo "$sta" >"$LOGS/$S-hostapd-cli-sta-$m.log"
		g=$(echo "$sta" | sed -n 's/^sae_group=//p')
		check "$m.sae_group" "hostapd_cli sta $STA: sae_group=${g:-none}" test "$g" = 19
		stop "$WPAS_1"
		wait_for 10 sta_unlinked 1
	else
		result "$m.airq" fail "airqd not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"
	fi
	airq_down
	log "$m: hostapd"
	H_ASSOC= H_CPU=
	if hostapd_up "hostapd-$m" "$CONF"; then
		measure "$m.hostapd" "$HAPD" $pwe && H_ASSOC=$ASSOC H_CPU=$CPU
		hg=$(hostapd_cli -p /run/hostapd -i wlan0 sta "$STA" 2>&1 | sed -n 's/^sae_group=//p')
		echo "hostapd's STA reply: sae_group=${hg:-none}"
		stop "$WPAS_1"
		wait_for 10 sta_unlinked 1
	else
		result "$m.hostapd" fail "no AP-ENABLED: $(tail -3 "$LOGS/$S-hostapd-$m.log" | tr '\n' ' ')"
	fi
	hostapd_down
	r=$(div "$A_ASSOC" "$H_ASSOC")
	check "$m.assoc" "airqd ${A_ASSOC}s, hostapd ${H_ASSOC}s: ${r}x (want <= 2x)" le "$r" 2
	# a handshake hostapd did in under one tick counts as one tick: the
	# ratio is then a bound
	c=$(awk -v a="$A_CPU" -v h="$H_CPU" 'BEGIN{if (a == "" || h == "") print "n/a"; else printf "%.2f", a / (h > 0 ? h : 1)}')
	lim=1
	[ $m = hnp ] && lim=2
	check "$m.cpu" "airqd ${A_CPU} ticks per handshake, hostapd ${H_CPU}: ${c}x (want <= ${lim}x)" le "$c" $lim
	A_ASSOC= A_CPU=
done
finish
