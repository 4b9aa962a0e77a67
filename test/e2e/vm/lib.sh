# lib.sh - helpers for the in-VM scenarios (busybox ash), sourced by each
# /e2e/<scenario>.sh; the scenario's name S is its file name.
#
# Results: "RESULT name=$S.<check> pass|fail <detail>" on the console and in
# /tmp/results.log. Logs: /tmp/logs/$S-*.log (copied to the host share).
# Every background process is registered in /tmp/e2e.pids so that /init can
# reap it if the scenario dies.

S=$(basename "$0" .sh)         # the scenario's name, from its file name
LOGS=/tmp/logs
RESULTS=/tmp/results.log
MONIF=${MONIF:-mon0}          # airqd's monitor interface (-ifname)
TAPIF=${TAPIF:-ap0}           # airqd's TAP (-tap)
SSID=${SSID:-airq-e2e}
CHANNEL=1
FREQ=2412
HOST_IP=10.0.0.1              # the host behind the TAP
STA_IP=10.0.0.2
FAILS=0

T() { cut -d' ' -f1 /proc/uptime; } # seconds since boot, 10 ms resolution
since() { awk -v a="$1" -v b="$(T)" 'BEGIN{printf "%.2f", b-a}'; }
log() { echo "=== [$(T)s] $S: $*"; }

# result CHECK pass|fail DETAIL...
result() {
	_name=$1 _st=$2
	shift 2
	[ "$_st" = pass ] || FAILS=$((FAILS + 1))
	echo "RESULT name=$S.$_name $_st $*" | tee -a "$RESULTS"
}
# skip CHECK DETAIL: a check that cannot be made in this run; it fails the run
# unless run.sh's EXPECTED_SKIPS lists it (then it is printed with its
# reason, counted neither way). A missing airqd flag is a failure, not a skip.
skip() { echo "RESULT name=$S.$1 skip $2" | tee -a "$RESULTS"; }
# check CHECK DETAIL CMD...: pass if CMD succeeds
check() {
	_c=$1 _d=$2
	shift 2
	if "$@"; then result "$_c" pass "$_d"; else result "$_c" fail "$_d"; fi
}

# wait_for SECONDS CMD...: poll CMD every 50 ms until it succeeds; rc 1 on timeout
wait_for() {
	_limit=$1
	shift
	_end=$(awk -v a="$(T)" -v l="$_limit" 'BEGIN{print a + l}')
	while ! "$@" >/dev/null 2>&1; do
		[ "$(awk -v e="$_end" -v b="$(T)" 'BEGIN{print (b > e)}')" = 1 ] && return 1
		usleep 50000
	done
}

register() { echo "$1" >>/tmp/e2e.pids; }
# gone PID: the process has exited (a zombie counts as gone)
gone() { [ ! -e "/proc/$1" ] || [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = Z ]; }
# stop PID [SECONDS]: SIGTERM, wait, SIGKILL if needed
stop() {
	[ -n "$1" ] || return 0
	kill "$1" 2>/dev/null
	wait_for "${2:-5}" gone "$1" || kill -KILL "$1" 2>/dev/null
	wait_for 2 gone "$1"
}

# dmesg_mark: append the kernel log so far to $LOGS/$S-dmesg.log and clear it
dmesg_mark() { dmesg -c >>"$LOGS/$S-dmesg.log"; }

# hwsim_reset N: (re)load mac80211_hwsim with N radios; wlan0..wlanN-1 appear.
# Wiphy indices keep counting across reloads, so look phys up by netdev.
hwsim_reset() {
	modprobe -a cfg80211 mac80211 || return 1
	if [ -d /sys/module/mac80211_hwsim ]; then rmmod mac80211_hwsim || return 1; fi
	modprobe mac80211_hwsim radios="$1" || return 1
	wait_for 10 test -e "/sys/class/net/wlan$(($1 - 1))"
}
phy_of() { cat "/sys/class/net/$1/phy80211/name"; }
# injector_up: the third radio (wlan2) as the active monitor fmon0 on
# CHANNEL, from which a scenario injects forged frames; a failure fails the
# setup and ends the scenario
injector_up() {
	_phy=$(phy_of wlan2)
	iw dev wlan2 del
	iw phy "$_phy" interface add fmon0 type monitor flags active &&
		ip link set fmon0 up && iw dev fmon0 set channel "$CHANNEL" ||
		{ result setup fail "injecting monitor fmon0 on $_phy"; finish; }
}
# attacker_pool N BASE: N more active monitors (fpool1..N) on fmon0's
# radio, with the addresses BASE+1..N: the radio acknowledges frames to
# them, as an attacker's card acknowledges the addresses it floods from
attacker_pool() {
	_fphy=$(phy_of fmon0)
	for _i in $(seq 1 "$1"); do
		_a=$(echo "$2" | awk -F: -v i="$_i" '{printf "%s:%s:%s:%s:%s:%02x", $1, $2, $3, $4, $5, i}')
		iw phy "$_fphy" interface add "fpool$_i" type monitor flags active && ip link set "fpool$_i" address "$_a" &&
			ip link set "fpool$_i" up || { result setup fail "pool monitor fpool$_i ($_a)"; finish; }
	done
}
phy_index() { cat "/sys/class/ieee80211/$1/index"; }
perm_addr() { cat "/sys/class/ieee80211/$1/macaddress"; }

