#!/bin/sh
# s15-wpa2: WPA2-Personal with unmodified wpa_supplicant. airqd runs the
# authenticator and CCMP itself (a monitor interface has no keys); the
# stations' mac80211 encrypts and decrypts as with any AP.
#
# Radios: wlan0 = airqd, wlan1 = station 1 (WPA-PSK), wlan2 = station 2
# (WPA-PSK-SHA256, then the wrong passphrase).
#
# Checks:
#   psk.associated / sha256.associated  COMPLETED, wpa_cli's key_mgmt WPA2-PSK
#                                       and WPA2-PSK-SHA256, CCMP both ciphers
#   <akm>.airqctl                       airqctl station get: authorized, the
#                                       AKM and the cipher
#   <akm>.events                        airqd logged AP-STA-CONNECTED and then
#                                       EAPOL-4WAY-HS-COMPLETED
#   <akm>.ping_up / ping_down           10 pings each way, 0% loss
#   <akm>.tcp_down / tcp_up             iperf3 TCP 4 s, >= 2 Mbit/s
#   broadcast_arp_down / _up            with the neighbour caches flushed, a
#                                       ping resolves the peer by a broadcast
#                                       ARP request (down: a group frame under
#                                       the GTK; up: from the station)
#   wrong.no_data                       station 2 with a wrong passphrase: no
#                                       frame of it reaches the host (its
#                                       address never in the host's
#                                       neighbour table while it pings), the
#                                       station never COMPLETED
#   wrong.cause_logged                  airqd logs the failed handshake with
#                                       "wrong passphrase likely"
#   wrong.counted                       psk_mismatch counted
#   ext.rekeys / ext.no_loss            airqd restarted with extended_key_id=1 and
#                                       wpa_ptk_rekey=4, wpa_supplicant with
#                                       extended_key_id=1: during 12 s of iperf3
#                                       TCP down, 2 PTK rekeys at least, the
#                                       station COMPLETED, no MIC failure and no
#                                       undecryptable frame at airqd
#   psk_file.admitted                   airqd restarted with wpa_psk_file only: a
#                                       line for station 1's MAC (keyid=one) and
#                                       a wildcard line admit station 1 and 2,
#                                       airqctl shows station 1's keyid
#   psk_file.ping_up_N                  3 pings from each, 0% loss
#   open.tcp_down / open.tcp_up         airqd restarted open, station 1 open:
#                                       iperf3 TCP 4 s
#   hostapd-wpa2.* / hostapd-open.*     hostapd (the kernel's AP mode) on the
#                                       same radio, WPA2 then open: iperf3 TCP
#   ratio_tcp_down / ratio_tcp_up       airq's WPA2/open TCP ratio >= 0.8x
#                                       hostapd's (asserted with the counted
#                                       clock only; see the comment there)
#   ratio_hostapd_tcp_down / _up        airq WPA2 >= 0.3x hostapd WPA2
#   rekey.*                             airqd restarted with wpa_group_rekey=5
#                                       and wpa_ptk_rekey=7: iperf3 TCP down
#                                       and up 15 s each carry data, the
#                                       station stays COMPLETED and is never
#                                       disconnected, GTKs installed and PTK
#                                       handshakes counted
# timeout: 420
. /e2e/lib.sh

PASS="airq e2e passphrase"
wpa_body() { # AKM PASSPHRASE
	printf '\tssid="%s"\n\tkey_mgmt=%s\n\tpsk="%s"\n\tproto=RSN\n\tpairwise=CCMP\n\tgroup=CCMP\n\tscan_freq=%s' \
		"$SSID" "$1" "$2" "$FREQ"
}
conf() { # FILE EXTRA-LINES: airqd's configuration, mode 0600
	umask 077
	printf 'wpa=2\nwpa_passphrase=%s\nwpa_key_mgmt=WPA-PSK WPA-PSK-SHA256\nrsn_pairwise=CCMP\n%s' "$PASS" "$2" >"$1"
	umask 022
}
stat_of() { ctl status 2>/dev/null | sed -n "s/^$1=//p"; }

