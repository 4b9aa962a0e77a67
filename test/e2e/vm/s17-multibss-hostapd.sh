#!/bin/sh
# s17-multibss-hostapd: airqd beside hostapd (the kernel's AP mode, Debian's
# 2.10, which makes the guest its own AP interface) with the same two
# sections (issue 32; multibss.sh): a WPA2-Personal main network and an open
# guest network (bss=guest0) on one radio, each in its own bridge. One after
# another on the same three radios: station 1 on the main network, station 2
# on the guest's.
#
# Rows, in this order:
#   airq2     airqd with both sections: each station's association time
#             (median of 7 "wpa_cli reconnect" -> CONNECTED, wpa_supplicant's
#             own timestamps, as s9), iperf3 TCP 8 s down and then up with
#             both stations at once, each to its own host (-O 1), summed;
#             then station 2 alone, down and up, with s9's guest CPU per
#             segment (lib.sh's per_seg)
#   airq1     airqd with the guest's section alone (one BSS): station 2
#             alone, down and up, CPU per segment: s9's path with one BSS
#             against airq2's with two
#   hostapd2  hostapd with both sections: association times and the summed
#             TCP, as airq2; then a SIGHUP with the guest's ssid changed,
#             reported (hostapd 2.10 restarts every BSS of the radio)
#   hostapd1  hostapd with the guest's section alone: station 2 down and up
#
# Checks: each row's AP up, associations and iperf3 runs (data carried);
#   floor_assoc_main / _guest  airqd's median <= 2x hostapd's
#   floor_tput_down / _up      airq2's summed TCP over hostapd2's >= s9's
#                              floors (read from s9-sidebyside.sh, so the
#                              two stay one figure), reported beside the
#                              single-BSS ratio of the same boot (airq1 over
#                              hostapd1, s9's measurement on this topology);
#                              with the host's clock reported, not asserted
#   cpu_per_seg                both airq rows measured: the figures go in
#                              the summary line
# Output: a table, and
#   RESULT multibss assoc_ratio_main=... sum_tput_down_ratio=... single_tput_down_ratio=...
#     s9_floor_down=... us_per_seg_down_2bss=... us_per_seg_down_1bss=... seg_down_2bss_over_1bss=...
# on one line (also multibss.txt on the share; run.sh prints it).
# timeout: 480
. /e2e/lib.sh
. /e2e/multibss.sh

modprobe aesni_intel
log "radios"
ap_radios 3 || { result setup fail "mac80211_hwsim radios=3"; finish; }
side_stations 1 2 || { result setup fail "station namespaces"; finish; }
wired_sides >/tmp/$S-why || { result setup fail "bridges br0, br1 and the guest's host: $(cat /tmp/$S-why)"; finish; }
side_servers 1 2 || result setup fail "iperf3 servers"
# no TCP metrics kept between connections anywhere (s9)
sysctl -qw net.ipv4.tcp_no_metrics_save=1
for i in 1 2; do in_sta $i sysctl -qw net.ipv4.tcp_no_metrics_save=1; done
in_gh sysctl -qw net.ipv4.tcp_no_metrics_save=1
echo "AP $APPHY $BSSID; stations $(sta_mac 1) (main) $(sta_mac 2) (guest)"

# s9's floors, airq over hostapd with one BSS: FLOOR_DOWN and FLOOR_UP
eval "$(sed -n 's/^\(FLOOR_DOWN=[0-9.]* FLOOR_UP=[0-9.]*\).*/\1/p' /e2e/s9-sidebyside.sh)"
[ -n "${FLOOR_DOWN:-}" ] || result setup fail "no FLOOR_DOWN/FLOOR_UP line in s9-sidebyside.sh"