# airqd_flags: the flags every start passes (AIRQD_OPT); rc 1, naming the
# flag, if airqd -h lacks -ifname, -control or -log-level
airqd_flags() {
	AIRQD_OPT="-control /run/airq/airqd.sock -log-level debug"
	_help=$(airqd -h 2>&1)
	for _f in ifname control log-level; do
		echo "$_help" | grep -qE "^  -$_f( |\$)" || { echo "airqd -h lists no -$_f"; return 1; }
	done
}

# airqd_start PHY LOGNAME: start airqd in the background (stderr+stdout to
# $LOGS/$S-LOGNAME.log); sets AIRQD_PID and AIRQD_LOG.
airqd_start() {
	airqd_flags
	AIRQD_LOG=$LOGS/$S-$2.log
	echo "+ ${AIRQD_WRAP:+$AIRQD_WRAP }airqd -phy $1 -ssid $SSID -channel $CHANNEL -tap $TAPIF -ifname $MONIF $AIRQD_OPT${AIRQD_EXTRA:+ $AIRQD_EXTRA}" >>"$AIRQD_LOG"
	AIRQD_OPT="$AIRQD_OPT${AIRQD_EXTRA:+ $AIRQD_EXTRA}" # scenario-specific flags
	# AIRQD_WRAP: a command that execs airqd in place (e2edrop: non-root)
	# shellcheck disable=SC2086
	$AIRQD_WRAP airqd -phy "$1" -ssid "$SSID" -channel "$CHANNEL" -tap "$TAPIF" -ifname "$MONIF" $AIRQD_OPT >>"$AIRQD_LOG" 2>&1 &
	AIRQD_PID=$!
	register $AIRQD_PID
}
airqd_is_ready() { grep -qw ready "$AIRQD_LOG"; }
# airqd_wait_ready SECONDS: wait for the "ready" line; fail at once if airqd exits
airqd_wait_ready() {
	_end=$(awk -v a="$(T)" -v l="$1" 'BEGIN{print a + l}')
	while ! airqd_is_ready; do
		gone "$AIRQD_PID" && { echo "airqd exited before ready:"; tail -n 20 "$AIRQD_LOG"; return 1; }
		[ "$(awk -v e="$_end" -v b="$(T)" 'BEGIN{print (b > e)}')" = 1 ] && { echo "airqd not ready after $1 s:"; tail -n 20 "$AIRQD_LOG"; return 1; }
		usleep 50000
	done
}
# reap PID: collect the exit status of our child PID (after it is gone) in RC
reap() { wait "$1"; RC=$?; }

# iw_dev_block IF: the lines of "iw dev" describing interface IF
iw_dev_block() {
	iw dev | awk -v ifn="$1" '
		/^phy#/ {phy=$0; inb=0}
		/^\tInterface / {inb = ($2 == ifn); if (inb) print phy}
		inb {print}'
}
link_exists() { ip link show "$1" >/dev/null 2>&1; }
in_iw_dev() { iw dev | grep -q "Interface $1\$"; }

# Station network namespace: a sleeper holds it; the whole wiphy moves in.
# Wait until the sleeper really is in a new namespace before moving (else
# the move lands in the root namespace).
netns_new() {
	unshare -n sleep 100000 &
	NSPID=$!
	register $NSPID
	wait_for 5 sh -c "[ \"\$(readlink /proc/$NSPID/ns/net)\" != \"\$(readlink /proc/1/ns/net)\" ]"
}
# sta CMD...: run CMD in the station's namespace (foreground only: in the
# background, $! would be a subshell; use nsenter -F directly there)
sta() { nsenter -F -t "$NSPID" -n "$@"; } # -F: exec, do not fork

