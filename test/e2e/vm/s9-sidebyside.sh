#!/bin/sh
# s9-sidebyside: airqd beside hostapd (the kernel's AP mode) and, when it
# works, airbase-ng, one after another on the same two radios, the same SSID,
# channel and station (wpa_supplicant, open network, in its own namespace).
#
# Per AP: association time (median of 7 "wpa_cli reconnect" -> CONNECTED,
# from wpa_supplicant's own timestamps), ping RTT avg/max (30 pings station ->
# host, 0.1 s apart), iperf3 TCP 8 s down (-R) and up after 1 s of slow start
# left out (-O 1), and the AP process's CPU time (utime/stime from
# /proc/PID/stat, clock ticks of 10 ms) over the two iperf3 runs divided by
# the MB they carried. Neither namespace keeps TCP metrics between
# connections (tcp_no_metrics_save), so one AP's runs do not seed the next's.
#
# mac80211_hwsim has no airtime: the ratios measure the length of each AP's
# path under emulation (kernel AP vs. injection on a monitor and a TAP), not
# radio performance. They are regression floors: association must be <= 2x
# hostapd's, throughput at least what three runs held less their spread
# (FLOOR_*; hostapd's TCP settles at one of two rates, so the spread is
# wide). Under TCG the guest's clock
# counts instructions (run.sh, E2E_ICOUNT), so the host's load does not move
# one AP's figures against the other's; with the host's clock (KVM,
# E2E_ICOUNT=off) it does, and the floors are reported as skips that
# run.sh expects.
# hostapd's CPU during traffic is ~0 (the kernel forwards data, not hostapd);
# a zero is counted as one tick, so cpu_per_mb_ratio is then a lower bound.
#
# The field order: the station dump of the client on each AP's side
# (airqctl station dump; iw dev wlan0 station dump on hostapd's interface)
# must list iw's fields in iw's order, none missing (iw_field_order).
#
# Output: a table, RESULT check lines, and the summary line
#   RESULT assoc_ratio=... rtt_ratio=... tput_down_ratio=... tput_up_ratio=... cpu_per_mb_ratio=...
# (also written to sidebyside.txt on the share; run.sh prints it).
# timeout: 420
. /e2e/lib.sh

one_station
echo "AP $APPHY $BSSID; station $STA"

