#!/bin/sh
# s17-multibss: two networks on one radio (issue 32) with unmodified
# wpa_supplicant: a WPA2-Personal main network (the first section) and an
# open guest network (bss=guest0, ap_isolate=1), each with its own TAP in
# its own bridge (multibss.sh: br0 with the host's 10.0.0.1, br1 with the
# guest's host 10.0.1.1 in a namespace of its own).
#
# Radios: wlan0 = airqd, wlan1 = the main network's station (10.0.0.11),
# wlan2 and wlan3 = the guest's (10.0.1.12, .13).
#
# Checks:
#   airqd_ready                  airqd up with the two sections, each TAP in
#                                its section's bridge
#   staN.associated              each station COMPLETED on its own SSID
#   bssids                       the two networks have two BSSIDs
#   ping_main / ping_guest       station 1 and station 2 ping their own hosts
#                                at the same time, 20 each, 0% loss (and
#                                ping_guest3 for station 3)
#   tcp_down_main / _guest       iperf3 TCP 4 s down, both stations at once,
#   tcp_up_main / _guest         each to its own host, >= 1 Mbit/s each; then up
#   guest_to_main_host           station 2 with a route to 10.0.0.0/24 on its
#   guest_to_main_sta            link and the main side's MACs in its
#                                neighbour table: 5 pings to the host's
#                                10.0.0.1 and to station 1 get no reply and
#                                the target's stack receives none (Icmp
#                                InEchos unchanged)
#   guest_arp_main               ARP requests for 10.0.0.1 and 10.0.0.11 from
#                                the guest get no reply
#   guest_tcp_main               iperf3 from the guest to the host's 10.0.0.1
#                                connects to nothing
#   main_to_guest_sta            the same from station 1 to station 2
#   isolate_unicast              ap_isolate=1: station 3 to station 2 (the same
#   isolate_arp                  BSS) by unicast and by ARP gets nothing
#                                through, station 2's stack receives nothing
#   hup.main_kept                SIGHUP with the guest section changed (its
#                                ssid, ap_isolate=0): station 1 logs no
#                                disconnect, stays COMPLETED, airqd logs no
#                                AP-STA-DISCONNECTED for it
#   hup.main_ping                100 pings from station 1 across the reload,
#                                0% loss
#   hup.guest_restarted          stations 2 and 3 join the renamed guest
#                                network within 30 s
#   hup.guest_ping               station 2 pings its host again
#   hup.isolate_off              with ap_isolate=0 station 3 reaches station
#                                2: the isolation checks' way would have seen
#                                a path
#   hup.section_removed          SIGHUP with the guest section gone: airqd
#                                restarts the radio, the guest's TAP is gone
#   hup.section_added            SIGHUP with it back: the radio restarts with
#                                both, the TAP is back in br1 and the three
#                                stations join again within 45 s
#   hup.readded_main_ping        station 1 and station 2 ping their hosts
#   hup.readded_guest_ping       after it
# timeout: 300
. /e2e/lib.sh
. /e2e/multibss.sh

GUEST_SSID2=airq-e2e-guest2

# The main station's CCMP is software (hwsim has no crypto engine): with
# the CPU's AES instructions (s15-wpa2).
modprobe aesni_intel

log "radios"
ap_radios 4 || { result setup fail "mac80211_hwsim radios=4"; finish; }
side_stations 1 2 3 || { result setup fail "station namespaces"; finish; }
wired_sides >/tmp/$S-why || { result setup fail "bridges br0, br1 and the guest's host: $(cat /tmp/$S-why)"; finish; }
echo "AP $APPHY $BSSID; stations $(sta_mac 1) (main) $(sta_mac 2) $(sta_mac 3) (guest)"

log "airqd with two sections"
airq_conf /tmp/$S.conf "$GUEST_SSID" 1
cp /tmp/$S.conf "$LOGS/$S-airqd.conf.txt"
if airq_multi_up airqd /tmp/$S.conf >/tmp/$S-why; then
	result airqd_ready pass "airqd pid $AIRQD_PID: $TAPIF in br0, $GUEST_IF in br1"
else
	result airqd_ready fail "$(cat /tmp/$S-why) $(grep -v '^+' "$AIRQD_LOG" | tail -3 | tr '\n' ' ')"
	finish