# pingsum FILE -> "tx=20 rx=20 loss=0% rtt=min/avg/max ms"
pingsum() {
	awk '/packets transmitted/{tx=$1; rx=$4; for(i=1;i<=NF;i++) if($i ~ /%/) loss=$i}
	     /round-trip/{rtt=$4}
	     NR==1{first=$0}
	     END{if (tx == "") {printf "no summary: %s", first; exit}
	         printf "tx=%s rx=%s loss=%s rtt=%s ms", tx, rx, loss, (rtt==""?"none":rtt)}' "$1"
}
ping_ok() { grep -q "^$2 packets transmitted, $2 packets received, 0% packet loss" "$1"; }

############################################################################
# Helpers for the suite's multi-station scenarios (s3 and later).
CTLSOCK=/run/airq/airqd.sock
ctl() { airqctl -socket "$CTLSOCK" "$@"; }
has_flag() { airqd -h 2>&1 | grep -qE "^  -$1( |\$)"; }
# ge A B / le A B: float comparisons for checks
# (a non-number, such as "n/a", fails both)
ge() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(a ~ /^[0-9.]+$/ && a + 0 >= b + 0)}'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(a ~ /^[0-9.]+$/ && a + 0 <= b + 0)}'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN{if (b + 0 == 0) print "n/a"; else printf "%.3f", a / b}'; }

# ap_radios N: N hwsim radios; wlan0's phy is the AP's (APPHY, BSSID), its
# default interface deleted (it has the BSSID and would ACK in airqd's place)
ap_radios() {
	hwsim_reset "$1" || return 1
	APPHY=$(phy_of wlan0)
	BSSID=$(perm_addr "$APPHY")
	iw dev wlan0 del
}

# host_side: the host behind airqd: 10.0.0.1 on the TAP, or on bridge $BRIDGE
# (created here; airqd joins it with -bridge) when BRIDGE is set
host_side_pre() {
	[ -n "${BRIDGE:-}" ] || return 0
	link_exists "$BRIDGE" || brctl addbr "$BRIDGE" || return 1
	ip addr flush dev "$BRIDGE"
	ip addr add "$HOST_IP/24" dev "$BRIDGE" && ip link set "$BRIDGE" up
}
host_side_post() {
	wait_for 5 link_exists "$TAPIF" || return 1
	if [ -n "${BRIDGE:-}" ]; then
		ip link set "$TAPIF" up && wait_for 5 sh -c "[ -e /sys/class/net/$TAPIF/brport ]"
	else
		ip addr flush dev "$TAPIF"
		ip addr add "$HOST_IP/24" dev "$TAPIF" && ip link set "$TAPIF" up
	fi
}
# airq_up LOGNAME: airqd on APPHY (flags: AIRQD_EXTRA, plus -bridge when
# BRIDGE is set), ready, host side configured
airq_up() {
	host_side_pre || return 1
	_extra=$AIRQD_EXTRA
	[ -n "${BRIDGE:-}" ] && AIRQD_EXTRA="$AIRQD_EXTRA -bridge $BRIDGE"
	airqd_start "$APPHY" "$1"
	AIRQD_EXTRA=$_extra
	airqd_wait_ready 30 && host_side_post && mon_mtu_knob
}
airq_down() { stop "$AIRQD_PID" 10; }
# E2E_MON_MTU (kernel command line airq.monmtu=N): a diagnostic knob that
# raises the monitor's MTU after airqd is up; off by default (the suite tests
# airqd as it is)
MON_MTU=$(sed -n 's/.*airq\.monmtu=\([0-9]*\).*/\1/p' /proc/cmdline)
# The accelerator and the guest's clock (run.sh): "icount" counts
# instructions, so the figures repeat and their floors are asserted; "host"
# (KVM, E2E_ICOUNT=off) moves with the host's load: figures are reported only.
GUEST_ACCEL=$(sed -n 's/.*airq\.accel=\([a-z]*\).*/\1/p' /proc/cmdline)
GUEST_CLOCK=$(sed -n 's/.*airq\.clock=\([a-z]*\).*/\1/p' /proc/cmdline)
figures_asserted() { [ "$GUEST_CLOCK" != host ]; }
mon_mtu_knob() { [ -z "$MON_MTU" ] || { ip link set "$MONIF" mtu "$MON_MTU" && echo "DIAGNOSTIC: $MONIF mtu set to $MON_MTU by E2E_MON_MTU"; }; }