# mres/mcheck: airq's and hostapd's rows are checks; airbase-ng is a guest
# row (its failures are reported as skipped, with the reason, not as failures)
mres() { if [ "$k" = airbase ] && [ "$2" != pass ]; then skip "$1" "$3"; else result "$@"; fi; }
mcheck() { if [ "$k" = airbase ]; then set -- $(iperf_sum "$1") && [ "$1" != 0 ] || skip "$k.tcp" "no traffic through airbase-ng"; else iperf_check "$@"; fi; }
# measure KIND PID: the station's numbers against the running AP KIND
# (process PID); sets M_<KIND>_<metric>; the AP must be up and the host
# address configured
measure() {
	k=$1 pid=$2
	: >"$LOGS/$S-wpas1.log"
	wpas_start 1
	if ! { wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1; }; then
		mres "$k.associated" fail "station: $(wpas_state 1)"
		stop "$(wpas_pid 1)"
		return 1
	fi
	# association time: 7 x (disconnect, reconnect), from the log's timestamps;
	# tens of ms under TCG, so one slow exchange must not decide the median
	for n in 1 2 3 4 5 6 7; do
		wpa 1 disconnect >/dev/null
		wait_for 10 sh -c "[ \"\$(nsenter -F -t $(sta_pid 1) -n wpa_cli -p /run/wpas1 -i wlan1 status | sed -n 's/^wpa_state=//p')\" = DISCONNECTED ]"
		wait_for 10 sta_unlinked 1
		wpa 1 reconnect >/dev/null
		wait_for 30 wpas_completed 1 && wait_for 5 sta_linked 1 || { mres "$k.associated" fail "reconnect $n: $(wpas_state 1)"; stop "$(wpas_pid 1)"; return 1; }
	done
	assoc=$(awk '
		/Control interface command .RECONNECT/ { t0 = $1 + 0 }
		/CTRL-EVENT-CONNECTED/ && t0 { d[++n] = $1 - t0; t0 = 0 }
		END { if (n == 0) { print "0"; exit }
		      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (d[j] < d[i]) { x = d[i]; d[i] = d[j]; d[j] = x }
		      printf "%.3f", d[int((n + 1) / 2)] }' "$LOGS/$S-wpas1.log")
	cp "$LOGS/$S-wpas1.log" "$LOGS/$S-wpas1-$k.log"
	mres "$k.associated" pass "7 reconnects, median ${assoc}s"
	# RTT
	in_sta 1 ping -c 30 -i 0.1 -W 2 -w 30 "$HOST_IP" >"$LOGS/$S-ping-$k.log" 2>&1
	set -- $(rtt_of "$LOGS/$S-ping-$k.log")
	rtt_avg=${1:-0} rtt_max=${2:-0}
	if ping_ok "$LOGS/$S-ping-$k.log" 30; then mres "$k.ping" pass "$(pingsum "$LOGS/$S-ping-$k.log")"
	else mres "$k.ping" fail "$(pingsum "$LOGS/$S-ping-$k.log")"; fi
	# the AP side's station dump of the client, for the field order check
	case $k in
	airq) ctl station dump >"$LOGS/$S-dump-airq.txt" 2>&1 ;;
	hostapd) iw dev wlan0 station dump >"$LOGS/$S-dump-hostapd.txt" 2>&1 ;;
	esac
	# throughput, and CPU over the measured part of each run (after -O 1)
	du=0 ds=0
	for dir in down up; do
		iperf_bg "$k.tcp_$dir" 1 8 -O 1 $([ $dir = down ] && echo -R)
		sleep 1
		set -- $(proc_ticks "$pid")
		u0=$1 s0=$2
		c0=$(cpu_ticks)
		wait $IPERF_PID
		c1=$(cpu_ticks)
		set -- $(proc_ticks "$pid")
		du=$((du + $1 - u0)) ds=$((ds + $2 - s0))
		set -- $(iperf_sum "$k.tcp_$dir")
		set -- $(per_seg "$c0" "$c1" "$2")
		echo "$k $dir: guest CPU per ${SEG}-byte segment: user=$1 system=$2 softirq=$3 total=$4 us, idle $5 ticks"
		eval "M_${k}_seg_$dir=$4 M_${k}_seg_${dir}_user=$1 M_${k}_seg_${dir}_sys=$2 M_${k}_seg_${dir}_soft=$3"
	done
	set -- $(iperf_sum "$k.tcp_down")
	down=$1 mb_down=$2
	set -- $(iperf_sum "$k.tcp_up")
	up=$1 mb_up=$2
	mcheck "$k.tcp_down" 0.1
	mcheck "$k.tcp_up" 0.1
	mb=$(awk -v a="$mb_down" -v b="$mb_up" 'BEGIN{print a + b}')
	eval "M_${k}_assoc=$assoc M_${k}_rtt_avg=$rtt_avg M_${k}_rtt_max=$rtt_max M_${k}_down=$down M_${k}_up=$up"
	eval "M_${k}_mb=$mb M_${k}_du=$du M_${k}_ds=$ds"
	echo "$k: assoc=${assoc}s rtt=$rtt_avg/$rtt_max ms down=$down up=$up Mbit/s MB=$mb utime=$du stime=$ds ticks"
	stop "$(wpas_pid 1)"
	wait_for 10 sta_unlinked 1
	return 0
}

# The throughput floors, airq over hostapd: the 802.11g pair down and up,
# the HT pair down and up (the least of three runs less their spread:
# README, "Side by side with hostapd").
FLOOR_DOWN=0.36 FLOOR_UP=0.57 FLOOR_HT_DOWN=0.45 FLOOR_HT_UP=0.37

# Guest CPU per TCP segment: cpu_ticks and per_seg (lib.sh).

iperf_servers 1 || result setup fail "iperf3 server"
sysctl -qw net.ipv4.tcp_no_metrics_save=1
in_sta 1 sysctl -qw net.ipv4.tcp_no_metrics_save=1

