#!/bin/sh
# s15-wpa2-attack: an attacker radio against a WPA2 network (issue 20).
#
# Radios: wlan0 = airqd (wpa=2), wlan1 = a wpa_supplicant station (WPA-PSK),
# wlan2's phy = the attacker: an active monitor fmon0 from which
# tools/e2einject forges and replays data frames with the station's MAC as
# transmitter and the BSSID as receiver (ToDS). On the host (the TAP's
# 10.0.0.1) "e2einject listen" logs every UDP datagram that arrives on the
# attack's ports: 9997 (plaintext), 9998 (the station's own datagrams,
# which the attacker captures and replays) and 9996 (A-MSDU).
#
# Checks:
#   airqd_ready / associated / ping_before  airqd with wpa=2, the station
#                              COMPLETED (WPA2-PSK, CCMP), 5 pings up
#   plain.injected             40 unprotected data frames (QoS and non-QoS in
#                              turn), each a UDP datagram to 10.0.0.1:9997
#   plain.nothing_through      no datagram reached port 9997
#   plain.counted              rx_unprotected grew by the frames airqd
#                              received (at least 90% of those injected)
#   capture                    while the station sends 20 UDP datagrams to
#                              port 9998 through WPA2, the attacker's monitor
#                              captured its protected data frames (QoS ones
#                              among them)
#   replay.injected            every captured frame injected again, verbatim
#   replay.no_duplicate        port 9998 got each of the 20 datagrams once
#   replay.counted             rx_replayed (plus rx_duplicates: a frame with
#                              the Retry bit that repeats the last one accepted
#                              on its TID counts as a lost ACK's retransmission)
#                              grew by at least 90% of the replays, rx_replayed
#                              by at least one
#   amsdu_plain.injected       20 unprotected A-MSDUs whose first subframe's DA
#                              is an RFC 1042 header (AA AA 03 00 00 00) and
#                              whose second, from the station to the host, is a
#                              UDP datagram to port 9996
#   amsdu_plain.nothing_through  no datagram reached port 9996
#   amsdu_plain.counted        rx_unprotected + rx_amsdu_injected grew by at
#                              least 90% of them (the station has a key, so
#                              airqd drops them as unprotected before it looks
#                              into them)
#   amsdu_flip.injected        the captured CCMP QoS frames again, with the
#                              A-MSDU Present bit set in QoS Control (outside
#                              CCMP's AAD without SPP A-MSDUs: the MIC still
#                              verifies)
#   amsdu_flip.not_through     nothing de-aggregated (rx_amsdu_subframes and
#                              rx_amsdu_injected unchanged), port 9998 still
#                              has 20 datagrams, rx_replayed grew by at least
#                              90% of them: their PNs were accepted before, and
#                              airqd checks the PN before it decrypts. (With a
#                              fresh PN, the original kept from airqd, the frame
#                              would decrypt and fail the RFC 1042 DA check:
#                              ap's TestWPA2AMSDUBitFlipped; hwsim hands every
#                              radio on the channel the same frame, so the
#                              attacker cannot keep one from airqd here.)
#   undisturbed                the station is still COMPLETED and associated
#                              at airqd, never disconnected, 10 pings each way
#                              with 0% loss (ping_after_up / ping_after_down)
# timeout: 300
. /e2e/lib.sh

PASS="airq e2e passphrase"
PORT_PLAIN=9997 PORT_GENUINE=9998 PORT_AMSDU=9996
stat_of() { ctl status 2>/dev/null | sed -n "s/^$1=//p"; }
# rx_on PORT: datagrams the host's listener logged on PORT
rx_on() { grep -c "^RX port=$1 " "$LOGS/$S-listen.log"; }
# sent_of FILE: the sent= figure of an e2einject SUMMARY line
sent_of() { sed -n 's/^SUMMARY sent=\([0-9]*\) .*/\1/p' "$1"; }
errors_of() { sed -n 's/^SUMMARY .*errors=\([0-9]*\).*/\1/p' "$1"; }
# injected NAME FILE N: the result of one injection of N frames
injected() {
	check "$1.injected" "$(grep SUMMARY "$2")" sh -c "[ '$(sent_of "$2")' = '$3' ] && [ '$(errors_of "$2")' = 0 ]"
}
# delta NOW BEFORE
delta() { echo $((${1:-0} - ${2:-0})); }
# at_least90 GOT OF: GOT >= 90% of OF, and OF > 0
at_least90() { [ "$2" -gt 0 ] && [ $(($1 * 10)) -ge $(($2 * 9)) ]; }