# Stations: station I uses radio wlanI, moved with its wiphy into its own
# network namespace (NS_I), address 10.0.0.(10+I), MAC in MAC_I.
sta_ip() { echo "10.0.0.$((10 + $1))"; }
sta_init() {
	netns_new || return 1
	eval "NS_$1=$NSPID"
	eval "MAC_$1=$(cat "/sys/class/net/wlan$1/address")"
	eval "PHY_$1=$(phy_of "wlan$1")" # root-namespace sysfs: read it before the move
	# STA_MON=1: also a plain monitor smonI on the radio (see sta_monitor)
	[ -z "${STA_MON:-}" ] || iw phy "$(phy_of "wlan$1")" interface add "smon$1" type monitor || return 1
	iw phy "$(phy_of "wlan$1")" set netns "$NSPID" || return 1
	wait_for 5 nsenter -F -t "$NSPID" -n ip link show "wlan$1" || return 1
	nsenter -F -t "$NSPID" -n ip link set lo up
	nsenter -F -t "$NSPID" -n ip addr add "$(sta_ip "$1")/24" dev "wlan$1"
	nsenter -F -t "$NSPID" -n iw event -t -f >"$LOGS/$S-iw-event-sta$1.log" 2>&1 &
	register $!
}
sta_pid() { eval "echo \$NS_$1"; }

# station_and_injector: three radios (the AP's, station 1's and the
# attacker's, whose monitor injector_up brings up) and station 1; STA1 is its
# address. A failure ends the scenario.
station_and_injector() {
	log "radios"
	ap_radios 3 || { result setup fail "mac80211_hwsim radios=3"; finish; }
	sta_init 1 || { result setup fail "station namespace"; finish; }
	STA1=$(sta_mac 1)
	injector_up
}
# one_station: two radios (the AP's and station 1's) and station 1 (with
# STA_MON=1 also its monitor); STA is its address. A failure ends the
# scenario.
one_station() {
	log "radios"
	ap_radios 2 || { result setup fail "mac80211_hwsim radios=2"; finish; }
	sta_init 1 || { result setup fail "station namespace"; finish; }
	STA=$(sta_mac 1)
}
sta_mac() { eval "echo \$MAC_$1"; }
# in_sta I CMD...: run CMD (foreground) in station I's namespace
in_sta() { _n=$(sta_pid "$1"); shift; nsenter -F -t "$_n" -n "$@"; }