# The stations' mac80211 encrypts in software (hwsim has no crypto
# engine): with the CPU's AES instructions rather than aes_generic's tables,
# which cost several times more under TCG.
modprobe aesni_intel && echo "aes: $(awk '/^name/{n=$3} /^driver/{d=$3} /^priority/ && n=="aes"{print d"("$3")"}' /proc/crypto | tr '\n' ' ')"

log "radios"
ap_radios 3 || { result setup fail "mac80211_hwsim radios=3"; finish; }
for i in 1 2; do sta_init $i || { result setup fail "station $i namespace"; finish; }; done
conf /tmp/$S.conf ""
AIRQD_EXTRA="-config /tmp/$S.conf"
if airq_up airqd; then result airqd_ready pass "airqd pid $AIRQD_PID with wpa=2"
else result airqd_ready fail "airqd -config (wpa=2) not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"; finish; fi
iperf_servers 1 2 || result setup fail "iperf3 servers"

# station NAME I AKM WANT_KEY_MGMT: join and carry traffic
station() {
	t=$(T)
	wpas_start "$2" "$(wpa_body "$3" "$PASS")"
	if wait_for 45 wpas_completed "$2" && wait_for 5 sta_linked "$2"; then
		st=$(wpa "$2" status)
		km=$(echo "$st" | sed -n 's/^key_mgmt=//p') pc=$(echo "$st" | sed -n 's/^pairwise_cipher=//p') gc=$(echo "$st" | sed -n 's/^group_cipher=//p')
		d="COMPLETED in $(since "$t")s: key_mgmt=$km pairwise=$pc group=$gc"
		if [ "$km" = "$4" ] && [ "$pc" = CCMP ] && [ "$gc" = CCMP ]; then result "$1.associated" pass "$d"
		else result "$1.associated" fail "$d, want $4 CCMP CCMP"; fi
	else
		result "$1.associated" fail "station $2: $(wpas_state "$2")"
		return
	fi
	g=$(ctl station get "$(sta_mac "$2")" 2>&1)
	echo "$g" >"$LOGS/$S-airqctl-station-$1.log"
	akm=$(echo "$g" | sed -n 's/^[[:space:]]*akm:[[:space:]]*//p') ciph=$(echo "$g" | sed -n 's/^[[:space:]]*pairwise cipher:[[:space:]]*//p')
	check "$1.airqctl" "akm=$akm cipher=$ciph $(echo "$g" | grep -m1 authorized: | tr -d '\t')" \
		sh -c "[ '$akm' = '$3' ] && [ '$ciph' = CCMP ] && echo '$g' | grep -q 'authorized:[[:space:]]*yes'"
	mac=$(sta_mac "$2")
	c=$(grep -n "AP-STA-CONNECTED addr=$mac" "$AIRQD_LOG" | head -1 | cut -d: -f1)
	e=$(grep -n "EAPOL-4WAY-HS-COMPLETED addr=$mac" "$AIRQD_LOG" | head -1 | cut -d: -f1)
	check "$1.events" "AP-STA-CONNECTED at log line ${c:-none}, EAPOL-4WAY-HS-COMPLETED at ${e:-none}" \
		sh -c "[ -n '$c' ] && [ -n '$e' ] && [ '$c' -lt '$e' ]"
	pings "$1.ping_up" "$2" up 10
	pings "$1.ping_down" "$2" down 10
	tcp "$1" "$2"
}

# tcp NAME I: iperf3 TCP 4 s down and up for station I, with airqd's CPU
# ticks (10 ms) over each run
tcp() {
	for dir in down up; do
		r=; [ $dir = down ] && r=-R
		c0=$(proc_ticks "$AIRQD_PID")
		iperf_bg "$1.tcp_$dir" "$2" 4 $r
		wait $IPERF_PID
		echo "airqd cpu ticks (user sys) over $1.tcp_$dir: $c0 -> $(proc_ticks "$AIRQD_PID")"
		iperf_check "$1.tcp_$dir" 2
	done
}

log "WPA-PSK"
station psk 1 WPA-PSK WPA2-PSK
log "WPA-PSK-SHA256"
station sha256 2 WPA-PSK-SHA256 WPA2-PSK-SHA256

log "broadcast ARP"
ip neigh flush dev "$TAPIF"
pings broadcast_arp_down 1 down 3
in_sta 1 ip neigh flush dev wlan1
pings broadcast_arp_up 1 up 3
stop "$(wpas_pid 2)"