modprobe aesni_intel >/dev/null 2>&1
station_and_injector
umask 077
printf 'wpa=2\nwpa_passphrase=%s\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\n' "$PASS" >/tmp/$S.conf
umask 022
AIRQD_EXTRA="-config /tmp/$S.conf"
if airq_up airqd; then result airqd_ready pass "airqd pid $AIRQD_PID with wpa=2"
else result airqd_ready fail "airqd -config (wpa=2) not ready"; finish; fi
HOSTMAC=$(cat "/sys/class/net/$TAPIF/address")
e2einject listen -addr "$HOST_IP" -ports "$PORT_PLAIN,$PORT_GENUINE,$PORT_AMSDU" >"$LOGS/$S-listen.log" 2>&1 &
register $!
wait_for 5 grep -q listening "$LOGS/$S-listen.log" || result setup fail "UDP listener on $HOST_IP"

printf '\tssid="%s"\n\tkey_mgmt=WPA-PSK\n\tpsk="%s"\n\tproto=RSN\n\tpairwise=CCMP\n\tgroup=CCMP\n\tscan_freq=%s' \
	"$SSID" "$PASS" "$FREQ" >/tmp/$S-body
wpas_start 1 "$(cat /tmp/$S-body)"
if wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1 && wait_for 5 airq_has_sta "$STA1"; then
	st=$(wpa 1 status)
	result associated pass "COMPLETED: $(echo "$st" | grep -E '^(key_mgmt|pairwise_cipher)=' | tr '\n' ' ')"
else
	result associated fail "station 1: $(wpas_state 1)"
	finish
fi
pings ping_before 1 up 5
disc0=$(grep -c "AP-STA-DISCONNECTED addr=$STA1" "$AIRQD_LOG")
# inject MODE ARGS...: e2einject MODE on fmon0 in the station's name
inject() { _m=$1; shift; e2einject "$_m" -ifname fmon0 -ta "$STA1" -bssid "$BSSID" "$@"; }

log "a: plaintext data frames in the station's name"
u0=$(stat_of rx_unprotected) w0=$(stat_of rx_to_wired)
inject plain -da "$HOSTMAC" -src "$(sta_ip 1)" -dst "$HOST_IP:$PORT_PLAIN" -n 40 >"$LOGS/$S-inject-plain.log" 2>&1
sleep 1
injected plain "$LOGS/$S-inject-plain.log" 40
n=$(rx_on $PORT_PLAIN) u=$(stat_of rx_unprotected)
check plain.nothing_through "$n datagrams on port $PORT_PLAIN; rx_to_wired $w0 -> $(stat_of rx_to_wired)" test "$n" = 0
du=$(delta "$u" "$u0")
check plain.counted "rx_unprotected $u0 -> $u (+$du for 40 injected)" sh -c "[ $du -le 40 ] && $(at_least90 "$du" 40 && echo true || echo false)"

log "b: replayed CCMP frames"
inject capture -out /tmp/$S.cap -duration 9s >"$LOGS/$S-capture.log" 2>&1 &
cap=$!
register $cap
sleep 2
in_sta 1 e2einject send -dst "$HOST_IP:$PORT_GENUINE" -n 20 -interval 200ms -tag genuine >"$LOGS/$S-send.log" 2>&1
wait $cap
ncap=$(sed -n 's/^SUMMARY captured=\([0-9]*\) .*/\1/p' "$LOGS/$S-capture.log")
nqos=$(sed -n 's/^SUMMARY .*qos=\([0-9]*\).*/\1/p' "$LOGS/$S-capture.log")
g0=$(rx_on $PORT_GENUINE)
check capture "station sent: $(grep SUMMARY "$LOGS/$S-send.log"); the attacker captured ${ncap:-none} protected frames, ${nqos:-0} QoS; host got $g0 datagrams" \
	sh -c "[ '${ncap:-0}' -ge 20 ] && [ '${nqos:-0}' -gt 0 ] && [ '$g0' = 20 ]"