fi
iw dev >"$LOGS/$S-iw-dev.txt" 2>&1
side_servers 1 2 3 || result setup fail "iperf3 servers"

log "stations"
side_wpas 1
side_wpas 2 "$GUEST_SSID2"
side_wpas 3 "$GUEST_SSID2"
all_joined() { joined 1 && joined 2 && joined 3; }
wait_for 45 all_joined
for i in 1 2 3; do
	want=$GUEST_SSID
	[ $i = 1 ] && want=$SSID
	if joined $i && [ "$(wpas_ssid $i)" = "$want" ]; then
		result sta$i.associated pass "ssid $(wpas_ssid $i), bssid $(wpas_bssid $i), $(wpa $i status | sed -n 's/^key_mgmt=//p')"
	else
		result sta$i.associated fail "station $i: $(wpas_state $i) ssid $(wpas_ssid $i), want $want; it sees $(in_sta $i iw dev wlan$i scan dump | grep -E '^BSS|SSID:' | tr '\n\t' '  ')"
		JOIN_FAILED=1
		echo "station $i's wpa_supplicant, last lines on its choice of BSS:"
		grep -E 'skip|reject|Trying to auth|SME:|CTRL-EVENT|selected BSS|No suitable' "$LOGS/$S-wpas$i.log" | tail -n 15
	fi
done
# without its stations the scenario has nothing to measure
[ -z "${JOIN_FAILED:-}" ] || { airq_down; wired_sides_down; finish; }
B1=$(wpas_bssid 1) B2=$(wpas_bssid 2) B3=$(wpas_bssid 3)
check bssids "main $B1, guest $B2 and $B3" sh -c "[ -n '$B1' ] && [ -n '$B2' ] && [ '$B1' != '$B2' ] && [ '$B2' = '$B3' ]"

log "each station to its own host, at the same time"
in_sta 2 ping -c 20 -i 0.2 -W 2 -w 20 "$GUEST_HOST_IP" >"$LOGS/$S-ping-guest.log" 2>&1 &
P2=$!
register $P2
side_pings ping_main 1 20
wait $P2
if ping_ok "$LOGS/$S-ping-guest.log" 20; then result ping_guest pass "station 2 -> $GUEST_HOST_IP: $(pingsum "$LOGS/$S-ping-guest.log")"
else result ping_guest fail "station 2 -> $GUEST_HOST_IP: $(pingsum "$LOGS/$S-ping-guest.log")"; fi
side_pings ping_guest3 3 10

for dir in down up; do
	r=
	[ $dir = down ] && r=-R
	side_iperf tcp_${dir}_main 1 4 $r
	P1=$IPERF_PID
	side_iperf tcp_${dir}_guest 2 4 $r
	wait $P1 $IPERF_PID
	iperf_check tcp_${dir}_main 1
	iperf_check tcp_${dir}_guest 1
done