log "wrong passphrase"
ip neigh flush dev "$TAPIF"
rx0=$(stat_of rx_to_wired) mm0=$(stat_of psk_mismatch)
wpas_start 2 "$(wpa_body WPA-PSK "not the passphrase")"
in_sta 2 ping -c 40 -i 0.25 -W 1 "$HOST_IP" >"$LOGS/$S-ping-wrong.log" 2>&1 &
register $!
pid=$!
seen=no completed=no
end=$(awk -v a="$(T)" 'BEGIN{print a + 12}')
while [ "$(awk -v e="$end" -v b="$(T)" 'BEGIN{print (b > e)}')" = 0 ]; do
	ip neigh show | grep -q "$(sta_ip 2) .*lladdr" && seen=yes
	wpas_completed 2 && completed=yes
	usleep 200000
done
stop "$pid"
check wrong.no_data "host neighbour entry for station 2: $seen; COMPLETED: $completed; wpa_supplicant: $(grep -m1 -o 'pre-shared key may be incorrect\|WRONG_KEY' "$LOGS/$S-wpas2.log")" \
	sh -c "[ $seen = no ] && [ $completed = no ]"
line=$(grep -m1 'msg="4-way handshake failed".*wrong passphrase likely' "$AIRQD_LOG")
check wrong.cause_logged "${line:-no line}" test -n "$line"
mm=$(stat_of psk_mismatch)
check wrong.counted "psk_mismatch $mm0 -> $mm, rx_to_wired $rx0 -> $(stat_of rx_to_wired)" sh -c "[ '${mm:-0}' -gt '${mm0:-0}' ]"
stop "$(wpas_pid 2)"

log "rekeys under iperf3"
airq_down
conf /tmp/$S-rekey.conf "wpa_group_rekey=5
wpa_ptk_rekey=7
"
AIRQD_EXTRA="-config /tmp/$S-rekey.conf"
if airq_up airqd-rekey && wait_for 45 wpas_completed 1 && wait_for 10 airq_has_sta "$(sta_mac 1)"; then
	result rekey.reconnected pass "station 1 back under airqd with wpa_group_rekey=5 wpa_ptk_rekey=7"
	g0=$(stat_of gtk_installed) h0=$(stat_of handshakes_completed)
	d0=$(grep -c "AP-STA-DISCONNECTED addr=$(sta_mac 1)" "$AIRQD_LOG")
	for dir in down up; do
		r=; [ $dir = down ] && r=-R
		iperf_bg "rekey.tcp_$dir" 1 15 $r
		wait $IPERF_PID
		iperf_check "rekey.tcp_$dir" 1
	done
	g=$(stat_of gtk_installed) h=$(stat_of handshakes_completed)
	d=$(grep -c "AP-STA-DISCONNECTED addr=$(sta_mac 1)" "$AIRQD_LOG")
	check rekey.gtk "GTKs installed $g0 -> $g in 30 s" sh -c "[ '${g:-0}' -ge $((${g0:-0} + 4)) ]"
	check rekey.ptk "4-way handshakes $h0 -> $h in 30 s" sh -c "[ '${h:-0}' -ge $((${h0:-0} + 3)) ]"
	st1=$(wpas_state 1)
	check rekey.connected "station 1 $st1; AP-STA-DISCONNECTED $d0 -> $d" sh -c "[ '$d' = '$d0' ] && [ '$st1' = COMPLETED ]"
else
	result rekey.reconnected fail "station 1: $(wpas_state 1)"
fi
ctl status >"$LOGS/$S-airqctl-status.log" 2>&1
ctl station dump >"$LOGS/$S-airqctl-station-dump.log" 2>&1

