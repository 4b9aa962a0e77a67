#!/bin/sh
# s16-sae-matrix: every pair of the AP's and the station's sae_pwe (0
# hunting and pecking, 1 hash-to-element only, 2 both), airqd against
# Debian's unmodified wpa_supplicant 2.10 (sae_pwe is its global
# setting), group 19. What wpa_supplicant 2.10 does with each pair
# (wpa_supplicant/events.c and sme.c):
#
#   AP \ station   0                  1                  2
#   0              hunting-and-pecking skips the BSS (a)  hunting-and-pecking
#   1              skips the BSS (b)  hash-to-element    hash-to-element
#   2              hunting-and-pecking hash-to-element   hash-to-element
#
#   (a) the AP's RSNXE lacks the H2E bit: "skip - SAE H2E required, but
#       not supported by the AP"; no Authentication frame is sent.
#   (b) the AP's rates carry BSS membership selector 123 (H2E only): "SAE
#       H2E disabled", the rate sets do not match; nothing is sent.
#
# Radios: wlan0 = airqd, wlan1 = the station.
#
# Checks, for AP A and station T:
#   apA.airqd                   airqd up with sae_pwe=A
#   apA-staT.associated         COMPLETED, key_mgmt SAE (pairs that join)
#   apA-staT.airqctl            airqctl station get: akm SAE, group 19, the
#                               method of the table
#   apA-staT.ping_up/_down      5 pings each way, 0% loss
#   apA-staT.tcp_down/_up       iperf3 TCP 2 s each way, >= 2 Mbit/s
#   apA-staT.skipped            (pairs that do not join) never COMPLETED in
#                               15 s, wpa_supplicant's log gives the reason
#                               of the table, and airqd saw no SAE exchange
#                               (sae_accepted unchanged)
# timeout: 360
. /e2e/lib.sh

PASS="airq e2e sae matrix password"
stat_of() { ctl status 2>/dev/null | sed -n "s/^$1=//p"; }

# sae_start SAE_PWE: wpa_supplicant on station 1 with its global sae_pwe
sae_start() {
	printf 'ctrl_interface=/run/wpas1\nsae_pwe=%s\nnetwork={\n\tssid="%s"\n\tkey_mgmt=SAE\n\tsae_password="%s"\n\tieee80211w=2\n\tproto=RSN\n\tpairwise=CCMP\n\tgroup=CCMP\n\tscan_freq=%s\n}\n' \
		"$1" "$SSID" "$PASS" "$FREQ" >"/tmp/$S-wpas1.conf"
	: >"$LOGS/$S-wpas1-$N.log"
	nsenter -F -t "$(sta_pid 1)" -n wpa_supplicant -i wlan1 -D nl80211 -c "/tmp/$S-wpas1.conf" \
		-t -d -f "$LOGS/$S-wpas1-$N.log" &
	WPAS_1=$!
	register $!
}

# joins N METHOD: the pair completes with SAE by METHOD and carries pings
joins() {
	t=$(T)
	if wait_for 60 wpas_completed 1 && wait_for 5 sta_linked 1; then
		km=$(wpa 1 status | sed -n 's/^key_mgmt=//p')
		check "$1.associated" "COMPLETED in $(since "$t")s: key_mgmt=$km" test "$km" = SAE
	else
		result "$1.associated" fail "station: $(wpas_state 1)"
		return
	fi
	g=$(ctl station get "$(sta_mac 1)" 2>&1)
	echo "$g" >"$LOGS/$S-airqctl-station-$1.log"
	akm=$(echo "$g" | sed -n 's/^[[:space:]]*akm:[[:space:]]*//p')
	grp=$(echo "$g" | sed -n 's/^[[:space:]]*sae group:[[:space:]]*//p')
	mth=$(echo "$g" | sed -n 's/^[[:space:]]*sae method:[[:space:]]*//p')
	check "$1.airqctl" "akm=$akm group=$grp method=$mth" \
		sh -c "[ '$akm' = SAE ] && [ '$grp' = 19 ] && [ '$mth' = '$2' ]"
	pings "$1.ping_up" 1 up 5
	pings "$1.ping_down" 1 down 5
	for dir in down up; do
		r=; [ $dir = down ] && r=-R
		iperf_bg "$1.tcp_$dir" 1 2 $r
		wait $IPERF_PID
		iperf_check "$1.tcp_$dir" 2
	done
}

# skips N REASON: the station never completes, its log says REASON, and
# airqd accepted no SAE exchange
skips() {
	a0=$(stat_of sae_accepted)
	completed=no
	end=$(awk -v a="$(T)" 'BEGIN{print a + 15}')
	while [ "$(awk -v e="$end" -v b="$(T)" 'BEGIN{print (b > e)}')" = 0 ]; do
		wpas_completed 1 && completed=yes
		usleep 200000
	done
	a=$(stat_of sae_accepted)
	why=$(grep -m1 -o "$2" "$LOGS/$S-wpas1-$N.log")
	check "$1.skipped" "COMPLETED: $completed; wpa_supplicant: ${why:-no line}; sae_accepted $a0 -> $a" \
		sh -c "[ $completed = no ] && [ -n '$why' ] && [ '$a' = '$a0' ]"
}

log "radios"
ap_radios 2 || { result setup fail "mac80211_hwsim radios=2"; finish; }
sta_init 1 || { result setup fail "station namespace"; finish; }
iperf_servers 1 || result setup fail "iperf3 server"

for ap in 0 1 2; do
	log "airqd with sae_pwe=$ap"
	umask 077
	printf 'wpa=2\nrsn_pairwise=CCMP\nwpa_key_mgmt=SAE\nieee80211w=2\nsae_password=%s\nsae_pwe=%s\n' "$PASS" "$ap" >"/tmp/$S-ap$ap.conf"
	umask 022
	AIRQD_EXTRA="-config /tmp/$S-ap$ap.conf"
	if airq_up "airqd-ap$ap"; then result "ap$ap.airqd" pass "airqd pid $AIRQD_PID with sae_pwe=$ap"
	else result "ap$ap.airqd" fail "airqd not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"; continue; fi
	for sta in 0 1 2; do
		N=ap$ap-sta$sta
		log "AP sae_pwe=$ap, station sae_pwe=$sta"
		sae_start "$sta"
		case $ap$sta in
		01) skips "$N" 'skip - SAE H2E required, but not supported by the AP' ;;
		10) skips "$N" 'SAE H2E disabled' ;;
		00 | 02 | 20) joins "$N" hunting-and-pecking ;;
		*) joins "$N" hash-to-element ;;
		esac
		stop "$WPAS_1"
		wait_for 10 sta_unlinked 1
	done
	ctl status >"$LOGS/$S-airqctl-status-ap$ap.log" 2>&1
	airq_down
done
finish
