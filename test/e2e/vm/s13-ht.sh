#!/bin/sh
# s13-ht: HT on 2.4 GHz and VHT on 5 GHz with a mac80211 station.
#
# The evidence for the rates is taken on the receiving side: a plain monitor
# (smon1) on the station's radio logs the radiotap rate mac80211_hwsim gave
# each of airqd's data frames (e2esniff -rates), and the station's own
# "iw dev wlan1 station dump" shows its last rx bitrate. hwsim0 (the global
# monitor) logs the Block Ack action frames.
#
# Checks (HT: airqd -ht, channel 1):
#   ht.associated        station associates; its tx bitrate to the AP is an HT
#                        MCS (it only sends MCS rates to an HT AP)
#   ht.rates_on_air      airqd's data frames to the station arrive at HT MCS
#                        rates (smon1), none at a legacy rate after the first
#                        few (the detail lists the counts per rate)
#   ht.sta_rx_bitrate    the station's rx bitrate is an MCS rate, and airqctl's
#                        best rate for the station is an HT MCS
#   ht.addba_declined    the station's ADDBA request is answered with status 37
#                        (request declined) by airqd
#   ht.traffic           ping both ways and iperf3 TCP down and up after the
#                        decline
# Checks (VHT: -country US -channel 36 -vht): vht.associated,
#   vht.rates_on_air (VHT MCS on the air), vht.sta_rx_bitrate (VHT-MCS),
#   vht.traffic (ping, iperf3 TCP down)
# The kernel returns to the world regulatory domain at the end.
# timeout: 150
. /e2e/lib.sh

STA_MON=1 one_station
reg_world
ip link set hwsim0 up
e2esniff -i hwsim0 -sta "$STA" >"$LOGS/$S-air.log" 2>&1 &
register $!
if sta_monitor 1; then
	nsenter -F -t "$(sta_pid 1)" -n e2esniff -i smon1 -rates -sta "$STA" >"$LOGS/$S-sta-rx.log" 2>&1 &
	register $!
else
	echo "no monitor on the station's radio"
fi
iperf_servers 1

# rates_of PHASE_START ENC: airqd's data frames at the station since uptime
# PHASE_START, per rate ("enc=ht mcs=7 bw=20 sgi x123; ..."), then a line
# "N_ENC N_OTHER"
rates_of() {
	awk -v t="$1" -v e="$2" '$2 == "rate" && $3 == "data_down" && $1 >= t {
		k = ""; for (i = 6; i <= NF; i++) if ($i !~ /^(amsdu|len)=/) k = k (k == "" ? "" : " ") $i
		n[k]++; if (index(k, "enc=" e " ") == 1) ne++; else no++ }
		END { for (k in n) printf "%s x%d; ", k, n[k]; printf "\n%d %d\n", ne, no }' "$LOGS/$S-sta-rx.log"
}
sdump() { in_sta 1 iw dev wlan1 station dump; }