log "PTK rekeys with Extended Key ID"
stop "$(wpas_pid 1)"
airq_down
conf /tmp/$S-ext.conf "extended_key_id=1
wpa_ptk_rekey=4
"
AIRQD_EXTRA="-config /tmp/$S-ext.conf"
if airq_up airqd-ext; then
	printf 'ctrl_interface=/run/wpas1\nextended_key_id=1\nnetwork={\n%s\n}\n' "$(wpa_body WPA-PSK "$PASS")" >/tmp/$S-wpas1-ext.conf
	nsenter -F -t "$(sta_pid 1)" -n wpa_supplicant -i wlan1 -D nl80211 -c /tmp/$S-wpas1-ext.conf -t -d -f "$LOGS/$S-wpas1-ext.log" &
	WPAS_1=$!
	register $!
	if wait_for 45 wpas_completed 1 && wait_for 10 airq_has_sta "$(sta_mac 1)"; then
		h0=$(stat_of handshakes_completed) m0=$(stat_of rx_mic_failure) u0=$(stat_of rx_undecryptable)
		iperf_bg ext.tcp_down 1 12 -R
		wait $IPERF_PID
		iperf_check ext.tcp_down 1
		h=$(stat_of handshakes_completed) m=$(stat_of rx_mic_failure) u=$(stat_of rx_undecryptable)
		kid=$(grep -c 'RSN: Using Extended Key ID 1' "$LOGS/$S-wpas1-ext.log")
		st1=$(wpas_state 1)
		check ext.rekeys "4-way handshakes $h0 -> $h in 12 s, station $st1, wpa_supplicant used Extended Key ID 1 $kid times" \
			sh -c "[ '${h:-0}' -ge $((${h0:-0} + 2)) ] && [ '$st1' = COMPLETED ] && [ '$kid' -gt 0 ]"
		check ext.no_loss "rx_mic_failure $m0 -> $m, rx_undecryptable $u0 -> $u across the rekeys" \
			sh -c "[ '$m' = '$m0' ] && [ '$u' = '$u0' ]"
	else
		result ext.associated fail "station 1 with extended_key_id=1: $(wpas_state 1)"
	fi
else
	result ext.airqd_ready fail "airqd -config (extended_key_id=1) not ready"
fi

log "wpa_psk_file: a per-station and a wildcard PSK"
stop "$(wpas_pid 1)"
airq_down
umask 077
printf '# hostapd.wpa_psk\nkeyid=one %s station one passphrase\n00:00:00:00:00:00 wildcard passphrase\n' "$(sta_mac 1)" >/tmp/$S.psk
printf 'wpa=2\nwpa_psk_file=/tmp/%s.psk\nwpa_key_mgmt=WPA-PSK WPA-PSK-SHA256\n' "$S" >/tmp/$S-pskfile.conf
umask 022
AIRQD_EXTRA="-config /tmp/$S-pskfile.conf"
if airq_up airqd-pskfile; then
	wpas_start 1 "$(wpa_body WPA-PSK "station one passphrase")"
	wpas_start 2 "$(wpa_body WPA-PSK-SHA256 "wildcard passphrase")"
	ok=yes
	wait_for 45 wpas_completed 1 || ok=no
	wait_for 45 wpas_completed 2 || ok=no
	k=$(ctl station get "$(sta_mac 1)" 2>/dev/null | sed -n 's/^[[:space:]]*psk keyid:[[:space:]]*//p')
	check psk_file.admitted "station 1 (its own line) $(wpas_state 1) keyid=${k:-none}, station 2 (the wildcard) $(wpas_state 2)" \
		sh -c "[ $ok = yes ] && [ '$k' = one ]"
	pings psk_file.ping_up_1 1 up 3
	pings psk_file.ping_up_2 2 up 3
	stop "$(wpas_pid 2)"
else
	result psk_file.airqd_ready fail "airqd -config (wpa_psk_file) not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"
fi

log "the same station on the open network"
stop "$(wpas_pid 1)"
airq_down
AIRQD_EXTRA=
if airq_up airqd-open; then
	wpas_start 1
	if wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1; then
		tcp open 1
	else
		result open.associated fail "station 1 (open): $(wpas_state 1)"
	fi
else
	result open.airqd_ready fail "airqd (open) not ready"
fi
stop "$(wpas_pid 1)"
airq_down
wait_for 10 sh -c "! ip link show $MONIF" 2>/dev/null

