#!/bin/sh
# s16-sae-flood: an SAE commit flood from an attacker's radio while a WPA3
# station carries iperf3 (issue 31).
#
# Three radios: airqd (wpa_key_mgmt=SAE, ieee80211w=2, group 19, on its
# shipped settings: no GOGC), a wpa_supplicant station, and the attacker's
# radio: fmon0, an active monitor that injects, and POOL more active
# monitors whose addresses make the radio acknowledge the AP's frames to
# them. tools/e2eflood -sae sends 1,000 Commits a second for 10 s in group
# 19 (a scalar in range, an element on the curve), from the pool and from
# random addresses in turn, and echoes every anti-clogging token the AP
# hands out from any of them, as an attacker in monitor mode can. The
# same injection to another BSSID, which airqd ignores, is the baseline:
# the injector's own air and CPU are in both runs, so the ratio is
# airqd's. Once with sae_pwe=0 (hunting and pecking, the expensive
# method: 40 iterations a Commit) and once with sae_pwe=1.
#
# Checks, for pwe in 0 and 1:
#   pweN.joined        the station completes SAE before the floods
#   pweN.baseline      iperf3 TCP down 10 s beside the foreign injection
#   pweN.flood         the flood reached airqd's SAE (tokens requested and
#                      echoed, Commits dropped with the queue of received
#                      frames full): e2eflood's summary, the AP's Commits
#                      a second (the queue works a frame every 140 ms
#                      under the flood, a Commit with an echoed token
#                      only now and then among them)
#   pweN.tput_kept     iperf3 down during the flood >= 0.8 x the
#                      baseline (reported, not asserted, on the host's
#                      clock)
#   pweN.beacons_sent  airqd's beacon_missed_intervals unchanged
#   pweN.beacons_on_time no gap over 1.5 intervals between airqd's
#                      beacons on the air during the flood (e2esniff on
#                      hwsim0: the kernel's receive time of each, none
#                      dropped), at least 9 a second; the detail adds
#                      airqd's count and lateness, the station's count of
#                      beacons received, and how long airqd's threads ran
#                      and waited for the CPU (schedstat)
#   pweN.loop_latency  (*) every sample of airq_loop_latency_seconds
#                      (/metrics, 50 a second) taken during the flood
#                      within 5 ms
#   pweN.ping          the station still pings the host afterwards
#   pweN.rss           airqd's VmRSS within 5 % of its VmRSS before the
#                      flood 10 s after the flood's end, once the SAE
#                      worker's release is due (5 s after the flood's last
#                      sign it collects and gives the free heap back); the
#                      detail adds VmRSS just after the flood
#   pweN.quiet_loop_latency (*) the flood again for 5 s with the station
#                      idle: every loop latency sample within 5 ms
#
# (*) targets airqd does not meet in the VM today: a check that is not met
# reports its figure as a skip, which run.sh's EXPECTED_SKIPS explains.
# Every detail gives the baseline's figure beside the flood's.
# timeout: 300
. /e2e/lib.sh

PASS="airq e2e sae flood password"
METRICS=127.0.0.1:9125
PPROF=127.0.0.1:9126
POOL=8
POOL_BASE=02:5a:e0:00:00:00
FOREIGN=02:ff:00:00:00:01
RATE=1000
SECS=10
QUIET=5

