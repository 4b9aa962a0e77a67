#!/bin/sh
# s7-tuning: live tuning while two stations download.
#
# Stations 1 and 2 ("iw connect") each receive an iperf3 UDP stream (-R, 20
# Mbit/s offered, 1200-byte datagrams) that airqd cannot carry in full under
# TCG, so both stay backlogged in its scheduler. hwsim has no airtime: the
# one vCPU is the only scarce resource, so airqd runs at -nice 0 here. At its
# default -10 it outranks the iperf3 senders, takes each datagram as it is
# written, and its queues never hold the backlog whose sharing is measured.
# airqctl station dump is sampled (BE: AQL pending airtime, frames in flight,
# cumulative TX airtime) through three phases of ~5 s:
#   A  defaults (BE limits 5000/12000 us, weights 256)
#   B  after "airqctl aql set BE 500 1000"
#   C  after "airqctl aql set BE 5000 5000" and "airqctl station set <sta1>
#      airtime_weight 1024"
#
# Checks:
#   traffic           both streams carried (>= 0.25 Mbit/s received each: the
#                     figure varies with how busy the host is)
#   aql_set           airqctl aql and the stations show BE 500/1000
#   aql_bounds        in phase B no station's BE pending airtime exceeds the
#                     1000 us high limit by more than one frame (1000 us slack);
#                     phase A's maximum is printed beside it
#   weight_set        airqctl station get shows airtime weight 1024 for sta1
#   weight_share      station 1's share of BE TX airtime rises from phase B to
#                     phase C by >= 0.05. Weights 1024:256 would ask for 80%;
#                     mac80211's DRR under a binding per-PHY limit gives 63%
#                     (airq's simulator, trace mode and production mode alike),
#                     and TCG's noise takes a few points more. Weights
#                     act where the scheduler chooses: while each station's own
#                     AQL limit (500/1000) caps it, each is a pipe of its own and
#                     the shares stay equal whatever the weights (in mac80211
#                     too). Phase C raises both limits to 5000 us (low above
#                     high is refused), so the per-PHY budget
#                     ((2-1)*5000/2+5000 = 7500 us) binds before the two
#                     stations' 5000 us each, and the DRR deficits decide who
#                     fills it.
#   metrics           (when airqd has -metrics) /metrics shows the new limit and
#                     weight
# timeout: 150
. /e2e/lib.sh

log "radios"
ap_radios 3 || { result setup fail "mac80211_hwsim radios=3"; finish; }
for i in 1 2; do sta_init $i || { result setup fail "station $i namespace"; finish; }; done
STA1=$(sta_mac 1) STA2=$(sta_mac 2)
METRICS=
AIRQD_EXTRA="-nice 0"
ip link set lo up # the metrics listener is on 127.0.0.1
if has_flag metrics; then
	METRICS=127.0.0.1:9123
	AIRQD_EXTRA="$AIRQD_EXTRA -metrics $METRICS"
fi
if airq_up airqd; then result airqd_ready pass "airqd pid $AIRQD_PID"
else result airqd_ready fail "airqd not ready"; finish; fi
AIRQD_EXTRA=
iperf_servers 1 2
iwc 1
iwc 2
if ! { wait_for 20 sta_linked 1 && wait_for 20 sta_linked 2 && wait_for 5 airq_has_sta "$STA1" && wait_for 5 airq_has_sta "$STA2"; }; then
	result setup fail "stations not associated"
	finish
fi

SAMPLES=$LOGS/$S-samples.log
CLIENT_SAMPLES=$LOGS/$S-client-samples.log
: >"$SAMPLES"
: >"$CLIENT_SAMPLES"
# sample PHASE SECS: station dump every ~0.25 s for SECS seconds
sample() {
	_end=$(awk -v a="$(T)" -v l="$2" 'BEGIN{print a + l}')
	while [ "$(awk -v e="$_end" -v b="$(T)" 'BEGIN{print (b > e)}')" = 0 ]; do
		ctl station dump 2>/dev/null | awk -v t="$(T)" -v ph="$1" '
			/^Station/ { m = $2 }
			/aql pending:/ { for (i = 1; i <= NF; i++) if ($i == "BE:") p[m] = $(i+1) }
			/in flight:/   { for (i = 1; i <= NF; i++) if ($i == "BE:") f[m] = $(i+1) }
			/tx airtime:/  { for (i = 1; i <= NF; i++) if ($i == "BE:") a[m] = $(i+1) }
			END { for (m in p) print ph, t, m, p[m], f[m], a[m] }' >>"$SAMPLES"
		# what the clients received meanwhile (rx packets from the AP)
		echo "$1 $(T) $(in_sta 1 iw dev wlan1 station dump | awk '/rx packets:/ {print $3}') $(in_sta 2 iw dev wlan2 station dump | awk '/rx packets:/ {print $3}')" >>"$CLIENT_SAMPLES"
		usleep 250000
	done
}
# maxpend PHASE: the highest BE pending airtime of any station in PHASE
maxpend() { awk -v ph="$1" '$1 == ph && $4 + 0 > m { m = $4 + 0 } END { print m + 0 }' "$SAMPLES"; }
maxfl() { awk -v ph="$1" '$1 == ph && $5 + 0 > m { m = $5 + 0 } END { print m + 0 }' "$SAMPLES"; }
# share PHASE MAC: MAC's part of the BE airtime both stations got during PHASE
share() {
	awk -v ph="$1" -v me="$2" '$1 == ph { if (!($3 in a0)) a0[$3] = $6; a1[$3] = $6 }
		END { for (m in a1) { d = a1[m] - a0[m]; tot += d; if (m == me) mine = d }
		      if (tot > 0) printf "%.3f", mine / tot; else print "0" }' "$SAMPLES"
}