############################################################################
# airq_row KIND FLAGS: airqd with FLAGS measured as row KIND
airq_row() {
	log "$1: airqd $2"
	AIRQD_EXTRA=$2
	if airq_up "airqd-$1"; then
		result "$1.ap_up" pass "airqd $2 pid $AIRQD_PID, host $HOST_IP on $TAPIF"
		measure "$1" "$AIRQD_PID" && eval "HAVE_$1=1"
	else
		result "$1.ap_up" fail "airqd $2 not ready"
	fi
	AIRQD_EXTRA=
	airq_down
	wait_for 10 sh -c "! ip link show $MONIF" 2>/dev/null
}
# hostapd_row KIND LINES: hostapd (the kernel's AP mode) with the common
# configuration and LINES measured as row KIND
hostapd_row() {
	log "$1: hostapd (kernel AP mode)${2:+ with $(echo $2)}"
	iw phy "$APPHY" interface add wlan0 type managed
	cat >/tmp/$S-$1.conf <<EOC
interface=wlan0
driver=nl80211
ctrl_interface=/run/hostapd
ssid=$SSID
hw_mode=g
channel=$CHANNEL
wmm_enabled=1
auth_algs=1
beacon_int=100
dtim_period=2
$2
EOC
	hostapd -t -d /tmp/$S-$1.conf >"$LOGS/$S-$1.log" 2>&1 &
	HAPD=$!
	register $HAPD
	if wait_for 30 sh -c "grep -q 'AP-ENABLED' $LOGS/$S-$1.log" && ip addr add "$HOST_IP/24" dev wlan0; then
		result "$1.ap_up" pass "hostapd pid $HAPD on wlan0 ($(cat /sys/class/net/wlan0/address)), host $HOST_IP on wlan0"
		measure "$1" "$HAPD" && eval "HAVE_$1=1"
	else
		result "$1.ap_up" fail "no AP-ENABLED: $(tail -3 "$LOGS/$S-$1.log" | tr '\n' ' ')"
	fi
	stop "$HAPD"
	wait_for 5 link_exists wlan0 && iw dev wlan0 del
}

############################################################################
# Two pairs on the same PHY settings: airqd's defaults beside hostapd's
# 802.11g network, and airqd with -ht (HT rates, A-MSDU for stations that
# advertise it) beside hostapd with ieee80211n=1.
airq_row airq ""
hostapd_row hostapd ""
airq_row airq_ht "-ht"
hostapd_row hostapd_ht "ieee80211n=1"

############################################################################
# iw_field_order: airqctl station dump prints the fields iw prints for the
# same client on hostapd's interface, in iw's order (airq's own lines come
# after iw's); a field iw prints and airqctl lacks is named and fails.
dump_fields() { awk -F: '/^\t[^\t]/ { sub(/^\t/, "", $1); print $1 }' "$1"; }
DA=$LOGS/$S-dump-airq.txt DH=$LOGS/$S-dump-hostapd.txt
if grep -q "^Station $STA " "$DA" 2>/dev/null && grep -q "^Station $STA " "$DH" 2>/dev/null; then
	dump_fields "$DA" >/tmp/$S-fields-airq
	dump_fields "$DH" >/tmp/$S-fields-iw
	in_iw=$(grep -Fxf /tmp/$S-fields-iw /tmp/$S-fields-airq | tr '\n' ',')
	iw_order=$(grep -Fxf /tmp/$S-fields-airq /tmp/$S-fields-iw | tr '\n' ',')
	lacking=$(grep -vFxf /tmp/$S-fields-airq /tmp/$S-fields-iw | tr '\n' ',')
	n=$(grep -c . /tmp/$S-fields-iw)
	if [ "$in_iw" = "$iw_order" ] && [ -z "$lacking" ] && [ "$n" -ge 10 ]; then
		result iw_field_order pass "the $n fields of iw's station dump, in iw's order: ${iw_order%,}"
	else
		result iw_field_order fail "iw (hostapd): $(tr '\n' ',' </tmp/$S-fields-iw); airqctl: $(tr '\n' ',' </tmp/$S-fields-airq); lacking in airqctl: ${lacking%,}"
	fi
else
	result iw_field_order fail "no station dump of $STA from both APs: $(head -2 "$DA" 2>&1 | tr '\n' ' ') / $(head -2 "$DH" 2>&1 | tr '\n' ' ')"
fi

############################################################################
log "airbase-ng (aircrack-ng) on an active monitor with the BSSID"
AB_WHY=
if ! command -v airbase-ng >/dev/null; then
	AB_WHY="airbase-ng not in the image"
