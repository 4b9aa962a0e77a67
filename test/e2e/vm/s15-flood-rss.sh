#!/bin/sh
# s15-flood-rss: airqd's resident memory through repeated floods, on its
# shipped settings (issue 29).
#
# Three radios: airqd (wpa=2, WPA-PSK, CCMP) on the first, a wpa_supplicant
# station on the second, and on the third an active monitor (fmon0) that
# floods airqd: four times tools/e2eflood's admission flood (open
# authentications and association requests from 3,000 random addresses,
# 600 frames a second for 10 s, new addresses each time), then three times
# tools/e2einject msg2 (from fmon0's own address, which hwsim acknowledges:
# it associates, waits for message 1, and sends forged messages 2 with a
# random SNonce and MIC each, 1,000 a second for 10 s, associating again
# whenever airqd lets it go). airqd runs as shipped: no GOGC, no GOMEMLIMIT;
# its soft memory limit is the derived default it logs ("memory limit").
# After each flood the scenario prints airqd's VmRSS and CPU ticks (from
# /proc: reading them makes airqd no garbage); at the start, after the
# admission floods and at the end, also its live heap and the CPU its
# collector took (a /metrics scrape, read after VmRSS).
#
# Checks:
#   airqd_ready / associated  airqd up with wpa=2 and -metrics; the station
#                             COMPLETED
#   flood_N / msg2_N          each flood injected its frames without a
#                             write error and reached airqd (auth_not_acked
#                             grew; msg2: psk_mismatch grew)
#   rss_plateau               VmRSS after the fourth admission flood within
#                             5% of that after the second
#   rss_ceiling               every VmRSS sample below the README's ceiling:
#                             airqd's logged memory limit plus 16 MiB (the
#                             binary's pages outside the Go heap)
#   kept                      the station was never disconnected (no
#                             AP-STA-DISCONNECTED for it), is still
#                             COMPLETED and associated, and pings the host
# timeout: 600
. /e2e/lib.sh

PASS="airq e2e passphrase"
METRICS=127.0.0.1:9126
status() { ctl status 2>/dev/null | sed -n "s/^$1=//p"; }
metric() { awk -v n="$1" '$1 == n {print $2}' "$2"; }
rss_kb() { awk '$1 == "VmRSS:" {print $2}' "/proc/$AIRQD_PID/status"; }
# sample NAME [scrape]: print airqd's VmRSS and CPU ticks; RSS_NAME keeps
# the VmRSS (kB). With scrape, then also the live heap and the collector's
# CPU from /metrics.
sample() {
	_r=$(rss_kb)
	eval "RSS_$1=$_r"
	RSS_ALL="$RSS_ALL $_r"
	log "after $1: VmRSS $_r kB; airqd CPU ticks $(proc_ticks "$AIRQD_PID")"
	[ -n "${2:-}" ] || return 0
	_f=$LOGS/$S-metrics-$1.log
	wget -q -O "$_f" "http://$METRICS/metrics"
	log "after $1: live heap $(metric go_gc_heap_live_bytes "$_f" | awk '{printf "%d", $1 / 1024}') KiB;" \
		"GC CPU $(metric go_cpu_classes_gc_total_cpu_seconds_total "$_f") s, collections $(metric go_gc_duration_seconds_count "$_f");" \
		"heap in use $(metric go_memstats_heap_inuse_bytes "$_f" | awk '{printf "%d", $1 / 1024}') KiB," \
		"next collection at $(metric go_memstats_next_gc_bytes "$_f" | awk '{printf "%d", $1 / 1024}') KiB"
}

modprobe aesni_intel >/dev/null 2>&1
station_and_injector
FMON=$(cat /sys/class/net/fmon0/address)
ip link set lo up # the metrics listener is on 127.0.0.1
umask 077
printf 'wpa=2\nwpa_passphrase=%s\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\n' "$PASS" >/tmp/$S.conf
umask 022
AIRQD_EXTRA="-config /tmp/$S.conf -metrics $METRICS"
if airq_up airqd; then result airqd_ready pass "airqd pid $AIRQD_PID with wpa=2, shipped GC settings"
else result airqd_ready fail "airqd -config (wpa=2) not ready"; finish; fi
AIRQD_EXTRA=
LIMIT_MB=$(sed -n 's/.*msg="memory limit" limit_mb=\([0-9.]*\).*/\1/p' "$AIRQD_LOG" | head -n 1)
CEILING_KB=$(awk -v l="${LIMIT_MB:-0}" 'BEGIN{printf "%d", (l + 16) * 1024}')
log "memory limit ${LIMIT_MB:-not logged} MiB: ceiling $CEILING_KB kB"