stat_of() { ctl status 2>/dev/null | sed -n "s/^$1=//p"; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$AIRQD_PID/status"; }
# rss_parts: VmRSS's anonymous and file-backed parts (the binary's pages)
rss_parts() { awk '/^Rss(Anon|File):/ {printf "%s%s %s kB", s, $1, $2; s = ", "}' "/proc/$AIRQD_PID/status"; }
scrape() { wget -q -O "$1" "http://$METRICS/metrics"; }
# heap NAME: airqd's heap profile after a collection, kept in the logs
# (go tool pprof -sample_index=inuse_space -top -base BEFORE AFTER)
heap() { wget -q -O "$LOGS/$S-$N-heap-$1.pb.gz" "http://$PPROF/debug/pprof/heap?gc=1"; }
# lat FILE -> "COUNT WITHIN_5MS": the loop latency samples, and those <= 5 ms
lat() { awk '$1 == "airq_loop_latency_seconds_count" {c = $2} $1 == "airq_loop_latency_seconds_bucket{le=\"0.005\"}" {w = $2}
	END {print c + 0, w + 0}' "$1"; }
# lat_max A B -> the upper bound of the largest sample between scrapes A and B
lat_max() {
	awk 'FNR == 1 {f++} $1 ~ /^airq_loop_latency_seconds_bucket/ {
		le = $1; sub(/.*le="/, "", le); sub(/".*/, "", le); n[f, le] = $2; les[le] = 1 }
		END { m = "none"; for (le in les) if (n[2, le] - n[1, le] < n[2, "+Inf"] - n[1, "+Inf"] && (m == "none" || le + 0 > m + 0) && le != "+Inf") m = le
		      if (m == "none") { print "<= " (n[2, "+Inf"] - n[1, "+Inf"] > 0 ? "0.00025" : "n/a") " s" } else print "> " m " s" }' "$1" "$2"
}
# gaps T0 T1 -> "BEACONS GAPS_OVER_1.5_INTERVALS MAX_GAP_MS" of airqd's
# beacons on the air (e2esniff on hwsim0) between T0 and T1
gaps() {
	awk -v a="$1" -v b="$2" -v bss="bssid=$BSSID" '$2 == "beacon" && $3 == bss && $1 >= a && $1 <= b {
		if (p != "") { g = ($1 - p) * 1000; if (g > m) m = g; if (g > 153.6) n++ } p = $1; c++ }
		END { printf "%d %d %.0f", c, n, m }' "$LOGS/$S-air.log"
}
# sniff_drops T0 T1: the frames the kernel dropped for e2esniff's socket
# between T0 and T1 (its "drops" lines, each for the second before it)
sniff_drops() {
	awk -v a="$1" -v b="$2" '$2 == "drops" && $1 >= a && $1 <= b + 1.5 {sub(/^n=/, "", $3); n += $3} END {print n + 0}' "$LOGS/$S-air.log"
}
air_gaps() {
	set -- "$1" "$2" $(gaps "$1" "$2")
	echo "$3 beacons in $(awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1f", b - a}') s, max gap $5 ms, $4 gaps > 1.5 intervals (the sniffer dropped $(sniff_drops "$1" "$2") frames)"
}
# bsnap FILE: airqd's beacon counters, the station's count of beacons
# received, and the CPU time airqd's threads ran and waited runnable
# (schedstat, ns) with their timeslices
bsnap() {
	{
		ctl status 2>/dev/null | grep -E '^beacon(s_emitted|_emit_late_sum_us|_emit_late_max_us)='
		echo "sta_beacon_rx=$(in_sta 1 iw dev wlan1 station dump 2>/dev/null | sed -n 's/^[[:space:]]*beacon rx:[[:space:]]*//p' | head -1)"
		cat /proc/"$AIRQD_PID"/task/*/schedstat 2>/dev/null | awk '{r += $1; w += $2; n += $3} END {print "sched_run_ns=" r + 0; print "sched_wait_ns=" w + 0; print "sched_slices=" n + 0}'
	} >"$1"
}
# bdiff A B: what the beacons and the schedule did between snapshots A and B
bdiff() {
	awk -F= 'FNR == 1 {f++} {v[f, $1] = $2}
		END { n = v[2, "beacons_emitted"] - v[1, "beacons_emitted"]
		      printf "airqd emitted %d beacons, %.1f ms late on average (the largest since start %.1f ms, %.1f before)", n, n ? (v[2, "beacon_emit_late_sum_us"] - v[1, "beacon_emit_late_sum_us"]) / n / 1000 : 0, v[2, "beacon_emit_late_max_us"] / 1000, v[1, "beacon_emit_late_max_us"] / 1000
		      printf "; the station received %s", v[2, "sta_beacon_rx"] - v[1, "sta_beacon_rx"]
		      sl = v[2, "sched_slices"] - v[1, "sched_slices"]
		      printf "; airqd ran %.0f ms and waited runnable %.0f ms in %d timeslices (%.2f ms a wait)", (v[2, "sched_run_ns"] - v[1, "sched_run_ns"]) / 1e6, (v[2, "sched_wait_ns"] - v[1, "sched_wait_ns"]) / 1e6, sl, sl ? (v[2, "sched_wait_ns"] - v[1, "sched_wait_ns"]) / 1e6 / sl : 0 }' "$1" "$2"
}
# lat_figure A B: the loop latency samples between scrapes A and B
lat_figure() {
	set -- "$1" "$2" $(lat "$1") $(lat "$2")
	echo "$(($6 - $4)) of $(($5 - $3)) samples within 5 ms, largest $(lat_max "$1" "$2")"
}
# cpu_snap FILE: each process's CPU ticks (10 ms, user and system) as
# "pid name ticks", and the whole CPU's busy and softirq ticks
cpu_snap() {
	{
		awk '$1 == "cpu" {print "ALL busy", $2 + $3 + $4 + $6 + $7 + $8; print "ALL softirq", $8}' /proc/stat
		cat /proc/[0-9]*/stat 2>/dev/null | awk '{n = $2; gsub(/[()]/, "", n); sub(/\/.*/, "", n); print $1, n, $14 + $15}'
	} >"$1"
}
# cpu_diff A B: the ticks taken between snapshots A and B by process name
# (a process gone by B is not counted), the most first
cpu_diff() {
	awk 'FNR == 1 {f++} {v[f, $1 " " $2] = $3; k[$1 " " $2] = 1}
		END {for (x in k) {split(x, p, " "); d = v[2, x] - v[1, x]; if (d > 0) by[p[2]] += d} for (n in by) print n, by[n]}' "$1" "$2" |
		sort -k2 -nr | head -7 | awk '{printf "%s%s %d", s, $1, $2; s = ", "}'
}
metric() { awk -v n="$1" '$1 == n {print $2}' "$2"; }
# figure CHECK DETAIL CMD...: a target airqd does not meet today in the VM
# (run.sh's EXPECTED_SKIPS says what limits it): pass if CMD succeeds, else
# a skip that reports the figure
figure() {
	_c=$1 _d=$2
	shift 2
	if "$@"; then result "$_c" pass "$_d"; else skip "$_c" "$_d"; fi
}
sum_of() { sed -n "s/.* $2=\([0-9.]*\).*/\1/p" "$1"; }
joined() { wpas_completed 1 && sta_linked 1; }
# flood_iperf CHECK TO LOG: RATE Commits a second for SECS to TO (e2eflood's
# output in LOG) while the station carries iperf3 TCP down as long (CHECK)
flood_iperf() {
	e2eflood -ifname fmon0 -bssid "$2" -sae $mode -pool $POOL -pool-base $POOL_BASE -rate $RATE -duration ${SECS}s >"$3" 2>&1 &
	_fp=$!
	register $_fp
	# under the flood, airqd's CPU profile over 8 s of it, kept in the
	# logs (go tool pprof -top); not beside the foreign injection, whose
	# end is VmRSS's reference: the profile's buffers would raise it
	_cp=
	if [ "$2" = "$BSSID" ]; then
		wget -q -O "$LOGS/$S-$1-cpu.pb.gz" "http://$PPROF/debug/pprof/profile?seconds=8" &
		_cp=$!
	fi
	iperf_bg "$1" 1 $SECS -R
	wait $IPERF_PID
	[ -z "$_cp" ] || wait $_cp
	wait_for 20 gone $_fp
}