elif ! { iw phy "$APPHY" interface add abmon0 type monitor flags active && ip link set abmon0 address "$BSSID" &&
	ip link set abmon0 up && iw dev abmon0 set channel "$CHANNEL"; }; then
	AB_WHY="could not create the active monitor abmon0 with $BSSID"
else
	# what reaches the air while airbase-ng runs (beacons, probe responses)
	ip link set hwsim0 up
	e2esniff -i hwsim0 -beacon-every 10 >"$LOGS/$S-air-airbase.log" 2>&1 &
	SNIFF=$!
	register $SNIFF
	airbase-ng -a "$BSSID" -e "$SSID" -c "$CHANNEL" abmon0 >"$LOGS/$S-airbase-ng.log" 2>&1 &
	AB=$!
	register $AB
	if wait_for 20 link_exists at0 && ip addr add "$HOST_IP/24" dev at0 && ip link set at0 up; then
		if measure airbase "$AB"; then HAVE_airbase=1
		else AB_WHY="airbase-ng ran (at0 up) but the station did not complete the exchange: $(grep -v '^$' "$LOGS/$S-airbase-ng.log" | tail -2 | tr '\n' ' ')"; fi
	else
		AB_WHY="airbase-ng did not create at0: $(grep -v '^$' "$LOGS/$S-airbase-ng.log" | tail -3 | tr '\n' ' ')"
	fi
	stop "$AB"
	kill "$SNIFF"
	wait_for 5 gone "$SNIFF"
	[ -n "$AB_WHY" ] && AB_WHY="$AB_WHY; on the air: $(tail -1 "$LOGS/$S-air-airbase.log" | cut -d' ' -f2-)"
fi
link_exists abmon0 && iw dev abmon0 del
[ -n "$AB_WHY" ] && skip airbase.row "$AB_WHY"

############################################################################
# The table.
v() { eval "echo \${M_$1_$2:-n/a}"; }
perm() { # perm KIND user|sys: CPU seconds per MB (ticks of 10 ms)
	eval "_t=\${M_$1_d$(echo "$2" | cut -c1)} _mb=\${M_$1_mb}"
	[ -n "$_mb" ] || { echo n/a; return; }
	awk -v t="$_t" -v m="$_mb" 'BEGIN{if (m + 0 == 0) print "n/a"; else printf "%.4f", t / 100 / m}'
}
{
	echo "side by side (same VM, radios, SSID, channel and station; hwsim: no airtime)"
	echo "airq, hostapd: 802.11g; airq_ht: airqd -ht; hostapd_ht: ieee80211n=1"
	ROWS="airq hostapd airbase airq_ht hostapd_ht"
	printf '%-22s' metric; for r in $ROWS; do printf ' %11s' "$r"; done; echo
	for m in assoc:assoc_s rtt_avg:rtt_avg_ms rtt_max:rtt_max_ms down:tput_down_mbit up:tput_up_mbit mb:MB_carried du:cpu_user_ticks ds:cpu_sys_ticks \
		seg_down:us_per_seg_down seg_down_user:"  user" seg_down_sys:"  system" seg_down_soft:"  softirq" \
		seg_up:us_per_seg_up seg_up_user:"  user" seg_up_sys:"  system" seg_up_soft:"  softirq"; do
		printf '%-22s' "${m#*:}"; for r in $ROWS; do printf ' %11s' "$(v "$r" "${m%%:*}")"; done; echo
	done
	printf '%-22s' cpu_user_s_per_MB; for r in $ROWS; do printf ' %11s' "$(perm "$r" user)"; done; echo
	printf '%-22s' cpu_sys_s_per_MB; for r in $ROWS; do printf ' %11s' "$(perm "$r" sys)"; done; echo
	[ -n "$AB_WHY" ] && echo "airbase-ng: no row: $AB_WHY"
} | tee "$LOGS/sidebyside.txt"