printf '\tssid="%s"\n\tkey_mgmt=WPA-PSK\n\tpsk="%s"\n\tproto=RSN\n\tpairwise=CCMP\n\tgroup=CCMP\n\tscan_freq=%s' \
	"$SSID" "$PASS" "$FREQ" >/tmp/$S-body
wpas_start 1 "$(cat /tmp/$S-body)"
if wait_for 45 wpas_completed 1 && wait_for 5 airq_has_sta "$STA1"; then
	result associated pass "station 1 COMPLETED"
else
	result associated fail "station 1: $(wpas_state 1)"
	finish
fi
RSS_ALL=
sample start scrape

for n in 1 2 3 4; do
	log "admission flood $n"
	_nack0=$(status auth_not_acked)
	e2eflood -ifname fmon0 -bssid "$BSSID" -ssid "$SSID" -addrs 3000 -rate 600 -duration 10s \
		>"$LOGS/$S-flood$n.log" 2>&1
	sum=$(grep SUMMARY "$LOGS/$S-flood$n.log")
	errs=$(echo "$sum" | sed -n 's/.*errors=\([0-9]*\).*/\1/p')
	nack=$(($(status auth_not_acked) - _nack0))
	check "flood_$n" "$sum; auth_not_acked +$nack" sh -c "[ '$errs' = 0 ] && [ $nack -gt 0 ]"
	sample "flood$n" $([ "$n" = 4 ] && echo scrape)
done
for n in 1 2 3; do
	log "forged-message-2 flood $n"
	_mm0=$(status psk_mismatch)
	e2einject msg2 -ifname fmon0 -ta "$FMON" -bssid "$BSSID" -ssid "$SSID" -akm 2 -no-mfpc -rate 1000 -duration 10s \
		>"$LOGS/$S-msg2-$n.log" 2>&1
	sum=$(grep SUMMARY "$LOGS/$S-msg2-$n.log")
	errs=$(echo "$sum" | sed -n 's/.*errors=\([0-9]*\).*/\1/p')
	mm=$(($(status psk_mismatch) - ${_mm0:-0}))
	check "msg2_$n" "$sum; psk_mismatch +$mm" sh -c "[ '$errs' = 0 ] && [ $mm -gt 0 ]"
	sample "msg2_$n" $([ "$n" = 3 ] && echo scrape)
done

if [ -n "$RSS_flood2" ] && [ -n "$RSS_flood4" ] &&
	awk -v a="$RSS_flood2" -v b="$RSS_flood4" 'BEGIN{exit !(b <= a * 1.05 && b >= a * 0.95)}'; then
	result rss_plateau pass "VmRSS $RSS_start kB at start; $RSS_flood1 $RSS_flood2 $RSS_flood3 $RSS_flood4 after the admission floods; $RSS_msg2_1 $RSS_msg2_2 $RSS_msg2_3 after the forged-message-2 floods"
else
	result rss_plateau fail "VmRSS after the admission floods $RSS_flood1 $RSS_flood2 $RSS_flood3 $RSS_flood4 kB (want the fourth within 5% of the second)"
fi
over=$(echo "$RSS_ALL" | awk -v c="$CEILING_KB" '{for (i = 1; i <= NF; i++) if ($i >= c) n++} END{print n + 0}')
check rss_ceiling "VmRSS samples$RSS_ALL kB against a ceiling of $CEILING_KB kB (memory limit ${LIMIT_MB:-?} MiB + 16 MiB)" \
	sh -c "[ '$CEILING_KB' -gt 16384 ] && [ '$over' = 0 ]"

disc=$(grep -c "AP-STA-DISCONNECTED addr=$STA1" "$AIRQD_LOG")
if [ "$disc" = 0 ] && wpas_completed 1 && airq_has_sta "$STA1"; then
	result kept pass "station 1 never disconnected, COMPLETED and associated"
else
	result kept fail "station 1: $disc disconnections, $(wpas_state 1)"
fi
pings ping 1 up 10
stop "$(wpas_pid 1)"
airq_down
finish
