# multibss.sh - what the s17-multibss scenarios share (issue 32), sourced
# after lib.sh: two networks on one radio, each with its own wired side.
#
#   main   WPA2-Personal, the first section: its TAP ($TAPIF) or hostapd's
#          wlan0 joins br0, where the host has 10.0.0.1 ($HOST_IP)
#   guest  open, the section bss=$GUEST_IF: its TAP (airqd) or AP interface
#          (hostapd) joins br1, which has no address of the host's; the
#          guest's host is 10.0.1.1 in a namespace of its own behind a veth
#          in br1, so that nothing of the host's own addresses answers for
#          the other side (Linux answers ARP for any local address on any
#          interface)
#
# Station 1 is the main network's, stations 2 and 3 the guest's
# (10.0.1.12 and .13). Each side's iperf3 servers listen on its own host:
# port 5200+I.

GUEST_IF=guest0
GUEST_SSID=airq-e2e-guest
GUEST_HOST_IP=10.0.1.1
MAIN_PASS="airq e2e multibss"

# side_ip I: station I's address, on its network's subnet
side_ip() { if [ "$1" = 1 ]; then echo "10.0.0.$((10 + $1))"; else echo "10.0.1.$((10 + $1))"; fi; }
# side_host I: the host station I's network reaches
side_host() { if [ "$1" = 1 ]; then echo "$HOST_IP"; else echo "$GUEST_HOST_IP"; fi; }

# wired_sides: br0 with the host's address, br1 with the guest's host behind
# the veth gh0/gh1 (gh1 in the namespace GH_NS); rc 1 with the failed step
# on stdout
wired_sides() {
	wired_sides_down
	for _b in br0 br1; do link_exists $_b || brctl addbr $_b || { echo "brctl addbr $_b"; return 1; }; done
	ip addr flush dev br0
	ip addr add "$HOST_IP/24" dev br0 && ip link set br0 up && ip link set br1 up || { echo "br0/br1 up"; return 1; }
	# br1 carries the guest's side through the root namespace without being
	# its host: no ARP reply for the root's addresses (Linux answers for any
	# local address on any interface) and no packet from the guest's subnet
	# taken in (no route back: rp_filter), so that only a frame airqd
	# carried across to br0 reaches the main side's host
	sysctl -qw net.ipv4.conf.br1.arp_ignore=8 net.ipv4.conf.br1.rp_filter=1 || { echo "br1 sysctls"; return 1; }
	netns_new || { echo "namespace"; return 1; }
	GH_NS=$NSPID
	# busybox's ip takes no peer name: the kernel names the peer vethN
	ip link add gh0 type veth || { echo "ip link add gh0 type veth"; return 1; }
	_peer=$(ip -o link show gh0 | sed -n 's/^[0-9]*: gh0@\([^:]*\):.*/\1/p')
	ip link set "$_peer" netns "$GH_NS" && brctl addif br1 gh0 && ip link set gh0 up ||
		{ echo "veth peer '$_peer' to the guest's host, gh0 in br1"; return 1; }
	nsenter -F -t "$GH_NS" -n ip link set lo up
	nsenter -F -t "$GH_NS" -n ip link set "$_peer" name gh1 &&
		nsenter -F -t "$GH_NS" -n ip addr add "$GUEST_HOST_IP/24" dev gh1 &&
		nsenter -F -t "$GH_NS" -n ip link set gh1 up || { echo "gh1 in the guest's host"; return 1; }
}
# wired_sides_down: the veth and both bridges gone (a scenario leaves none)
wired_sides_down() {
	link_exists gh0 && ip link del gh0
	for _b in br0 br1; do link_exists $_b && { ip link set $_b down; brctl delbr $_b; }; done
	return 0
}
# in_gh CMD...: CMD in the guest host's namespace
in_gh() { nsenter -F -t "$GH_NS" -n "$@"; }
# side_stations I...: station I's namespace (lib.sh's sta_init), its
# address moved to its network's subnet
side_stations() {
	for _i; do
		sta_init "$_i" || return 1
		in_sta "$_i" ip addr flush dev "wlan$_i"
		in_sta "$_i" ip addr add "$(side_ip "$_i")/24" dev "wlan$_i" || return 1
	done
}
# side_servers I...: an iperf3 server per station on its network's host
side_servers() {
	for _i; do
		if [ "$_i" = 1 ]; then
			iperf3 -s -p $((5200 + _i)) >"$LOGS/$S-iperf3-server$_i.log" 2>&1 &
		else
			nsenter -F -t "$GH_NS" -n iperf3 -s -p $((5200 + _i)) >"$LOGS/$S-iperf3-server$_i.log" 2>&1 &
		fi
		register $!
	done
	for _i; do
		if [ "$_i" = 1 ]; then wait_for 10 sh -c "netstat -ltn | grep -q ':$((5200 + _i)) '" || return 1
		else wait_for 10 sh -c "nsenter -F -t $GH_NS -n netstat -ltn | grep -q ':$((5200 + _i)) '" || return 1; fi
	done
}
# side_iperf NAME I SECS ARGS...: lib.sh's iperf_bg to station I's own host
# (IPERF_PID)
side_iperf() {
	_f=$LOGS/$S-iperf3-$1.log _i=$2 _t=$3
	shift 3
	timeout -s KILL $((_t + 30)) nsenter -F -t "$(sta_pid "$_i")" -n \
		iperf3 -c "$(side_host "$_i")" -p $((5200 + _i)) -t "$_t" -f m --connect-timeout 5000 "$@" >"$_f" 2>&1 &
	IPERF_PID=$!
	register $!
}
# side_pings NAME I COUNT: COUNT pings from station I to its own host, 0%
# loss wanted; result check NAME
side_pings() {
	_f=$LOGS/$S-ping-$1.log
	in_sta "$2" ping -c "$3" -i 0.2 -W 2 -w $(($3 / 5 + 10)) "$(side_host "$2")" >"$_f" 2>&1
	if ping_ok "$_f" "$3"; then result "$1" pass "station $2 -> $(side_host "$2"): $(pingsum "$_f")"
	else result "$1" fail "station $2 -> $(side_host "$2"): $(pingsum "$_f")"; fi
}

