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
phy_index() { cat "/sys/class/ieee80211/$1/index"; }
perm_addr() { cat "/sys/class/ieee80211/$1/macaddress"; }

# Which optional flags this airqd accepts (from -h); -ifname is required.
airqd_flags() {
	_help=$(airqd -h 2>&1)
	AIRQD_OPT=
	echo "$_help" | grep -q -- '-control' && AIRQD_OPT="$AIRQD_OPT -control /run/airq/airqd.sock"
	echo "$_help" | grep -q -- '-log-level' && AIRQD_OPT="$AIRQD_OPT -log-level debug"
	echo "$_help" | grep -q -- '-ifname'
}

# airqd_start PHY LOGNAME: start airqd in the background (stderr+stdout to
# $LOGS/$S-LOGNAME.log); sets AIRQD_PID and AIRQD_LOG.
airqd_start() {
	airqd_flags
	AIRQD_LOG=$LOGS/$S-$2.log
	echo "+ airqd -phy $1 -ssid $SSID -channel $CHANNEL -tap $TAPIF -ifname $MONIF $AIRQD_OPT" >>"$AIRQD_LOG"
	# shellcheck disable=SC2086
	airqd -phy "$1" -ssid "$SSID" -channel "$CHANNEL" -tap "$TAPIF" -ifname "$MONIF" $AIRQD_OPT >>"$AIRQD_LOG" 2>&1 &
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

# finish: print the scenario's own failure count and exit with it
finish() {
	log "done, $FAILS failed checks"
	exit "$FAILS"
}