if [ -n "${HAVE_airq:-}" ] && [ -n "${HAVE_hostapd:-}" ]; then
	assoc_r=$(div "$M_airq_assoc" "$M_hostapd_assoc")
	rtt_r=$(div "$M_airq_rtt_avg" "$M_hostapd_rtt_avg")
	down_r=$(div "$M_airq_down" "$M_hostapd_down")
	up_r=$(div "$M_airq_up" "$M_hostapd_up")
	# CPU per MB, user + system; hostapd's zero counts as one tick (lower bound)
	hcpu=$((M_hostapd_du + M_hostapd_ds))
	lb=
	[ "$hcpu" = 0 ] && { hcpu=1; lb=" (hostapd used 0 ticks, counted as 1: lower bound)"; }
	cpu_r=$(awk -v a=$((M_airq_du + M_airq_ds)) -v am="$M_airq_mb" -v h="$hcpu" -v hm="$M_hostapd_mb" \
		'BEGIN{if (am + 0 == 0 || hm + 0 == 0) print "inf"; else printf "%.1f", (a / am) / (h / hm)}')
	# floor CHECK OK DETAIL: with the host's clock (KVM) reported, not asserted
	floor() {
		if ! figures_asserted; then skip "$1" "$3, not asserted: the guest's clock is the host's (accelerator $GUEST_ACCEL)"
		elif [ "$2" = 0 ]; then result "$1" pass "$3"
		else result "$1" fail "$3"; fi
	}
	ge "$down_r" $FLOOR_DOWN; floor floor_tput_down $? "airq/hostapd = $down_r (floor $FLOOR_DOWN)"
	ge "$up_r" $FLOOR_UP; floor floor_tput_up $? "airq/hostapd = $up_r (floor $FLOOR_UP)"
	le "$assoc_r" 2; floor floor_assoc $? "airq/hostapd = $assoc_r (ceiling 2)"
	ht_down_r=$(div "$(v airq_ht down)" "$(v hostapd_ht down)")
	ht_up_r=$(div "$(v airq_ht up)" "$(v hostapd_ht up)")
	if [ -n "${HAVE_airq_ht:-}" ] && [ -n "${HAVE_hostapd_ht:-}" ]; then
		ge "$ht_down_r" $FLOOR_HT_DOWN; floor floor_ht_tput_down $? "airq -ht/hostapd ieee80211n=1 = $ht_down_r (floor $FLOOR_HT_DOWN)"
		ge "$ht_up_r" $FLOOR_HT_UP; floor floor_ht_tput_up $? "airq -ht/hostapd ieee80211n=1 = $ht_up_r (floor $FLOOR_HT_UP)"
	else
		result floor_ht_tput_down fail "no measurement (airq_ht=${HAVE_airq_ht:-no} hostapd_ht=${HAVE_hostapd_ht:-no})"
		result floor_ht_tput_up fail "no measurement"
	fi
	line="RESULT assoc_ratio=$assoc_r rtt_ratio=$rtt_r tput_down_ratio=$down_r tput_up_ratio=$up_r cpu_per_mb_ratio=$cpu_r"
	line="$line airq_us_per_seg_down=$(v airq seg_down) airq_us_per_seg_up=$(v airq seg_up)"
	line="$line hostapd_us_per_seg_down=$(v hostapd seg_down) hostapd_us_per_seg_up=$(v hostapd seg_up)"
	line="$line ht_tput_down_ratio=$ht_down_r ht_tput_up_ratio=$ht_up_r"
	line="$line airq_ht_us_per_seg_down=$(v airq_ht seg_down) airq_ht_us_per_seg_up=$(v airq_ht seg_up)"
	line="$line hostapd_ht_us_per_seg_down=$(v hostapd_ht seg_down) hostapd_ht_us_per_seg_up=$(v hostapd_ht seg_up)"
	[ -n "$lb" ] && echo "cpu_per_mb_ratio$lb" | tee -a "$LOGS/sidebyside.txt"
	echo "$line" | tee -a "$LOGS/sidebyside.txt"
else
	result floor_tput_down fail "no measurement (airq=${HAVE_airq:-no} hostapd=${HAVE_hostapd:-no})"
	result floor_tput_up fail "no measurement"
	result floor_assoc fail "no measurement"
	result floor_ht_tput_down fail "no measurement"
	result floor_ht_tput_up fail "no measurement"
	echo "RESULT assoc_ratio=n/a rtt_ratio=n/a tput_down_ratio=n/a tput_up_ratio=n/a cpu_per_mb_ratio=n/a" | tee -a "$LOGS/sidebyside.txt"
fi
finish