############################################################################
log "nothing crosses from the guest to the main network"
BR0_MAC=$(cat /sys/class/net/br0/address)
# station 2 treats the main subnet as on its link, with the main side's
# MACs known: its frames go over the air to the guest's BSSID addressed to
# them, and only airqd could carry them across
in_sta 2 ip route add 10.0.0.0/24 dev wlan2
in_sta 2 ip neigh replace 10.0.0.1 lladdr "$BR0_MAC" dev wlan2 nud permanent
in_sta 2 ip neigh replace "$(side_ip 1)" lladdr "$(sta_mac 1)" dev wlan2 nud permanent
# no_echo CHECK I TARGET_IP WHO: 5 pings from station I to TARGET_IP get
# no reply and WHO's stack (echos_of) receives none
no_echo() {
	_e0=$(echos_of "$4") _m0=$(tap_rx "$TAPIF") _g0=$(tap_rx "$GUEST_IF")
	dev_counts >/tmp/$S-dev0
	in_sta "$2" ping -c 5 -i 0.2 -W 1 -w 4 "$3" >"$LOGS/$S-ping-$1.log" 2>&1
	_e1=$(echos_of "$4") _m1=$(tap_rx "$TAPIF") _g1=$(tap_rx "$GUEST_IF")
	dev_counts >/tmp/$S-dev1
	_d="station $2 -> $3: $(pingsum "$LOGS/$S-ping-$1.log"); echo requests received by $4: $((_e1 - _e0)); the kernel took $((_m1 - _m0)) frames from $TAPIF, $((_g1 - _g0)) from $GUEST_IF; airqctl dev: $(dev_delta /tmp/$S-dev0 /tmp/$S-dev1)"
	if grep -q '^5 packets transmitted, 0 packets received' "$LOGS/$S-ping-$1.log" && [ "$_e1" = "$_e0" ]; then
		result "$1" pass "$_d"
	else result "$1" fail "$_d"; fi
}
no_echo guest_to_main_host 2 10.0.0.1 host
no_echo guest_to_main_sta 2 "$(side_ip 1)" 1
# broadcast: ARP requests for the main side's addresses (busybox arping:
# status 0 when a reply came)
arp_none() { ! in_sta "$1" arping -I "wlan$1" -c 3 -w 3 "$2" >>"$LOGS/$S-arping.log" 2>&1; }
guest_arp_main() { arp_none 2 10.0.0.1 && arp_none 2 "$(side_ip 1)"; }
check guest_arp_main "ARP from station 2 for 10.0.0.1 and $(side_ip 1): no reply" guest_arp_main
# TCP: iperf3 from the guest to the main host's server connects to nothing
timeout -s KILL 20 nsenter -F -t "$(sta_pid 2)" -n iperf3 -c 10.0.0.1 -p 5201 -t 2 --connect-timeout 3000 \
	>"$LOGS/$S-iperf3-guest_tcp_main.log" 2>&1
check guest_tcp_main "iperf3 station 2 -> 10.0.0.1:5201: $(grep -m1 'error' "$LOGS/$S-iperf3-guest_tcp_main.log")" \
	sh -c "! grep -q receiver '$LOGS/$S-iperf3-guest_tcp_main.log'"
# and from the main network to the guest's station
in_sta 1 ip route add 10.0.1.0/24 dev wlan1
in_sta 1 ip neigh replace "$(side_ip 2)" lladdr "$(sta_mac 2)" dev wlan1 nud permanent
no_echo main_to_guest_sta 1 "$(side_ip 2)" 2

log "ap_isolate=1: nothing from station 3 to station 2 of the same BSS"
in_sta 3 ip neigh replace "$(side_ip 2)" lladdr "$(sta_mac 2)" dev wlan3 nud permanent
no_echo isolate_unicast 3 "$(side_ip 2)" 2
in_sta 3 ip neigh del "$(side_ip 2)" dev wlan3
check isolate_arp "ARP from station 3 for $(side_ip 2): no reply" arp_none 3 "$(side_ip 2)"
in_sta 3 ip neigh replace "$(side_ip 2)" lladdr "$(sta_mac 2)" dev wlan3 nud permanent

############################################################################
log "SIGHUP with the guest section changed: ssid $GUEST_SSID2, ap_isolate=0"
W1=$(wc -l <"$LOGS/$S-wpas1.log")
A1=$(wc -l <"$AIRQD_LOG")
in_sta 1 ping -c 100 -i 0.1 -W 2 -w 40 "$HOST_IP" >"$LOGS/$S-ping-hup.log" 2>&1 &
PH=$!
register $PH
# let the pings start before the reload
wait_for 5 grep -q 'bytes from' "$LOGS/$S-ping-hup.log"
airq_conf /tmp/$S.conf "$GUEST_SSID2" 0
kill -HUP "$AIRQD_PID"
t0=$(T)
renamed() { joined "$1" && [ "$(wpas_ssid "$1")" = "$GUEST_SSID2" ]; }
if wait_for 30 renamed 2 && wait_for 30 renamed 3; then
	result hup.guest_restarted pass "stations 2 and 3 on $GUEST_SSID2 after $(since "$t0")s (bssid $(wpas_bssid 2))"
else
	result hup.guest_restarted fail "station 2: $(wpas_state 2) $(wpas_ssid 2), station 3: $(wpas_state 3) $(wpas_ssid 3); airqd: $(tail -n +$((A1 + 1)) "$AIRQD_LOG" | grep -iE 'reload|hup|bss' | tail -3 | tr '\n' ' ')"
