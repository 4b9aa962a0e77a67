#!/bin/sh
# s16-sae-flood-join: a new SAE station joins under an SAE commit flood
# (issue 31).
#
# The radios of s16-sae-flood: airqd (wpa_key_mgmt=SAE, ieee80211w=2,
# sae_pwe=0: hunting and pecking, group 19), a wpa_supplicant station, the
# attacker's radio with its pool of acknowledged addresses; tools/e2eflood
# -sae echoes every token. The station joins once, then for each flood it
# disconnects, forgets its PMKSA (pmksa_flush) and reconnects, so that it
# runs a whole SAE exchange against the flood's.
#
# Checks:
#   joined             the station completes before the floods
#   capacity           1,000 Commits a second for 8 s: the AP's Commits a
#                      second heard on the air are the exchanges airqd
#                      takes on under it (printed): the queue of received
#                      frames works one every 140 ms, and the SAE worker
#                      runs those whose token was echoed; the station's
#                      join time with it
#   join_half          a flood at half that rate (Commits a second):
#                      the station completes within 5 s of its reconnect
#   hostapd_join       hostapd on the same radio with the same
#                      configuration and the same 1,000-a-second flood
#                      (its tokens echoed, its Commits heard): its
#                      station's join time reported beside airqd's
# timeout: 240
. /e2e/lib.sh

PASS="airq e2e sae flood password"
POOL=8
POOL_BASE=02:5a:e0:00:00:00
SECS=8

stat_of() { ctl status 2>/dev/null | sed -n "s/^$1=//p"; }
sum_of() { sed -n "s/.* $2=\([0-9.]*\).*/\1/p" "$1"; }
joined() { wpas_completed 1 && sta_linked 1; }
# flood_join NAME RATE READY_CMD: flood at RATE Commits a second for SECS,
# and once READY_CMD says it reached the AP, a fresh SAE join; JOIN is its
# time in seconds, or "none" (with WHY)
flood_join() {
	wpa 1 disconnect >/dev/null
	wait_for 10 sta_unlinked 1
	wpa 1 pmksa_flush >/dev/null
	FLOG=$LOGS/$S-$1.log
	e2eflood -ifname fmon0 -bssid "$BSSID" -sae hnp -pool $POOL -pool-base $POOL_BASE -rate "$2" -duration ${SECS}s \
		>"$FLOG" 2>&1 &
	_fp=$!
	register $_fp
	JOIN=none WHY="the flood did not reach the AP in 5 s"
	if wait_for 5 "$3"; then
		_t=$(T)
		wpa 1 reconnect >/dev/null
		WHY="not joined $((SECS - 1)) s into the flood"
		wait_for $((SECS - 1)) joined && JOIN=$(since "$_t")
	fi
	[ "$JOIN" != none ] || wpa 1 reconnect >/dev/null
	wait_for 20 gone $_fp
	wait_for 30 joined # whatever the flood did, the station is back for the next
}

station_and_injector
attacker_pool $POOL $POOL_BASE
printf 'ctrl_interface=/run/wpas1\nsae_pwe=0\nnetwork={\n\tssid="%s"\n\tkey_mgmt=SAE\n\tsae_password="%s"\n\tieee80211w=2\n\tproto=RSN\n\tpairwise=CCMP\n\tgroup=CCMP\n\tscan_freq=%s\n}\n' \
	"$SSID" "$PASS" "$FREQ" >"/tmp/$S-wpas1.conf"
umask 077
CONF="wpa=2
rsn_pairwise=CCMP
wpa_key_mgmt=SAE
ieee80211w=2
sae_password=$PASS
sae_pwe=0"
echo "$CONF" >/tmp/$S.conf
umask 022
AIRQD_EXTRA="-config /tmp/$S.conf"
airq_up airqd || { result joined fail "airqd not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"; finish; }
wpas_start_sae() {
	nsenter -F -t "$(sta_pid 1)" -n wpa_supplicant -i wlan1 -D nl80211 -c "/tmp/$S-wpas1.conf" -t -d -f "$LOGS/$S-wpas1-$1.log" &
	WPAS_1=$!
	register $!
}
wpas_start_sae airqd
t=$(T)
if wait_for 60 joined; then result joined pass "COMPLETED in $(since "$t")s"
else result joined fail "station: $(wpas_state 1)"; finish; fi