# assoc K I: 7 reconnects of station I (joined first), the median in
# M_K_assoc_I
assoc() {
	_k=$1 _i=$2
	for _n in 1 2 3 4 5 6 7; do
		wpa "$_i" disconnect >/dev/null
		wait_for 10 unjoined "$_i"
		wpa "$_i" reconnect >/dev/null
		wait_for 30 joined "$_i" || { result "$_k.assoc_$_i" fail "reconnect $_n: $(wpas_state "$_i")"; return 1; }
	done
	_m=$(reconnect_median "$LOGS/$S-wpas$_i.log")
	cp "$LOGS/$S-wpas$_i.log" "$LOGS/$S-wpas$_i-$_k.log"
	eval "M_${_k}_assoc_$_i=$_m"
	result "$_k.assoc_$_i" pass "7 reconnects of station $_i ($(wpas_ssid "$_i")), median ${_m}s"
}
# join K I...: wpa_supplicant on stations I... (fresh logs), all joined
join() {
	_k=$1
	shift
	for _i; do : >"$LOGS/$S-wpas$_i.log"; side_wpas "$_i"; done
	for _i; do
		wait_for 45 joined "$_i" || { result "$_k.join_$_i" fail "station $_i: $(wpas_state "$_i")"; return 1; }
	done
}
leave() { for _i; do stop "$(wpas_pid "$_i")"; wait_for 10 unjoined "$_i"; done; }
# both K: TCP 8 s down, then up, stations 1 and 2 at once (-O 1); the sums
# in M_K_sum_down and M_K_sum_up
both() {
	for _dir in down up; do
		side_iperf "$1.tcp_${_dir}_1" 1 8 -O 1 $([ $_dir = down ] && echo -R)
		_p=$IPERF_PID
		side_iperf "$1.tcp_${_dir}_2" 2 8 -O 1 $([ $_dir = down ] && echo -R)
		wait $_p $IPERF_PID
		iperf_check "$1.tcp_${_dir}_1" 0.1
		iperf_check "$1.tcp_${_dir}_2" 0.1
		set -- "$1" "$(iperf_sum "$1.tcp_${_dir}_1" | cut -d' ' -f1)" "$(iperf_sum "$1.tcp_${_dir}_2" | cut -d' ' -f1)"
		eval "M_$1_sum_${_dir}=$(awk -v a="$2" -v b="$3" 'BEGIN{printf "%.1f", a + b}') M_$1_${_dir}_1=$2 M_$1_${_dir}_2=$3"
	done
}
# alone K: station 2 alone, TCP 8 s down and up (-O 1), with the guest CPU
# per segment over the measured part (s9): M_K_down, M_K_up, M_K_seg_down,
# M_K_seg_up
alone() {
	for _dir in down up; do
		side_iperf "$1.tcp_$_dir" 2 8 -O 1 $([ $_dir = down ] && echo -R)
		sleep 1
		_c0=$(cpu_ticks)
		wait $IPERF_PID
		_c1=$(cpu_ticks)
		iperf_check "$1.tcp_$_dir" 0.1
		set -- "$1" $(iperf_sum "$1.tcp_$_dir")
		_mbit=$2
		set -- "$1" $(per_seg "$_c0" "$_c1" "$3")
		echo "$1 $_dir: $_mbit Mbit/s, guest CPU per ${SEG}-byte segment: user=$2 system=$3 softirq=$4 total=$5 us, idle $6 ticks"
		eval "M_$1_${_dir}=$_mbit M_$1_seg_${_dir}=$5"
	done
}

# airq_row_up K SSID TAP CONF BRIDGE: airqd with CONF, SSID and TAP its
# first section's, up with that TAP in BRIDGE (and with two sections the
# guest's TAP in br1)
airq_row_up() {
	_ssid=$SSID _tap=$TAPIF
	SSID=$2 TAPIF=$3
	AIRQD_EXTRA="-config $4"
	airqd_start "$APPHY" "airqd-$1"
	AIRQD_EXTRA=
	SSID=$_ssid TAPIF=$_tap
	if airqd_wait_ready 30 && wait_for 5 in_bridge "$3" "$5"; then
		ip link set "$3" up
		[ "$1" = airq1 ] || { wait_for 5 in_bridge "$GUEST_IF" br1 && ip link set "$GUEST_IF" up; } || return 1
		result "$1.ap_up" pass "airqd pid $AIRQD_PID: $3 in $5$([ "$1" = airq1 ] || echo ", $GUEST_IF in br1")"
	else
		result "$1.ap_up" fail "not ready or TAP not bridged: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"
		return 1
	fi
}
airq_row_down() { airq_down; wait_for 10 sh -c "! ip link show $MONIF" 2>/dev/null; }