station_and_injector
attacker_pool $POOL $POOL_BASE
ip link set lo up
ip link set hwsim0 up
e2esniff -i hwsim0 -sta "$STA1" -beacon-every 1 >"$LOGS/$S-air.log" 2>&1 &
register $!
iperf_servers 1 || result setup fail "iperf3 server"

for pwe in 0 1; do
	N=pwe$pwe mode=hnp
	[ $pwe = 1 ] && mode=h2e
	log "airqd with sae_pwe=$pwe"
	umask 077
	printf 'wpa=2\nrsn_pairwise=CCMP\nwpa_key_mgmt=SAE\nieee80211w=2\nsae_password=%s\nsae_pwe=%s\n' "$PASS" "$pwe" >"/tmp/$S-$N.conf"
	umask 022
	AIRQD_EXTRA="-config /tmp/$S-$N.conf -metrics $METRICS -pprof $PPROF"
	if ! airq_up "airqd-$N"; then
		result "$N.joined" fail "airqd not ready: $(grep -v '^+' "$AIRQD_LOG" | tail -2 | tr '\n' ' ')"
		continue
	fi
	printf 'ctrl_interface=/run/wpas1\nsae_pwe=%s\nnetwork={\n\tssid="%s"\n\tkey_mgmt=SAE\n\tsae_password="%s"\n\tieee80211w=2\n\tproto=RSN\n\tpairwise=CCMP\n\tgroup=CCMP\n\tscan_freq=%s\n}\n' \
		"$pwe" "$SSID" "$PASS" "$FREQ" >"/tmp/$S-wpas1.conf"
	nsenter -F -t "$(sta_pid 1)" -n wpa_supplicant -i wlan1 -D nl80211 -c "/tmp/$S-wpas1.conf" -t -d -f "$LOGS/$S-wpas1-$N.log" &
	WPAS_1=$!
	register $!
	t=$(T)
	if wait_for 60 joined; then result "$N.joined" pass "COMPLETED in $(since "$t")s"
	else result "$N.joined" fail "station: $(wpas_state 1)"; stop "$WPAS_1"; airq_down; continue; fi

	log "$N: baseline, $RATE Commits a second to $FOREIGN"
	scrape /tmp/$S-b0
	cpu_snap /tmp/$S-c0
	bsnap /tmp/$S-s0
	b0=$(T)
	flood_iperf "$N.baseline" "$FOREIGN" "$LOGS/$S-$N-foreign.log"
	b1=$(T)
	bsnap /tmp/$S-s1
	cpu_snap /tmp/$S-c1
	scrape /tmp/$S-b1
	set -- $(iperf_sum "$N.baseline")
	base=$1
	iperf_check "$N.baseline" 2
	BASE_AIR="$(air_gaps "$b0" "$b1"); $(bdiff /tmp/$S-s0 /tmp/$S-s1); loop latency $(lat_figure /tmp/$S-b0 /tmp/$S-b1)"
	log "$N: beside the foreign injection: $BASE_AIR"

	log "$N: the flood, $RATE Commits a second to $BSSID"
	heap before
	rss0=$(rss_kb) parts0=$(rss_parts)
	scrape /tmp/$S-m0
	miss0=$(stat_of beacon_missed_intervals) tok0=$(stat_of sae_token_requested) full0=$(stat_of sae_queue_full)
	cpu_snap /tmp/$S-c2
	bsnap /tmp/$S-s2
	t0=$(T)
	flood_iperf "$N.flood_tput" "$BSSID" "$LOGS/$S-$N-flood.log"
	t1=$(T)
	bsnap /tmp/$S-s3
	cpu_snap /tmp/$S-c3
	scrape /tmp/$S-m1
	cp /tmp/$S-m0 "$LOGS/$S-$N-metrics-before.log"
	cp /tmp/$S-m1 "$LOGS/$S-$N-metrics-after.log"
	ctl status >"$LOGS/$S-$N-status-flood.log" 2>&1
	miss1=$(stat_of beacon_missed_intervals) tok1=$(stat_of sae_token_requested) full1=$(stat_of sae_queue_full)
	F=$LOGS/$S-$N-flood.log
	sum=$(grep SUMMARY "$F")
	answered=$(sum_of "$F" answered) echoed=$(sum_of "$F" echoed) persec=$(sum_of "$F" answered_per_s)
	counters=$(grep -E '^sae_' "$LOGS/$S-$N-status-flood.log" | tr '\n' ' ')
	if [ "${echoed:-0}" -gt 0 ] && [ "${tok1:-0}" -gt "${tok0:-0}" ] && [ "${full1:-0}" -gt "${full0:-0}" ]; then
		result "$N.flood" pass "${sum#SUMMARY }; the AP answered ${answered:-0} Commits ($persec a second); airqd: $counters"
	else
		result "$N.flood" fail "${sum:-no summary: $(tail -1 "$F")}; sae_token_requested $tok0 -> $tok1, sae_queue_full $full0 -> $full1; airqd: $counters"
	fi
	set -- $(iperf_sum "$N.flood_tput")
	ratio=$(div "$1" "$base")
	d="$1 Mbit/s under the flood, $base beside the foreign injection: ${ratio}x (want >= 0.8x); CPU ticks of 10 ms under the flood: $(cpu_diff /tmp/$S-c2 /tmp/$S-c3), the injector $(sum_of "$F" cpu_ms) ms; beside the foreign injection: $(cpu_diff /tmp/$S-c0 /tmp/$S-c1), the injector $(sum_of "$LOGS/$S-$N-foreign.log" cpu_ms) ms"
	if figures_asserted; then check "$N.tput_kept" "$d" ge "$ratio" 0.8
	else check "$N.tput_kept" "$d, not asserted with the host's clock; data wanted" ge "$1" 0.001; fi
	d="beacon_missed_intervals $miss0 -> $miss1; on the air $(air_gaps "$t0" "$t1"); $(bdiff /tmp/$S-s2 /tmp/$S-s3); beside the foreign injection: $BASE_AIR"
	set -- $(gaps "$t0" "$t1")
	check "$N.beacons_sent" "$d (want none missed by airqd's count)" test "$miss0" = "$miss1"
	check "$N.beacons_on_time" "$d (want no gap over 1.5 intervals)" sh -c "[ '$2' = 0 ] && [ '$1' -ge $((SECS * 9)) ] && [ '$(sniff_drops "$t0" "$t1")' = 0 ]"
	set -- $(lat /tmp/$S-m0) $(lat /tmp/$S-m1)
	n=$(($3 - $1)) within=$(($4 - $2))
	d="$(lat_figure /tmp/$S-m0 /tmp/$S-m1); $(bdiff /tmp/$S-s2 /tmp/$S-s3); beside the foreign injection: $BASE_AIR"
	figure "$N.loop_latency" "$d (want every sample within 5 ms)" sh -c "[ $n -ge $((SECS * 40)) ] && [ $within = $n ]"
	pings "$N.ping" 1 up 5
	rss1=$(rss_kb)
	# then idle until the SAE worker's release is due: after a flood airqd
	# waits for 5 s with no sign of one (no job shed, no Commit its queue
	# dropped or answered with a token request, which it reads once a
	# second), then collects and gives the free heap back to the system
	# (shell/sae.go); 10 s after the flood's end leaves a few seconds to
	# spare. VmRSS is read before the heap profile below, which allocates.
	while [ "$(awk -v a="$t1" -v b="$(T)" 'BEGIN{print (b - a < 10)}')" = 1 ]; do
		usleep 500000
	done
	rss3=$(rss_kb) parts3=$(rss_parts) at3=$(since "$t1")
	scrape /tmp/$S-m2
	cp /tmp/$S-m2 "$LOGS/$S-$N-metrics-idle.log"
	heap after
	heap="live heap $(metric go_gc_heap_live_bytes /tmp/$S-m0) bytes before, $(metric go_gc_heap_live_bytes /tmp/$S-m2) after (as of the last collection)"
	d="VmRSS $rss0 kB before the flood, $rss3 kB $at3 s after the flood's end, once the SAE worker's release (5 s after the flood's last sign) is due ($(awk -v a="$rss0" -v b="$rss3" 'BEGIN{printf "%+.1f", (b - a) * 100 / a}')%; want within 5 %), $rss1 kB just after the flood and the pings ($(awk -v a="$rss0" -v b="$rss1" 'BEGIN{printf "%+.1f", (b - a) * 100 / a}')%, before the release); $parts0 before, $parts3 after; $heap"
	check "$N.rss" "$d" awk -v a="$rss0" -v b="$rss3" 'BEGIN{exit !(a > 0 && b <= a * 1.05 && b >= a * 0.95)}'

	log "$N: the flood again, the station idle: the SAE worker's share of the loop's latency"
	scrape /tmp/$S-q0
	q0=$(T)
	e2eflood -ifname fmon0 -bssid "$BSSID" -sae $mode -pool $POOL -pool-base $POOL_BASE -rate $RATE -duration ${QUIET}s \
		>"$LOGS/$S-$N-quiet.log" 2>&1
	q1=$(T)
	scrape /tmp/$S-q1
	set -- $(lat /tmp/$S-q0) $(lat /tmp/$S-q1)
	n=$(($3 - $1)) within=$(($4 - $2))
	d="$(lat_figure /tmp/$S-q0 /tmp/$S-q1); on the air $(air_gaps "$q0" "$q1"); $(grep SUMMARY "$LOGS/$S-$N-quiet.log" | sed 's/^SUMMARY //')"
	figure "$N.quiet_loop_latency" "$d (want every sample within 5 ms)" sh -c "[ $n -ge $((QUIET * 40)) ] && [ $within = $n ]"
	stop "$WPAS_1"
	wait_for 10 sta_unlinked 1
	airq_down
done
finish