# The network blocks of the stations' wpa_supplicant.
main_body() {
	printf '\tssid="%s"\n\tkey_mgmt=WPA-PSK\n\tpsk="%s"\n\tproto=RSN\n\tpairwise=CCMP\n\tgroup=CCMP\n\tscan_freq=%s' \
		"$SSID" "$MAIN_PASS" "$FREQ"
}
# guest_body [SSID2]: the guest's open network, and a second one named
# SSID2 (the guest renamed by a reload)
guest_body() {
	printf '\tssid="%s"\n\tkey_mgmt=NONE\n\tscan_freq=%s' "$GUEST_SSID" "$FREQ"
	[ -z "${1:-}" ] || printf '\n}\nnetwork={\n\tssid="%s"\n\tkey_mgmt=NONE\n\tscan_freq=%s' "$1" "$FREQ"
}
# side_wpas I: wpa_supplicant on station I for its network
side_wpas() { if [ "$1" = 1 ]; then wpas_start 1 "$(main_body)"; else wpas_start "$1" "$(guest_body "${2:-}")"; fi; }
wpas_ssid() { wpa "$1" status 2>/dev/null | sed -n 's/^ssid=//p'; }
wpas_bssid() { wpa "$1" status 2>/dev/null | sed -n 's/^bssid=//p'; }
# joined I: station I COMPLETED and linked (to any BSSID: the guest's is not $BSSID)
joined() { wpas_completed "$1" && in_sta "$1" iw dev "wlan$1" link 2>/dev/null | grep -q '^Connected to'; }
unjoined() { in_sta "$1" iw dev "wlan$1" link 2>/dev/null | grep -q 'Not connected'; }