# flood_started: the injector is sending (a flood below the token
# threshold leaves no other trace in airqd's counters)
flood_started() { grep -q '^STARTED' "$FLOG"; }
tokens0=
airq_tokens() { [ "$(stat_of sae_token_requested)" -gt "$tokens0" ]; }
log "1,000 Commits a second: the exchanges airqd takes on under it"
tokens0=$(stat_of sae_token_requested)
flood_join capacity 1000 airq_tokens
AIRQ_JOIN=$JOIN AIRQ_WHY=$WHY
F=$LOGS/$S-capacity.log
CAP=$(sum_of "$F" answered_per_s)
ctl status >"$LOGS/$S-status-capacity.log" 2>&1
c="$(grep -E '^sae_' "$LOGS/$S-status-capacity.log" | tr '\n' ' ')"
# the AP's Commits heard, not the rate's integer part: a worker that ran
# 6 exchanges in 8 s (0.7 a second) did run
if [ "$(sum_of "$F" answered)" -gt 0 ] 2>/dev/null; then
	result capacity pass "under 1,000 Commits a second the AP answered ${CAP} Commits a second (hunting and pecking, group 19); station join at 1,000/s: $([ "$AIRQ_JOIN" = none ] && echo "$AIRQ_WHY" || echo "$AIRQ_JOIN s"); $(grep SUMMARY "$F" | sed 's/^SUMMARY //'); airqd: $c"
else
	result capacity fail "no AP Commit heard: $(grep SUMMARY "$F" || tail -1 "$F"); airqd: $c"
fi

# half of it to a tenth (e2eflood takes fractions), at least 0.1
HALF=$(awk -v c="${CAP:-0}" 'BEGIN{h = int(c * 10 / 2) / 10; print (h < 0.1 ? 0.1 : h)}')
log "$HALF Commits a second: half that rate"
tokens0=$(stat_of sae_token_requested)
flood_join half "$HALF" flood_started
d="flood of $HALF Commits a second (half of the $CAP answered under 1,000): $([ "$JOIN" = none ] && echo "$WHY" || echo "joined in $JOIN s"); $(grep SUMMARY "$LOGS/$S-half.log" | sed 's/^SUMMARY //')"
if [ "$JOIN" != none ] && le "$JOIN" 5; then result join_half pass "$d (want <= 5 s)"
else result join_half fail "$d (want <= 5 s)"; fi
stop "$WPAS_1"
airq_down

log "hostapd, the same configuration and flood"
hapd_tokens() { grep -q 'SAE: Request anti-clogging token' "$LOGS/$S-hostapd.log"; }
if hostapd_up hostapd "$CONF"; then
	wpas_start_sae hostapd
	if wait_for 60 joined; then
		flood_join hostapd-flood 1000 hapd_tokens
		d="under 1,000 Commits a second: airqd's station $([ "$AIRQ_JOIN" = none ] && echo "$AIRQ_WHY" || echo "joined in $AIRQ_JOIN s"), hostapd's $([ "$JOIN" = none ] && echo "$WHY" || echo "joined in $JOIN s"); $(grep SUMMARY "$LOGS/$S-hostapd-flood.log" | sed 's/^SUMMARY //')"
		# a figure beside hostapd's, not a target: the check wants the
		# flood to have reached hostapd (its tokens and Commits heard)
		[ "$JOIN" != none ] && [ "$AIRQ_JOIN" != none ] && d="$d; airqd/hostapd $(div "$AIRQ_JOIN" "$JOIN")x"
		h=$(sum_of "$LOGS/$S-hostapd-flood.log" answered) k=$(sum_of "$LOGS/$S-hostapd-flood.log" tokens)
		check hostapd_join "$d" sh -c "[ '${h:-0}' -gt 0 ] && [ '${k:-0}' -gt 0 ]"
	else
		result hostapd_join fail "the station did not join hostapd before the flood: $(wpas_state 1)"
	fi
	stop "$WPAS_1"
else
	result hostapd_join fail "no AP-ENABLED: $(tail -3 "$LOGS/$S-hostapd.log" | tr '\n' ' ')"
fi
hostapd_down
finish
