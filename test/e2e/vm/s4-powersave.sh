#!/bin/sh
# s4-powersave: a station in power save ("iw dev wlan1 set power_save on").
#
# mac80211_hwsim never really dozes a radio, so delivery alone proves little:
# the evidence comes from the air. e2esniff reads hwsim0 (every frame any
# simulated radio sends) and logs the station's Null frames with their PM bit,
# its PS-Polls, and every beacon whose TIM lists an AID.
#
# Checks:
#   associated       station 1 ("iw connect") is associated
#   ps_on            "iw dev wlan1 get power_save" says on
#   dozed            the station sent a Null frame with PM=1 (it told airqd it
#                    dozes; mac80211 does this after 100 ms without traffic)
#   ping_down_slow   20 pings host -> station, 0.5 s apart (the station dozes
#                    between them), 0% loss: nothing lost across doze/wake
#   tim_announced    at least one beacon's TIM listed the station's AID (airqd
#                    buffered a frame and announced it)
#   woke_for_tim     the station woke for it: a PS-Poll or a Null frame with
#                    PM=0 followed a TIM that listed its AID
#   ping_up_slow     10 pings station -> host, 0.5 s apart, 0% loss
#   tcp_down/tcp_up  iperf3 TCP 3 s each way with power save on, >= 1 Mbit/s
#                    (MSS 1200: this is about power save, s3 covers full-size
#                    frames)
#   still_ps         power save is still on at the end and the station dozed
#                    again after the traffic (another PM=1 Null)
# timeout: 150
. /e2e/lib.sh

one_station
ip link set hwsim0 up
e2esniff -i hwsim0 -sta "$STA" >"$LOGS/$S-air.log" 2>&1 &
SNIFF=$!
register $SNIFF
wait_for 5 grep -q listening "$LOGS/$S-air.log" || result setup fail "e2esniff on hwsim0: $(head -2 "$LOGS/$S-air.log")"

if airq_up airqd; then result airqd_ready pass "airqd pid $AIRQD_PID"
else result airqd_ready fail "airqd not ready"; finish; fi
iperf_servers 1

iwc 1
if wait_for 20 sta_linked 1 && wait_for 5 airq_has_sta "$STA"; then
	AID=$(ctl station get "$STA" | awk '$1 == "aid:" {print $2}')
	result associated pass "station $STA, aid ${AID:-?}"
else
	result associated fail "$(in_sta 1 iw dev wlan1 link | head -1)"
	finish
fi

in_sta 1 iw dev wlan1 set power_save on
ps=$(in_sta 1 iw dev wlan1 get power_save)
check ps_on "$ps" sh -c "echo '$ps' | grep -q 'Power save: on'"

# air_has PATTERN: the sniffer logged a line matching PATTERN (grep -E)
air_has() { grep -qE "$1" "$LOGS/$S-air.log"; }
if wait_for 10 air_has "null from=$STA .* pm=1"; then
	result dozed pass "$(grep -m1 "null from=$STA .* pm=1" "$LOGS/$S-air.log")"
else
	result dozed fail "no Null frame with PM=1 from $STA within 10 s"
fi

pings ping_down_slow 1 down 20 0.5
# TIM lines listing our AID, and what the station did after the first one
tim_re="beacon .* aids=([0-9,]*,)?$AID(,| |\$)" # e2esniff adds " len=N" after the AIDs
ntim=$(grep -cE "$tim_re" "$LOGS/$S-air.log")
if [ "$ntim" -ge 1 ]; then
	result tim_announced pass "$ntim beacons listed aid $AID, first: $(grep -m1 -E "$tim_re" "$LOGS/$S-air.log" | cut -c1-120)"
else
	result tim_announced fail "no beacon TIM listed aid $AID ($(grep -c ' beacon ' "$LOGS/$S-air.log") beacon lines logged)"
fi
wake=$(awk -v re="$tim_re" -v sta="$STA" '
	$0 ~ re { tim = 1; next }
	tim && ($2 == "pspoll" && $3 == "from=" sta || $2 == "null" && $3 == "from=" sta && / pm=0 /) { print; exit }' "$LOGS/$S-air.log")
if [ -n "$wake" ]; then result woke_for_tim pass "after a TIM with aid $AID: $wake"
else result woke_for_tim fail "no PS-Poll or PM=0 Null from $STA after a TIM listing aid $AID"; fi

pings ping_up_slow 1 up 10 0.5
iperf_bg tcp_down 1 3 -R -M 1200
wait $IPERF_PID
iperf_check tcp_down 1
iperf_bg tcp_up 1 3 -M 1200
wait $IPERF_PID
iperf_check tcp_up 1

n0=$(grep -c "null from=$STA .* pm=1" "$LOGS/$S-air.log")
ps=$(in_sta 1 iw dev wlan1 get power_save)
if echo "$ps" | grep -q 'Power save: on' && wait_for 10 sh -c "[ \$(grep -c 'null from=$STA .* pm=1' $LOGS/$S-air.log) -gt $n0 ]"; then
	result still_ps pass "$ps; dozed again after the traffic"
else
	result still_ps fail "$ps; PM=1 Nulls: $n0 -> $(grep -c "null from=$STA .* pm=1" "$LOGS/$S-air.log")"
fi
ctl station get "$STA" >"$LOGS/$S-airqctl-station.log" 2>&1
ctl status >"$LOGS/$S-airqctl-status.log" 2>&1
kill "$SNIFF"
wait_for 5 gone "$SNIFF"
tail -1 "$LOGS/$S-air.log"
airq_down
finish