# phase NAME ENC: association, traffic and the rate checks for one mode
phase() {
	_ph=$1 _enc=$2
	if wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1 && wait_for 5 airq_has_sta "$STA"; then
		in_sta 1 ping -c 3 -i 0.2 -W 2 "$HOST_IP" >/dev/null 2>&1
		txr=$(sdump | sed -n 's/^[[:space:]]*tx bitrate:[[:space:]]*//p')
		case $_enc in
		ht) want='MCS [0-9]' ;;
		vht) want='VHT-MCS [0-9]' ;;
		esac
		if echo "$txr" | grep -qE "$want"; then result "$_ph.associated" pass "station tx bitrate: $txr"
		else result "$_ph.associated" fail "station tx bitrate '$txr' is not $want (not an $_enc association?)"; fi
	else
		result "$_ph.associated" fail "station: $(wpas_state 1)"
		return 1
	fi
	t0=$(T)
	pings "$_ph.ping_down" 1 down 20 0.1
	pings "$_ph.ping_up" 1 up 20 0.1
	iperf_bg "$_ph.tcp_down" 1 4 -R
	wait "$IPERF_PID"
	iperf_check "$_ph.tcp_down" 1
	if [ "$_ph" = ht ]; then
		iperf_bg "$_ph.tcp_up" 1 4
		wait "$IPERF_PID"
		iperf_check "$_ph.tcp_up" 1
	fi
	sdump >"$LOGS/$S-$_ph-sta-dump.log" 2>&1
	ctl -i "$MONIF" station get "$STA" >"$LOGS/$S-$_ph-airqctl-station.log" 2>&1
	ctl -i "$MONIF" station get "$STA" rates >"$LOGS/$S-$_ph-airqctl-rates.log" 2>&1
	cat "$LOGS/$S-$_ph-airqctl-rates.log"
	set -- $(rates_of "$t0" "$_enc" | tail -1)
	ne=${1:-0} no=${2:-0}
	kinds=$(rates_of "$t0" "$_enc" | head -1)
	if [ "$ne" -gt 0 ] && [ "$ne" -ge "$no" ]; then result "$_ph.rates_on_air" pass "airqd's data frames at the station: $kinds"
	else result "$_ph.rates_on_air" fail "no $_enc rate among airqd's data frames at the station: ${kinds:-none seen}"; fi
	rxr=$(sed -n 's/^[[:space:]]*rx bitrate:[[:space:]]*//p' "$LOGS/$S-$_ph-sta-dump.log")
	best=$(sed -n 's/^[[:space:]]*best rate:[[:space:]]*//p; s/^[[:space:]]*tx bitrate:[[:space:]]*//p' "$LOGS/$S-$_ph-airqctl-rates.log" | head -1)
	atx=$(sed -n 's/^[[:space:]]*tx bitrate:[[:space:]]*//p' "$LOGS/$S-$_ph-airqctl-station.log")
	d="station rx bitrate: $rxr; airqctl tx bitrate: $atx, best rate: $best"
	rxn=$(echo "$rxr" | awk '{print $1}') atn=$(echo "$atx" | awk '{print $1}')
	if echo "$rxr" | grep -qE "$want" && echo "$best" | grep -q 'MCS' && [ "$rxn" = "$atn" ]; then
		result "$_ph.sta_rx_bitrate" pass "$d"
	else
		result "$_ph.sta_rx_bitrate" fail "$d (want $want at the station, an MCS best rate and the same Mbit/s)"
	fi
}

############################################################################
log "HT on channel 1"
AIRQD_EXTRA="-ht"
if airq_up airqd-ht; then
	wpas_start 1
	phase ht ht
	req=$(grep -m1 "addba_req from=$STA to=$BSSID" "$LOGS/$S-air.log" | cut -d' ' -f2-)
	rsp=$(grep -m1 "addba_resp from=$BSSID to=$STA" "$LOGS/$S-air.log" | cut -d' ' -f2-)
	if [ -n "$req" ] && echo "$rsp" | grep -q 'status=37'; then
		result ht.addba_declined pass "$req; $rsp"
	else
		result ht.addba_declined fail "ADDBA request: ${req:-none seen}; response: ${rsp:-none seen} (status 37 wanted)"
	fi
	stop "$(wpas_pid 1)"
else
	result ht.associated fail "airqd -ht not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"
fi
airq_down

############################################################################
log "VHT on channel 36 (-country US)"
CHANNEL=36 FREQ=5180
AIRQD_EXTRA="-country US -vht"
if airq_up airqd-vht; then
	wpas_start 1 "$(wpas_body 5180)"
	phase vht vht
	stop "$(wpas_pid 1)"
else
	result vht.associated fail "airqd -country US -channel 36 -vht not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"
fi
airq_down
AIRQD_EXTRA=
CHANNEL=1 FREQ=2412
reg_world
finish