# wpas_start I [NETWORK-LINES]: wpa_supplicant for station I (open network
# $SSID on $FREQ unless NETWORK-LINES replaces the body); WPAS_I is its PID
wpas_start() {
	_body=${2:-"	ssid=\"$SSID\"
	key_mgmt=NONE
	scan_freq=$FREQ"}
	printf 'ctrl_interface=/run/wpas%s\nnetwork={\n%s\n}\n' "$1" "$_body" >"/tmp/$S-wpas$1.conf"
	nsenter -F -t "$(sta_pid "$1")" -n wpa_supplicant -i "wlan$1" -D nl80211 -c "/tmp/$S-wpas$1.conf" \
		-t -d -f "$LOGS/$S-wpas$1.log" &
	eval "WPAS_$1=$!"
	register $!
}
wpas_pid() { eval "echo \$WPAS_$1"; }
wpa() { _i=$1; shift; in_sta "$_i" wpa_cli -p "/run/wpas$_i" -i "wlan$_i" "$@"; }
wpas_state() { wpa "$1" status 2>/dev/null | sed -n 's/^wpa_state=//p'; }
wpas_completed() { [ "$(wpas_state "$1")" = COMPLETED ]; }
sta_linked() { in_sta "$1" iw dev "wlan$1" link 2>/dev/null | grep -q "Connected to $BSSID"; }
sta_unlinked() { in_sta "$1" iw dev "wlan$1" link 2>/dev/null | grep -q "Not connected"; }
# iwc I: connect station I with "iw connect" (cfg80211's own SME)
iwc() {
	in_sta "$1" ip link set "wlan$1" up
	in_sta "$1" iw dev "wlan$1" connect "$SSID" "$FREQ" "$BSSID"
}
# airq_has_sta MAC / airq_lacks_sta MAC: airqd has MAC associated / does
# not (its table may still list an authenticated-only station)
airq_has_sta() { ctl station get "$1" 2>/dev/null | grep -q 'associated:[[:space:]]*yes'; }
airq_lacks_sta() { ctl status >/dev/null 2>&1 && ! airq_has_sta "$1"; }

# pings NAME I DIR COUNT [INTERVAL [SIZE]]: DIR up (station -> host) or down
# (host -> station); COUNT pings of SIZE payload bytes (56), 0% loss wanted;
# result check NAME
pings() {
	_f=$LOGS/$S-ping-$1.log
	_w=$(awk -v c="$4" -v i="${5:-0.2}" 'BEGIN{printf "%d", c * i + 10}')
	if [ "$3" = up ]; then
		in_sta "$2" ping -c "$4" -i "${5:-0.2}" -s "${6:-56}" -W 2 -w "$_w" "$HOST_IP" >"$_f" 2>&1
	else
		ping -c "$4" -i "${5:-0.2}" -s "${6:-56}" -W 2 -w "$_w" "$(sta_ip "$2")" >"$_f" 2>&1
	fi
	_d="size=${6:-56} $(pingsum "$_f")"
	if ping_ok "$_f" "$4"; then result "$1" pass "$_d"; else result "$1" fail "$_d"; fi
}
# rtt_of FILE -> "avg max" in ms
rtt_of() { awk -F'[/ ]' '/round-trip/{print $(NF-2), $(NF-1)}' "$1"; }

# iperf3: one server per station (port 5200+I) on the host side
iperf_servers() {
	for _i in "$@"; do
		iperf3 -s -p $((5200 + _i)) >"$LOGS/$S-iperf3-server$_i.log" 2>&1 &
		register $!
	done
	for _i in "$@"; do wait_for 10 sh -c "netstat -ltn | grep -q ':$((5200 + _i)) '" || return 1; done
}
# iperf_bg NAME I SECS ARGS...: iperf3 client in station I's namespace, in the
# background (IPERF_PID); output in $LOGS/$S-iperf3-NAME.log
iperf_bg() {
	_f=$LOGS/$S-iperf3-$1.log _i=$2 _t=$3
	shift 3
	timeout -s KILL $((_t + 30)) nsenter -F -t "$(sta_pid "$_i")" -n \
		iperf3 -c "$HOST_IP" -p $((5200 + _i)) -t "$_t" -f m --connect-timeout 5000 "$@" >"$_f" 2>&1 &
	IPERF_PID=$!
	register $!
}
# iperf_sum NAME -> "MBITS MBYTES LOSS%" from the receiver's summary line
iperf_sum() {
	awk '/receiver$/ {
		for (i = 2; i <= NF; i++) {
			if ($i == "Mbits/sec") r = $(i-1)
			if ($i == "Bytes") b = $(i-1) / 1048576; if ($i == "KBytes") b = $(i-1) / 1024
			if ($i == "MBytes") b = $(i-1); if ($i == "GBytes") b = $(i-1) * 1024
			if ($i ~ /^\([0-9.]+%\)$/) { l = $i; gsub(/[()%]/, "", l) } }
	} END { if (r == "") print "0 0 100"; else printf "%s %.3f %s\n", r, b, (l == "" ? 0 : l) }' "$LOGS/$S-iperf3-$1.log"
}
# Guest CPU per TCP segment (s9 and its variants): the whole vCPU's busy
# time from /proc/stat (clock ticks of 10 ms) over the measured part of an
# iperf3 run, divided by the segments of SEG payload octets the receiver
# counted. The vCPU is busy throughout in both APs' runs (idle is printed),
# so under the counted clock this is the length of each AP's path per
# segment: user = user + nice, system = system + irq, softirq.
SEG=1448
cpu_ticks() { awk '/^cpu /{print $2 + $3, $4 + $7, $8, $5 + $6; exit}' /proc/stat; }
# per_seg "U0 S0 Q0 I0" "U1 S1 Q1 I1" MiB: user system softirq total (µs
# per segment) and idle ticks
per_seg() {
	awk -v a="$1" -v b="$2" -v mb="$3" -v seg="$SEG" 'BEGIN{
		split(a, x, " "); split(b, y, " "); n = mb * 1048576 / seg
		if (n <= 0) { print "n/a n/a n/a n/a", y[4] - x[4]; exit }
		u = (y[1] - x[1]) * 10000 / n; s = (y[2] - x[2]) * 10000 / n; q = (y[3] - x[3]) * 10000 / n
		printf "%.1f %.1f %.1f %.1f %d\n", u, s, q, u + s + q, y[4] - x[4] }'
}
# iperf_check NAME MIN_MBITS [MAX_LOSS]: result line for one finished run;
# with the host's clock (figures_asserted fails) the floor is only reported:
# the run must still carry data within the loss limit
iperf_check() {
	set -- "$1" "$2" "${3:-100}" $(iperf_sum "$1")
	_d="${4} Mbit/s, ${5} MB, loss ${6}%"
	grep -q 'iperf3: error' "$LOGS/$S-iperf3-$1.log" && _d="$_d: $(grep -m1 'iperf3: error' "$LOGS/$S-iperf3-$1.log")"
	_fl=$2 _fd="floor $2 Mbit/s"
	figures_asserted || _fl=0.001 _fd="floor $2 Mbit/s not asserted with the host's clock, data wanted"
	if ge "$4" "$_fl" && le "$6" "$3"; then result "$1" pass "$_d ($_fd, max loss $3%)"
	else result "$1" fail "$_d ($_fd, max loss $3%)"; fi
}
# proc_ticks PID -> "utime stime" (clock ticks)
proc_ticks() { awk '{print $14, $15}' "/proc/$1/stat" 2>/dev/null; }