fi
wait $PH
since_hup() { tail -n +$(($2 + 1)) "$1"; }
disc=$(since_hup "$LOGS/$S-wpas1.log" "$W1" | grep -c 'CTRL-EVENT-DISCONNECTED')
adisc=$(since_hup "$AIRQD_LOG" "$A1" | grep -c "AP-STA-DISCONNECTED.*$(sta_mac 1)")
gdisc=$(since_hup "$AIRQD_LOG" "$A1" | grep -c "AP-STA-DISCONNECTED.*\($(sta_mac 2)\|$(sta_mac 3)\)")
d="station 1: $disc disconnect events, state $(wpas_state 1); airqd: $adisc AP-STA-DISCONNECTED for it, $gdisc for the guest's stations"
if [ "$disc" = 0 ] && [ "$adisc" = 0 ] && wpas_completed 1; then result hup.main_kept pass "$d"
else result hup.main_kept fail "$d"; fi
if ping_ok "$LOGS/$S-ping-hup.log" 100; then result hup.main_ping pass "$(pingsum "$LOGS/$S-ping-hup.log")"
else result hup.main_ping fail "$(pingsum "$LOGS/$S-ping-hup.log")"; fi
side_pings hup.guest_ping 2 10
in_sta 3 ping -c 5 -i 0.2 -W 2 -w 10 "$(side_ip 2)" >"$LOGS/$S-ping-isolate-off.log" 2>&1
if ping_ok "$LOGS/$S-ping-isolate-off.log" 5; then result hup.isolate_off pass "station 3 -> station 2: $(pingsum "$LOGS/$S-ping-isolate-off.log")"
else result hup.isolate_off fail "station 3 -> station 2: $(pingsum "$LOGS/$S-ping-isolate-off.log")"; fi

############################################################################
log "SIGHUP with the guest section removed, then back: the radio restarts"
restarts() { grep -c "reload: the radio restarted with the file's bss= sections" "$AIRQD_LOG"; }
R0=$(restarts)
umask 077
bss_sections "$GUEST_SSID2" 0 | sed '/^bss=/,$d' >/tmp/$S.conf
umask 022
kill -HUP "$AIRQD_PID"
t0=$(T)
tap_gone() { [ "$(restarts)" -gt "$R0" ] && ! [ -e "/sys/class/net/$GUEST_IF" ]; }
if wait_for 30 tap_gone; then result hup.section_removed pass "radio restarted with the first BSS alone after $(since "$t0")s, $GUEST_IF gone"
else result hup.section_removed fail "restarts $(($(restarts) - R0)), $GUEST_IF $(ip -br link show "$GUEST_IF" 2>&1); airqd: $(grep -iE 'reload|restart' "$AIRQD_LOG" | tail -3 | tr '\n' ' ')"; fi
airq_conf /tmp/$S.conf "$GUEST_SSID2" 0
R1=$(restarts)
kill -HUP "$AIRQD_PID"
t0=$(T)
restarted() { [ "$(restarts)" -gt "$R1" ]; }
wait_for 30 restarted
# the TAPs are made anew, down, as at start: up in their bridges as
# airq_multi_up brings them
for _t in "$TAPIF:br0" "$GUEST_IF:br1"; do
	wait_for 5 in_bridge "${_t%%:*}" "${_t#*:}" && ip link set "${_t%%:*}" up
done
all_back() { joined 1 && renamed 2 && renamed 3; }
if restarted && in_bridge "$GUEST_IF" br1 && wait_for 45 all_back; then
	result hup.section_added pass "radio restarted with both sections, the three stations joined after $(since "$t0")s"
else
	result hup.section_added fail "restarts $(($(restarts) - R1)), $GUEST_IF in $(brport_of "$GUEST_IF"); stations: $(wpas_state 1) $(wpas_state 2) $(wpas_state 3); airqd: $(grep -iE 'reload|restart' "$AIRQD_LOG" | tail -3 | tr '\n' ' ')"
fi
side_pings hup.readded_main_ping 1 10
side_pings hup.readded_guest_ping 2 10

ctl status >"$LOGS/$S-status.txt" 2>&1
ctl station dump >"$LOGS/$S-station-dump.txt" 2>&1
airq_down
wired_sides_down
finish
