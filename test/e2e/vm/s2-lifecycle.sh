#!/bin/sh
# s2-lifecycle: airqd's interfaces live exactly as long as airqd.
#
# Checks:
#   start               airqd logs "ready"; its monitor interface and TAP exist
#   sigterm_exit        SIGTERM: airqd exits with status 0 within 10 s
#   sigterm_cleanup     right after that exit, "iw dev" has no monitor interface
#                       and "ip link" no monitor interface and no TAP (airqd
#                       deletes both itself)
#   restart             airqd starts again on the same phy and logs "ready"
#   sigkill_cleanup     SIGKILL: the kernel removes the monitor interface
#                       (created with NL80211_ATTR_SOCKET_OWNER; cfg80211 does
#                       that asynchronously, so it is polled, 10 s limit) and the
#                       non-persistent TAP disappears with its last descriptor
#   start_after_kill    airqd starts a third time (nothing stale is left in the
#                       way) and exits 0 on SIGTERM
# timeout: 120
. /e2e/lib.sh

log "radios"
hwsim_reset 2 || { result setup fail "mac80211_hwsim radios=2"; finish; }
APPHY=$(phy_of wlan0)
iw dev wlan0 del || { result setup fail "iw dev wlan0 del"; finish; }
iw event -t -f >"$LOGS/$S-iw-event-root.log" 2>&1 &
register $!
ifaces() { echo "iw_dev=[$(iw dev | awk '/Interface/{printf "%s ", $2}')] links=[$(ip -o link show | awk -F': ' '{printf "%s ", $2}')]"; }
mon_present() { in_iw_dev "$MONIF" || link_exists "$MONIF"; }
none_left() { ! mon_present && ! link_exists "$TAPIF"; }

# up NAME: start airqd (log $S-NAME.log), wait for ready and both interfaces
up() {
	airqd_start "$APPHY" "$1"
	airqd_wait_ready 30 && wait_for 5 in_iw_dev "$MONIF" && wait_for 5 link_exists "$TAPIF"
}

log "start"
t=$(T)
if up airqd-1; then result start pass "ready in $(since "$t")s, $(ifaces)"
else result start fail "$(ifaces)"; fi

log "SIGTERM"
kill -TERM "$AIRQD_PID"
t=$(T)
if wait_for 10 gone "$AIRQD_PID"; then
	exit_s=$(since "$t")
	left=$(ifaces) # immediately: airqd must have deleted its interfaces before exiting
	reap "$AIRQD_PID"
	if [ "$RC" = 0 ]; then result sigterm_exit pass "exit 0 in ${exit_s}s"
	else result sigterm_exit fail "exit status $RC in ${exit_s}s"; fi
	if none_left; then result sigterm_cleanup pass "$left"
	else
		# Tell a missing delete apart from a late one.
		if wait_for 5 none_left; then late="gone $(since "$t")s after SIGTERM (not deleted by airqd before exit)"
		else late="still there 5 s later"; fi
		result sigterm_cleanup fail "at exit: $left; $late"
	fi
else
	result sigterm_exit fail "still running 10 s after SIGTERM"
	result sigterm_cleanup fail "skipped: airqd did not exit"
	kill -KILL "$AIRQD_PID"
	wait_for 5 none_left
fi

log "restart"
t=$(T)
if up airqd-2; then
	result restart pass "ready in $(since "$t")s, $(ifaces)"
	log "SIGKILL"
	kill -KILL "$AIRQD_PID"
	t=$(T)
	wait_for 5 gone "$AIRQD_PID"
	reap "$AIRQD_PID"
	if wait_for 10 none_left; then
		result sigkill_cleanup pass "monitor and TAP gone $(since "$t")s after SIGKILL, $(ifaces)"
	else
		result sigkill_cleanup fail "10 s after SIGKILL: $(ifaces)"
	fi
else
	result restart fail "$(ifaces)"
	result sigkill_cleanup fail "skipped: airqd did not restart"
	stop "$AIRQD_PID"
fi

log "start after SIGKILL"
t=$(T)
if up airqd-3; then
	ready_s=$(since "$t")
	kill -TERM "$AIRQD_PID"
	if wait_for 10 gone "$AIRQD_PID"; then
		reap "$AIRQD_PID"
		if [ "$RC" = 0 ]; then result start_after_kill pass "ready in ${ready_s}s, exit 0 on SIGTERM"
		else result start_after_kill fail "ready in ${ready_s}s, exit status $RC on SIGTERM"; fi
	else
		result start_after_kill fail "still running 10 s after SIGTERM"
		stop "$AIRQD_PID"
	fi
else
	result start_after_kill fail "$(ifaces)"
	stop "$AIRQD_PID"
fi
dmesg_mark
finish