# hostapd_row_up K CONF: hostapd on a new wlan0 of the AP's phy; every
# BSS's interface in its bridge
hostapd_row_up() {
	iw phy "$APPHY" interface add wlan0 type managed
	hostapd -t -d "$2" >"$LOGS/$S-$1.log" 2>&1 &
	HAPD=$!
	register $HAPD
	_br=br0
	[ "$1" = hostapd1 ] && _br=br1
	if wait_for 30 grep -q AP-ENABLED "$LOGS/$S-$1.log" && wait_for 10 in_bridge wlan0 $_br &&
		{ [ "$1" = hostapd1 ] || wait_for 10 in_bridge "$GUEST_IF" br1; }; then
		result "$1.ap_up" pass "hostapd pid $HAPD: wlan0 ($(cat /sys/class/net/wlan0/address)) in $_br$([ "$1" = hostapd1 ] || echo ", $GUEST_IF ($(cat /sys/class/net/$GUEST_IF/address)) in br1")"
	else
		result "$1.ap_up" fail "no AP-ENABLED or not bridged: $(tail -3 "$LOGS/$S-$1.log" | tr '\n' ' ')"
		return 1
	fi
}
hostapd_row_down() { stop "$HAPD"; wait_for 5 link_exists wlan0 && iw dev wlan0 del; }

# the guest's network as the only BSS (one section)
single_sections() { printf 'ssid=%s\nbridge=br1\n' "$GUEST_SSID"; }

############################################################################
log "airq2: airqd with both sections"
airq_conf /tmp/$S-airq2.conf "$GUEST_SSID" 0
if airq_row_up airq2 "$SSID" "$TAPIF" /tmp/$S-airq2.conf br0; then
	if join airq2 1 2 && assoc airq2 1 && assoc airq2 2; then
		both airq2
		leave 1
		alone airq2
	fi
	ctl status >"$LOGS/$S-status-airq2.txt" 2>&1
	iw dev >"$LOGS/$S-iw-dev-airq2.txt" 2>&1
	leave 1 2
fi
airq_row_down

log "airq1: airqd with the guest's section alone"
single_sections >/tmp/$S-airq1.conf
if airq_row_up airq1 "$GUEST_SSID" "$GUEST_IF" /tmp/$S-airq1.conf br1; then
	join airq1 2 && alone airq1
	leave 2
fi
airq_row_down

log "hostapd2: hostapd with both sections"
hostapd_conf /tmp/$S-hostapd2.conf "$GUEST_SSID" 0
if hostapd_row_up hostapd2 /tmp/$S-hostapd2.conf; then
	if join hostapd2 1 2 && assoc hostapd2 1 && assoc hostapd2 2; then
		both hostapd2
		# hostapd 2.10 on SIGHUP with the guest section changed: does the
		# main station stay? (reported; airqd's is checked by s17-multibss)
		w=$(wc -l <"$LOGS/$S-wpas1.log")
		hostapd_conf /tmp/$S-hostapd2.conf "$GUEST_SSID-2" 0
		kill -HUP "$HAPD"
		wait_for 10 sh -c "tail -n +$((w + 1)) $LOGS/$S-wpas1.log | grep -q CTRL-EVENT-DISCONNECTED"
		wait_for 30 joined 1
		HAPD_HUP_DISC=$(tail -n +$((w + 1)) "$LOGS/$S-wpas1.log" | grep -c CTRL-EVENT-DISCONNECTED)
		echo "hostapd2: SIGHUP with the guest's ssid changed: the main station logged $HAPD_HUP_DISC disconnect events"
	fi
	leave 1 2
fi
hostapd_row_down

log "hostapd1: hostapd with the guest's section alone"
{
	printf 'interface=wlan0\ndriver=nl80211\nctrl_interface=/run/hostapd\nhw_mode=g\nchannel=%s\nwmm_enabled=1\nbeacon_int=100\ndtim_period=2\n' "$CHANNEL"
	single_sections
} >/tmp/$S-hostapd1.conf
if hostapd_row_up hostapd1 /tmp/$S-hostapd1.conf; then
	join hostapd1 2 && alone hostapd1
	leave 2