log "two downloads"
iperf_bg down1 1 30 -R -u -b 20M -l 1200
P1=$IPERF_PID
iperf_bg down2 2 30 -R -u -b 20M -l 1200
P2=$IPERF_PID
wait_for 10 sh -c "grep -q ' sec ' $LOGS/$S-iperf3-down1.log && grep -q ' sec ' $LOGS/$S-iperf3-down2.log"
# sched PHASE: the scheduler's counters at the end of PHASE
sched() { { echo "== end of phase $1 at $(T)"; ctl scheduler; ctl status | grep -E '^(wired_in|wired_sent|dropped_queue_full|dropped_overlimit|dropped_overmemory|dropped_codel|backlog_frames)='; } >>"$LOGS/$S-airqctl-scheduler-phases.log" 2>&1; }
sample A 4.5
sched A
{ ctl station get "$STA1" rates; ctl station get "$STA2" rates; ctl station dump; } >"$LOGS/$S-rates-A.log" 2>&1
ctl aql set BE 500 1000
rc=$?
sample B 4.5
sched B
ctl aql >"$LOGS/$S-airqctl-aql-B.log" 2>&1
ctl station dump >"$LOGS/$S-airqctl-station-dump-B.log" 2>&1
ctl aql set BE 5000 5000
rc3=$?
ctl station set "$STA1" airtime_weight 1024
rc2=$?
sample C 8
sched C
ctl aql >"$LOGS/$S-airqctl-aql.log" 2>&1
ctl station dump >"$LOGS/$S-airqctl-station-dump.log" 2>&1
ctl scheduler >"$LOGS/$S-airqctl-scheduler.log" 2>&1
[ -n "$METRICS" ] && wget -q -O "$LOGS/$S-metrics.log" "http://$METRICS/metrics"
wait $P1 $P2
iperf_check down1 0.25 100
iperf_check down2 0.25 100

be=$(awk '$1 == "BE" {print $2 "/" $3; exit}' "$LOGS/$S-airqctl-aql-B.log")
lim=$(grep -c 'aql limit\[low/high\]:.*BE: 500/1000' "$LOGS/$S-airqctl-station-dump-B.log")
if [ "$rc" = 0 ] && [ "$be" = 500/1000 ] && [ "$lim" = 2 ]; then result aql_set pass "airqctl aql: BE $be; both stations: BE 500/1000"
else result aql_set fail "rc=$rc airqctl aql BE=$be; stations with BE 500/1000: $lim"; fi

mA=$(maxpend A) mB=$(maxpend B) fA=$(maxfl A) fB=$(maxfl B)
nB=$(awk '$1 == "B"' "$SAMPLES" | wc -l)
d="max BE pending: phase A $mA us (limit 12000), phase B $mB us (limit 1000); max in flight A $fA, B $fB; $nB samples in B"
# a busy host can stretch one sample to seconds: two are enough to bound
if [ "$nB" -ge 2 ] && [ "$mB" -le 2000 ]; then result aql_bounds pass "$d"; else result aql_bounds fail "$d"; fi

w=$(ctl station get "$STA1" | awk '/airtime weight:/ {print $3}')
if [ "$rc2" = 0 ] && [ "$rc3" = 0 ] && [ "$w" = 1024 ]; then result weight_set pass "station 1 airtime weight $w, BE 5000/5000"
else result weight_set fail "station set rc=$rc2 weight=$w; aql set BE 5000 5000 rc=$rc3"; fi
shB=$(share B "$STA1") shC=$(share C "$STA1")
d="station 1's share of BE airtime: phase B $shB (weights 256:256), phase C $shC (1024:256)"
# the clients' rx packets over phase C (beacons count twice there: ~20/s)
cC=$(awk '$1 == "C" { if (n == 0) { t0 = $2; a0 = $3; b0 = $4 } t1 = $2; a1 = $3; b1 = $4; n++ }
	END { if (n > 1) printf "clients received %d and %d packets in %.1f s of phase C", a1 - a0, b1 - b0, t1 - t0 }' "$CLIENT_SAMPLES")
d="$d; $cC"
if awk -v b="$shB" -v c="$shC" 'BEGIN{exit !(c - b >= 0.05)}'; then result weight_share pass "$d"
else result weight_share fail "$d"; fi

if [ -n "$METRICS" ]; then
	# the limit in seconds and the station's weight, as Prometheus series
	hi=$(grep '^airq_aql_limit_seconds{ac="BE",bound="high"}' "$LOGS/$S-metrics.log" | awk '{print $2}')
	wt=$(grep "^airq_station_airtime_weight{mac=\"$STA1\"}" "$LOGS/$S-metrics.log" | awk '{print $2}')
	pend=$(grep -c '^airq_station_aql_pending_seconds' "$LOGS/$S-metrics.log")
	d="airq_aql_limit_seconds{ac=BE,bound=high}=${hi:-missing} airq_station_airtime_weight{$STA1}=${wt:-missing}, $pend aql pending series"
	if awk -v h="$hi" -v w="$wt" 'BEGIN{exit !(h + 0 == 0.005 && w + 0 == 1024)}'; then result metrics pass "$d"
	else result metrics fail "$d (want 0.005 and 1024)"; fi
else
	result metrics fail "airqd -h lists no -metrics"
fi
airq_down
finish