# hostapd NAME WPA-LINES STATION-BODY: hostapd (the kernel's AP mode) on the
# AP's radio with the same SSID and channel, station 1 joined, iperf3 TCP
# 4 s down and up (NAME.tcp_*)
hostapd_run() {
	iw phy "$APPHY" interface add wlan0 type managed
	umask 077
	printf 'interface=wlan0\ndriver=nl80211\nssid=%s\nhw_mode=g\nchannel=%s\nwmm_enabled=1\n%s' \
		"$SSID" "$CHANNEL" "$2" >"/tmp/$S-$1.conf"
	umask 022
	hostapd -t -d "/tmp/$S-$1.conf" >"$LOGS/$S-$1.log" 2>&1 &
	HAPD=$!
	register $HAPD
	if wait_for 30 sh -c "grep -q 'AP-ENABLED' $LOGS/$S-$1.log" && ip addr add "$HOST_IP/24" dev wlan0; then
		wpas_start 1 "$3"
		if wait_for 45 wpas_completed 1; then
			for dir in down up; do
				r=; [ $dir = down ] && r=-R
				iperf_bg "$1.tcp_$dir" 1 4 $r
				wait $IPERF_PID
				iperf_check "$1.tcp_$dir" 2
			done
		else
			result "$1.associated" fail "station 1 with hostapd: $(wpas_state 1)"
		fi
		stop "$(wpas_pid 1)"
	else
		result "$1.ap_up" fail "no AP-ENABLED: $(tail -3 "$LOGS/$S-$1.log" | tr '\n' ' ')"
	fi
	stop "$HAPD"
	wait_for 5 link_exists wlan0 && iw dev wlan0 del
}
log "hostapd with the same WPA2 network, then open"
hostapd_run hostapd-wpa2 "wpa=2
wpa_passphrase=$PASS
wpa_key_mgmt=WPA-PSK WPA-PSK-SHA256
rsn_pairwise=CCMP
" "$(wpa_body WPA-PSK "$PASS")"
hostapd_run hostapd-open "" "$(wpas_body "$FREQ")"

# The ratios. Under TCG the stations' software CCMP and airqd's run on the
# one emulated vCPU and cost far more than on hardware, the same for both
# APs: WPA2 must cost airq, against its open figure, no more than it costs
# the kernel's AP (floor 0.8 of hostapd's WPA2/open ratio); and airq's WPA2
# must reach 0.3 of hostapd's WPA2, s9's floor for the open network.
mbits() { set -- $(iperf_sum "$1"); echo "$1"; }
for dir in down up; do
	aw=$(mbits psk.tcp_$dir) ao=$(mbits open.tcp_$dir) hw=$(mbits hostapd-wpa2.tcp_$dir) ho=$(mbits hostapd-open.tcp_$dir)
	ar=$(div "$aw" "$ao") hr=$(div "$hw" "$ho") n=$(div "$(div "$aw" "$ao")" "$(div "$hw" "$ho")")
	d="airq WPA2/open $aw/$ao = $ar; hostapd WPA2/open $hw/$ho = $hr; airq's over hostapd's $n (floor 0.8)"
	x=$(div "$aw" "$hw")
	dh="airq $aw Mbit/s / hostapd $hw Mbit/s, both WPA2 = $x (floor 0.3)"
	if figures_asserted; then
		check "ratio_tcp_$dir" "$d" ge "$n" 0.8
		check "ratio_hostapd_tcp_$dir" "$dh" ge "$x" 0.3
	else
		skip "ratio_tcp_$dir" "$d, not asserted with the host's clock"
		skip "ratio_hostapd_tcp_$dir" "$dh, not asserted with the host's clock"
	fi
done
# airq's WPA2 over hostapd's WPA2, same boot, same station and radio
echo "RESULT wpa2_tput_down_ratio=$(div "$(mbits psk.tcp_down)" "$(mbits hostapd-wpa2.tcp_down)") wpa2_tput_up_ratio=$(div "$(mbits psk.tcp_up)" "$(mbits hostapd-wpa2.tcp_up)")"
grep -E '^(rx_unprotected|rx_undecryptable|rx_replayed|rx_mic_failure|eapol_|handshakes_|psk_mismatch|gtk_installed)' "$LOGS/$S-airqctl-status.log" | tr '\n' ' '; echo
if grep -q "$PASS" "$LOGS"/$S-airqd*.log "$LOGS/$S-airqctl-status.log" "$LOGS/$S-airqctl-station-dump.log"; then
	result secret_hidden fail "the passphrase appears in airqd's log or airqctl's output"
else
	result secret_hidden pass "the passphrase appears in no airqd log and no airqctl output"
fi
airq_down
finish