fi
hostapd_row_down

############################################################################
v() { eval "echo \${M_$1_$2:-n/a}"; }
{
	echo "two BSSes on one radio, side by side (same VM, radios, stations and bridges; hwsim: no airtime)"
	echo "airq2/hostapd2: WPA2 main + open guest (bss=$GUEST_IF); airq1/hostapd1: the guest's section alone"
	ROWS="airq2 hostapd2 airq1 hostapd1"
	printf '%-26s' metric; for r in $ROWS; do printf ' %9s' "$r"; done; echo
	for m in assoc_1:assoc_main_s assoc_2:assoc_guest_s sum_down:sum_tput_down_mbit sum_up:sum_tput_up_mbit \
		down_1:"  main down" down_2:"  guest down" up_1:"  main up" up_2:"  guest up" \
		down:alone_tput_down_mbit up:alone_tput_up_mbit seg_down:us_per_seg_down seg_up:us_per_seg_up; do
		printf '%-26s' "${m#*:}"; for r in $ROWS; do printf ' %9s' "$(v "$r" "${m%%:*}")"; done; echo
	done
} | tee "$LOGS/multibss.txt"

# floor CHECK OK DETAIL: with the host's clock (KVM) reported, not asserted (s9)
floor() {
	if ! figures_asserted; then skip "$1" "$3, not asserted: the guest's clock is the host's (accelerator $GUEST_ACCEL)"
	elif [ "$2" = 0 ]; then result "$1" pass "$3"
	else result "$1" fail "$3"; fi
}
am=$(ratio "$(v airq2 assoc_1)" "$(v hostapd2 assoc_1)")
ag=$(ratio "$(v airq2 assoc_2)" "$(v hostapd2 assoc_2)")
le "$am" 2; floor floor_assoc_main $? "main (WPA2) airq/hostapd = $am (ceiling 2)"
le "$ag" 2; floor floor_assoc_guest $? "guest (open) airq/hostapd = $ag (ceiling 2)"
sd=$(ratio "$(v airq2 sum_down)" "$(v hostapd2 sum_down)")
su=$(ratio "$(v airq2 sum_up)" "$(v hostapd2 sum_up)")
od=$(ratio "$(v airq1 down)" "$(v hostapd1 down)")
ou=$(ratio "$(v airq1 up)" "$(v hostapd1 up)")
ge "$sd" "$FLOOR_DOWN"; floor floor_tput_down $? "two BSSes, summed: airq/hostapd = $sd (s9's floor $FLOOR_DOWN; one BSS: $od)"
ge "$su" "$FLOOR_UP"; floor floor_tput_up $? "two BSSes, summed: airq/hostapd = $su (s9's floor $FLOOR_UP; one BSS: $ou)"
rd=$(ratio "$(v airq2 seg_down)" "$(v airq1 seg_down)")
ru=$(ratio "$(v airq2 seg_up)" "$(v airq1 seg_up)")
check cpu_per_seg "guest CPU per segment, two BSSes / one: down $(v airq2 seg_down)/$(v airq1 seg_down) = $rd, up $(v airq2 seg_up)/$(v airq1 seg_up) = $ru us" \
	sh -c "[ '$rd' != n/a ] && [ '$ru' != n/a ]"
line="RESULT multibss assoc_ratio_main=$am assoc_ratio_guest=$ag sum_tput_down_ratio=$sd sum_tput_up_ratio=$su"
line="$line single_tput_down_ratio=$od single_tput_up_ratio=$ou s9_floor_down=$FLOOR_DOWN s9_floor_up=$FLOOR_UP"
line="$line us_per_seg_down_2bss=$(v airq2 seg_down) us_per_seg_down_1bss=$(v airq1 seg_down) seg_down_2bss_over_1bss=$rd"
line="$line us_per_seg_up_2bss=$(v airq2 seg_up) us_per_seg_up_1bss=$(v airq1 seg_up) seg_up_2bss_over_1bss=$ru"
line="$line hostapd_hup_main_disconnects=${HAPD_HUP_DISC:-n/a}"
echo "$line" | tee -a "$LOGS/multibss.txt"
wired_sides_down
finish