# bss_sections GUEST_SSID ISOLATE: the two sections both APs read, after
# the radio's lines: the main network first, then bss=$GUEST_IF
bss_sections() {
	printf 'ssid=%s\nwpa=2\nwpa_passphrase=%s\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\nbridge=br0\n' "$SSID" "$MAIN_PASS"
	printf 'bss=%s\nssid=%s\nbridge=br1\nap_isolate=%s\n' "$GUEST_IF" "$1" "$2"
}
# airq_conf FILE GUEST_SSID ISOLATE: airqd's file (mode 0600: a passphrase)
airq_conf() {
	umask 077
	bss_sections "$2" "$3" >"$1"
	umask 022
}
# hostapd_conf FILE GUEST_SSID ISOLATE: the same sections after hostapd's
# radio lines (as s9's hostapd rows: hw_mode=g, WMM)
hostapd_conf() {
	umask 077
	{
		printf 'interface=wlan0\ndriver=nl80211\nctrl_interface=/run/hostapd\nhw_mode=g\nchannel=%s\nwmm_enabled=1\nbeacon_int=100\ndtim_period=2\n' "$CHANNEL"
		bss_sections "$2" "$3"
	} >"$1"
	umask 022
}

# brport_of IF: the bridge IF is a port of ("" if none)
brport_of() { _l=$(readlink "/sys/class/net/$1/brport/bridge" 2>/dev/null) && basename "$_l"; }
in_bridge() { [ "$(brport_of "$1")" = "$2" ]; }
# airq_multi_up LOGNAME CONF: airqd with CONF (its bridges name the TAPs'
# bridges), ready, both TAPs up in their bridges; rc 1 with the reason on
# stdout
airq_multi_up() {
	AIRQD_EXTRA="-config $2"
	airqd_start "$APPHY" "$1"
	AIRQD_EXTRA=
	airqd_wait_ready 30 || return 1
	for _t in "$TAPIF:br0" "$GUEST_IF:br1"; do
		wait_for 5 in_bridge "${_t%%:*}" "${_t#*:}" || { echo "${_t%%:*} not in ${_t#*:} ($(brport_of "${_t%%:*}"))"; return 1; }
		ip link set "${_t%%:*}" up
	done
}

# echos_of I|gh|host: the ICMP echo requests station I's, the guest host's
# or the host's stack received (/proc/net/snmp, Icmp InEchos: counted
# before any reply, so a request that arrives and cannot be answered still
# counts)
echos_of() {
	case $1 in
	host) cat /proc/net/snmp ;;
	gh) in_gh cat /proc/net/snmp ;;
	*) in_sta "$1" cat /proc/net/snmp ;;
	esac | awk '/^Icmp:/ { if (!c) { for (i = 2; i <= NF; i++) if ($i == "InEchos") c = i } else { print $c; exit } }'
}
# ratio A B: A/B to three places, n/a unless both are numbers and B is not 0
# (lib.sh's div counts a missing figure as 0)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b + 0 == 0) print "n/a"; else printf "%.3f", a / b}'; }
# tap_rx IF: the frames airqd wrote to its TAP IF (the kernel's receive
# count of the TAP)
tap_rx() { cat "/sys/class/net/$1/statistics/rx_packets"; }
# dev_counts: per BSS of airqd (airqctl dev), its name, the data frames it
# received from the air and the frames it wrote to its TAP
dev_counts() { ctl dev 2>/dev/null | awk '/^Interface /{n=$2} /rx packets/{r=$6; sub(",", "", r)} /wired in/{print n, r, $9}'; }
# dev_delta BEFORE AFTER: dev_counts' files as what each BSS took in and
# wrote out between them
dev_delta() { awk 'NR == FNR {r[$1] = $2; w[$1] = $3; next} {printf "%sbss %s: %d in from the air, %d out to its tap", s, $1, $2 - r[$1], $3 - w[$1]; s = "; "}' "$1" "$2"; }