r0=$(stat_of rx_replayed) d0=$(stat_of rx_duplicates) w0=$(stat_of rx_to_wired)
inject replay -in /tmp/$S.cap >"$LOGS/$S-inject-replay.log" 2>&1
sleep 1
injected replay "$LOGS/$S-inject-replay.log" "${ncap:-0}"
g=$(rx_on $PORT_GENUINE) uniq=$(grep "^RX port=$PORT_GENUINE " "$LOGS/$S-listen.log" | sort -u | wc -l)
r=$(stat_of rx_replayed) d=$(stat_of rx_duplicates)
check replay.no_duplicate "port $PORT_GENUINE: $g datagrams, $uniq distinct, after ${ncap:-0} replays; rx_to_wired $w0 -> $(stat_of rx_to_wired)" \
	sh -c "[ '$g' = 20 ] && [ '$uniq' = 20 ]"
dr=$(delta "$r" "$r0") dd=$(delta "$d" "$d0")
check replay.counted "rx_replayed $r0 -> $r (+$dr), rx_duplicates $d0 -> $d (+$dd) for ${ncap:-0} replays" \
	sh -c "[ $dr -ge 1 ] && $(at_least90 $((dr + dd)) "${ncap:-0}" && echo true || echo false)"

log "c: A-MSDUs with an RFC 1042 DA"
u0=$(stat_of rx_unprotected) i0=$(stat_of rx_amsdu_injected) s0=$(stat_of rx_amsdu_subframes)
inject amsdu -da "$HOSTMAC" -src "$(sta_ip 1)" -dst "$HOST_IP:$PORT_AMSDU" -n 20 >"$LOGS/$S-inject-amsdu.log" 2>&1
sleep 1
injected amsdu_plain "$LOGS/$S-inject-amsdu.log" 20
n=$(rx_on $PORT_AMSDU) u=$(stat_of rx_unprotected) i=$(stat_of rx_amsdu_injected) s=$(stat_of rx_amsdu_subframes)
check amsdu_plain.nothing_through "$n datagrams on port $PORT_AMSDU; rx_amsdu_subframes $s0 -> $s" sh -c "[ '$n' = 0 ] && [ '$s' = '$s0' ]"
du=$(delta "$u" "$u0") di=$(delta "$i" "$i0")
check amsdu_plain.counted "rx_unprotected $u0 -> $u (+$du), rx_amsdu_injected $i0 -> $i (+$di) for 20 injected" \
	sh -c "$(at_least90 $((du + di)) 20 && echo true || echo false)"

r0=$(stat_of rx_replayed) d0=$(stat_of rx_duplicates) m0=$(stat_of rx_mic_failure) i0=$(stat_of rx_amsdu_injected) s0=$(stat_of rx_amsdu_subframes)
inject replay -in /tmp/$S.cap -flip-amsdu >"$LOGS/$S-inject-flip.log" 2>&1
sleep 1
injected amsdu_flip "$LOGS/$S-inject-flip.log" "${nqos:-0}"
g=$(rx_on $PORT_GENUINE) r=$(stat_of rx_replayed) d=$(stat_of rx_duplicates) m=$(stat_of rx_mic_failure)
i=$(stat_of rx_amsdu_injected) s=$(stat_of rx_amsdu_subframes)
dr=$(delta "$r" "$r0") dd=$(delta "$d" "$d0")
check amsdu_flip.not_through "${nqos:-0} flipped: rx_replayed $r0 -> $r (+$dr), rx_duplicates +$dd, rx_mic_failure $m0 -> $m, rx_amsdu_injected $i0 -> $i, rx_amsdu_subframes $s0 -> $s; port $PORT_GENUINE: $g" \
	sh -c "[ '$s' = '$s0' ] && [ '$i' = '$i0' ] && [ '$g' = 20 ] && $(at_least90 $((dr + dd)) "${nqos:-0}" && echo true || echo false)"

log "the station after the attack"
st1=$(wpas_state 1)
disc=$(grep -c "AP-STA-DISCONNECTED addr=$STA1" "$AIRQD_LOG")
check undisturbed "station $st1, associated at airqd: $(airq_has_sta "$STA1" && echo yes || echo no), AP-STA-DISCONNECTED $disc0 -> $disc" \
	sh -c "[ '$st1' = COMPLETED ] && [ '$disc' = '$disc0' ] && $(airq_has_sta "$STA1" && echo true || echo false)"
pings ping_after_up 1 up 10
pings ping_after_down 1 down 10
ctl status >"$LOGS/$S-airqctl-status.log" 2>&1
echo "counters: $(grep -E '^(rx_unprotected|rx_replayed|rx_duplicates|rx_mic_failure|rx_undecryptable|rx_amsdu_injected|rx_amsdu_subframes|rx_to_wired)=' "$LOGS/$S-airqctl-status.log" | tr '\n' ' ')"
airq_down
finish