# sta_monitor I: a plain monitor (smonI) on station I's radio, in its
# namespace: the receiver's view of every frame on its channel, with the rate
# mac80211 received it at in the radiotap header (HT MCS, VHT). A plain
# monitor is not added to the driver, so it changes nothing on the air.
# It is created before the radio moves into the namespace (sta_init with
# STA_MON=1: the move takes every interface of the wiphy along); this brings
# it up.
sta_monitor() {
	wait_for 5 in_sta "$1" ip link show "smon$1" && in_sta "$1" ip link set "smon$1" up
}
# reg_world: back to the world regulatory domain (a scenario that set a
# country leaves it set for the whole kernel otherwise)
reg_world() {
	iw reg set 00
	wait_for 5 sh -c "iw reg get | grep -q '^country 00'"
}
# wpas_body FREQ: a wpa_supplicant network block for $SSID on FREQ
wpas_body() {
	printf '\tssid="%s"\n\tkey_mgmt=NONE\n\tscan_freq=%s' "$SSID" "$1"
}

# reconnect_median LOG: the median of wpa_supplicant's own RECONNECT ->
# CTRL-EVENT-CONNECTED times in its debug LOG (-t), in seconds
reconnect_median() {
	awk '
		/Control interface command .RECONNECT/ { t0 = $1 + 0 }
		/CTRL-EVENT-CONNECTED/ && t0 { d[++n] = $1 - t0; t0 = 0 }
		END { if (n == 0) { print "0"; exit }
		      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (d[j] < d[i]) { x = d[i]; d[i] = d[j]; d[j] = x }
		      printf "%.3f", d[int((n + 1) / 2)] }' "$1"
}
# hostapd_up NAME LINES: hostapd (the kernel's AP mode) on a new wlan0 of
# the AP's phy, SSID and channel as airqd's, with LINES; HAPD is its PID,
# its log $LOGS/$S-NAME.log; rc 1 without AP-ENABLED in 30 s
hostapd_up() {
	iw phy "$APPHY" interface add wlan0 type managed
	printf 'interface=wlan0\ndriver=nl80211\nctrl_interface=/run/hostapd\nssid=%s\nhw_mode=g\nchannel=%s\nwmm_enabled=1\n%s\n' \
		"$SSID" "$CHANNEL" "$2" >"/tmp/$S-$1.conf"
	hostapd -t -d "/tmp/$S-$1.conf" >"$LOGS/$S-$1.log" 2>&1 &
	HAPD=$!
	register $HAPD
	wait_for 30 grep -q AP-ENABLED "$LOGS/$S-$1.log"
}
# hostapd_down: stop hostapd and remove its wlan0
hostapd_down() {
	stop "$HAPD"
	wait_for 5 link_exists wlan0 && iw dev wlan0 del
}

# finish: print the scenario's own failure count and exit with it
finish() {
	log "done, $FAILS failed checks"
	exit "$FAILS"
}
