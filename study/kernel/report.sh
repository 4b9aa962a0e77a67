#!/bin/bash
# report.sh RUNS.TXT LIMITS: the per-run table of every phase, the arms'
# means, the verdict on the primary phase and the RESULT line; the exit
# status is 0 only if the verdict is pass.
#
# Verdict (fixed before the runs): a run of either arm in which the AP's
# radio closed no BE round is void, and so is the phase; otherwise pass
# iff every legacy run ended rounds on stale stamps and no fixed run did,
# unless its round number could have wrapped (65535 or more open rounds
# since the module was loaded).
set -uo pipefail
runs=$1 limits=$2
grep -q '^RUN .* failed$' "$runs" && { grep '^RUN .* failed$' "$runs"; echo "study-kernel: a run failed (see the VM's console)"; exit 1; }

awk -v limits="$limits" '
function val(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
/^RUN / {
	ph = val("phase"); arm = val("arm"); fl = val("flow"); r = val("run")
	if (!(ph in seen)) { seen[ph] = 1; order[++np] = ph; hdr[ph] = sprintf("medium %s, hwsim tx_round=%s, %s s per download", val("medium"), val("tx_round"), val("secs")) }
	n[ph] ++
	rate = val("ampdu_rate")
	if (rate == "") rate = "(last: " val("txrate") ")"
	row[ph, n[ph]] = sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |", arm, r, fl, val("mbps"), val("retr"),
		val("ap_opened"), val("ap_closed"), val("ap_stale"), val("mpdus_per_ampdu") == "" ? "-" : val("mpdus_per_ampdu"),
		val("busy_pct") == "" ? "-" : val("busy_pct"), val("late_mean_us") == "" ? "-" : val("late_mean_us"), val("cpu_idle_pct"), rate)
	k = ph SUBSEP arm SUBSEP fl
	mb[k] += val("mbps"); cnt[k]++
	closed[ph, arm] += val("ap_closed"); stale[ph, arm] += val("ap_stale")
	if (!((ph, arm, r) in runseen)) { runseen[ph, arm, r] = 1; nruns[ph, arm]++ }
	rc[ph, arm, r] += val("ap_closed"); rs[ph, arm, r] += val("ap_stale")
	if (val("ap_opened_total") + 0 > maxopen[ph, arm, r]) maxopen[ph, arm, r] = val("ap_opened_total") + 0
	runs_of[ph, arm] = runs_of[ph, arm] " " r
}
END {
	print "== study-kernel: BE aql_txq_limit " limits " us, rounds of the AP radio (slot 0)"
	for (p = 1; p <= np; p++) {
		ph = order[p]
		print ""
		print "### phase " ph ": " hdr[ph]
		print ""
		print "| arm | run | flow | Mbit/s | TCP retr | rounds opened | closed | stale | MPDUs/A-MPDU | air busy % | medium late µs | CPU idle % | A-MPDU rate |"
		print "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= n[ph]; i++) print row[ph, i]
		print ""
		for (a = 1; a <= 2; a++) {
			arm = (a == 1 ? "legacy" : "fixed")
			if (!((ph, arm) in nruns)) continue
			printf "%s %s: tsq %.1f Mbit/s, fwd %.1f Mbit/s (means of %d runs), rounds closed %d, stale %d\n", ph, arm,
				mb[ph, arm, "tsq"] / (cnt[ph, arm, "tsq"] ? cnt[ph, arm, "tsq"] : 1), mb[ph, arm, "fwd"] / (cnt[ph, arm, "fwd"] ? cnt[ph, arm, "fwd"] : 1),
				nruns[ph, arm], closed[ph, arm], stale[ph, arm]
		}
	}
	ph = "primary"
	verdict = "pass"; why = ""
	if (!((ph, "legacy") in nruns) || !((ph, "fixed") in nruns)) { verdict = "void"; why = why " no primary runs of both arms;" }
	for (a = 1; a <= 2; a++) {
		arm = (a == 1 ? "legacy" : "fixed")
		split(runs_of[ph, arm], rr, " ")
		for (j in rr) {
			r = rr[j]
			if (rc[ph, arm, r] == 0) { verdict = "void"; why = why " " arm " run " r " closed no round;" }
			if (arm == "legacy" && rs[ph, arm, r] == 0 && verdict != "void") { verdict = "fail"; why = why " legacy run " r " ended no round on a stale stamp;" }
			if (arm == "fixed" && rs[ph, arm, r] > 0 && maxopen[ph, arm, r] < 65535 && verdict != "void") { verdict = "fail"; why = why " fixed run " r " ended " rs[ph, arm, r] " rounds on stale stamps without a wrap;" }
		}
	}
	print ""
	print "VERDICT " verdict (why == "" ? "" : ":" why)
	printf "RESULT rounds_closed_legacy=%d rounds_closed_fixed=%d stale_legacy=%d stale_fixed=%d tsq_mbps_legacy=%.1f tsq_mbps_fixed=%.1f fwd_mbps_legacy=%.1f fwd_mbps_fixed=%.1f\n",
		closed[ph, "legacy"], closed[ph, "fixed"], stale[ph, "legacy"], stale[ph, "fixed"],
		mb[ph, "legacy", "tsq"] / (cnt[ph, "legacy", "tsq"] ? cnt[ph, "legacy", "tsq"] : 1), mb[ph, "fixed", "tsq"] / (cnt[ph, "fixed", "tsq"] ? cnt[ph, "fixed", "tsq"] : 1),
		mb[ph, "legacy", "fwd"] / (cnt[ph, "legacy", "fwd"] ? cnt[ph, "legacy", "fwd"] : 1), mb[ph, "fixed", "fwd"] / (cnt[ph, "fixed", "fwd"] ? cnt[ph, "fixed", "fwd"] : 1)
	exit verdict != "pass"
}' "$runs"
