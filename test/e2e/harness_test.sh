#!/bin/bash
# harness_test.sh - host-side tests of run.sh, no VM (make e2e-harness, part
# of make test): the accelerator's choice and KVM's fallback to TCG with an
# injected probe (E2E_KVM_PROBE: silent, hanging, aborting, printing), the
# report's skip policy (a skip fails the run unless EXPECTED_SKIPS lists it),
# the split of the scenarios over the VMs and their budgets (plan_vms, the
# cost table), the warning past half a budget, the merge of the VMs' results
# into one verdict and the cost table measured from serial logs.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
unset E2E_ACCEL E2E_KVM_PROBE E2E_KVM_PROBE_SECS E2E_ICOUNT E2E_SCENARIOS E2E_VMS E2E_TIMEOUT E2E_COSTS E2E_OUT E2E_VM_MIN_COST
export E2E_BUILD=$T
# shellcheck source=run.sh
. "$HERE/run.sh"
BASE=$T/base/none/base.cpio.gz # the probe's real qemu never runs here
TIMINGS=()
KVM_DEV=$T/kvm # a writable stand-in for /dev/kvm: the probe decides
: >"$KVM_DEV"
FAILED=0 N=0
ok() { N=$((N + 1)); echo "harness_test: ok   $*"; }
bad() { N=$((N + 1)) FAILED=$((FAILED + 1)); echo "harness_test: FAIL $*"; }

# accel NAME WANT [MSG] -- VAR=VALUE...: choose_accel with the variables set
# must give WANT ("ACCEL CLOCK") and print MSG
accel() {
	local name=$1 want=$2 msg=${3:-} got log=$T/accel.log
	shift 3
	[ "${1:-}" = -- ] && shift
	got=$( (export "$@" && [ "${E2E_ICOUNT:-}" = off ] && ICOUNT=off; choose_accel && echo "$ACCEL $CLOCK") 2>"$log")
	if [ "$got" != "$want" ]; then bad "$name: got '$got', want '$want' ($(tr '\n' ' ' <"$log"))"
	elif [ -n "$msg" ] && ! grep -qF -- "$msg" "$log"; then bad "$name: no '$msg' in: $(tr '\n' ' ' <"$log")"
	else ok "$name: $got"; fi
}
TCG="tcg,thread=single icount"
accel "default is TCG, counted clock, no probe" "$TCG" "" -- E2E_KVM_PROBE="touch $T/probed"
[ -e "$T/probed" ] && bad "the default ran the KVM probe" || ok "the default runs no KVM probe"
accel "E2E_ACCEL=tcg" "$TCG" "" -- E2E_ACCEL=tcg
accel "E2E_ICOUNT=off: host clock" "tcg,thread=single host" "figures reported, not asserted" -- E2E_ICOUNT=off
accel "kvm, the probe prints nothing" "$TCG" "falling back to TCG" -- E2E_ACCEL=kvm E2E_KVM_PROBE=true
accel "kvm, the probe aborts" "$TCG" "failed to set MSR 0x10a" -- E2E_ACCEL=kvm \
	E2E_KVM_PROBE="echo 'qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69' >&2; exit 134"
t=$(now)
accel "kvm, the probe hangs silent" "$TCG" "no console line in 1s" -- E2E_ACCEL=kvm E2E_KVM_PROBE="sleep 30" E2E_KVM_PROBE_SECS=1
el=$(secs "$t")
awk -v e="$el" 'BEGIN{exit !(e < 5)}' && ok "the hanging probe was cut after ${el}s" || bad "the hanging probe took ${el}s"
# KVM_DEV stands for /dev/kvm: present (a writable file) or absent
BANNER="echo '[    0.000000] Linux version 6.1.0-test'"
accel "kvm, the probe prints the banner" "kvm host" "figures reported, not asserted" -- E2E_ACCEL=kvm E2E_KVM_PROBE="$BANNER"
KVM_DEV=$T/no-kvm
accel "kvm on a host without /dev/kvm" "$TCG" "$T/no-kvm is missing" -- E2E_ACCEL=kvm E2E_KVM_PROBE="$BANNER"
out=$(E2E_ACCEL=hvf bash "$HERE/run.sh" 2>&1)
rc=$?
[ $rc != 0 ] && grep -q 'E2E_ACCEL=hvf: want tcg' <<<"$out" && ok "a bad E2E_ACCEL fails at start" || bad "E2E_ACCEL=hvf: rc=$rc: $out"

# Two runs on one output folder: the second is refused before any phase
mkdir -p "$T/busy"
out=$(flock "$T/busy/run.lock" env E2E_OUT="$T/busy" bash "$HERE/run.sh" 2>&1)
rc=$?
[ $rc != 0 ] && grep -q "another run is using $T/busy" <<<"$out" && ! grep -q 'phase setup' <<<"$out" &&
	ok "a second run on a busy folder is refused" || bad "a second run on a busy folder: rc=$rc: $out"

# report NAME CLOCK WANT_RC WANT_TEXT RESULT-LINES...: phase_report on these
# results of one VM (scenario s9-sidebyside, closed with a pass)
report() {
	local name=$1 clock=$2 want=$3 text=$4 out rc
	shift 4
	vm_share 1 "$@" "RESULT name=s9-sidebyside pass time=1s"
	out=$(CLOCK=$clock NVMS=1 && VM_SCEN=([1]=s9-sidebyside) && VM_BUDGET=([1]=300) && phase_report 2>&1)
	rc=$?
	if [ $rc != "$want" ]; then bad "$name: rc $rc, want $want: $out"
	elif ! grep -qF -- "$text" <<<"$out"; then bad "$name: no '$text' in: $out"
	else ok "$name: $(tail -n 1 <<<"$out")"; fi
}
# vm_share I RESULT-LINES...: VM I's share as its /init leaves it
vm_share() {
	local d=$OUT/vm$1
	shift
	rm -rf "$d" && mkdir -p "$d/share" && : >"$d/serial.log" && echo 0 >"$d/share/status"
	printf '%s\n' "$@" >"$d/share/results.log"
	echo "0 12.5" >"$d/exit"
}
P="RESULT name=s9-sidebyside.airq.ping pass tx=30 rx=30"
report "no skip" icount 0 "e2e: 1 passed, 0 failed, 0 expected skips" "$P"
report "an expected skip passes, with its reason" icount 0 "expected: airbase-ng is a guest row" "$P" \
	"RESULT name=s9-sidebyside.airbase.row skip airbase-ng did not create at0"
report "an unlisted skip fails" icount 1 "RESULT name=s9-sidebyside.bridge skip no -bridge (a skip not in EXPECTED_SKIPS: failed)" "$P" \
	"RESULT name=s9-sidebyside.bridge skip no -bridge"
report "a floor skip fails with the counted clock" icount 1 "e2e: 1 passed, 1 failed" "$P" \
	"RESULT name=s9-sidebyside.floor_tput_down skip airq/hostapd = 0.5 (floor 0.3), not asserted"
report "a floor skip is expected with the host's clock" host 0 "expected: the airq/hostapd ratios are reported, not asserted" "$P" \
	"RESULT name=s9-sidebyside.floor_tput_down skip airq/hostapd = 0.5 (floor 0.3), not asserted"

two_vms() { CLOCK=icount NVMS=2 && VM_SCEN=([1]="s1-associate s3-traffic" [2]=s9-sidebyside) && VM_BUDGET=([1]=400 [2]=300); }
# merge NAME WANT_RC WANT_TEXT: phase_report over two VMs whose shares are
# set up; the last line must be WANT_TEXT's closing line or contain it
merge() {
	local name=$1 want=$2 text=$3 out rc
	out=$(two_vms && phase_report 2>&1)
	rc=$?
	if [ $rc != "$want" ]; then bad "merge, $name: rc $rc, want $want: $out"
	elif ! grep -qF -- "$text" <<<"$out"; then bad "merge, $name: no '$text' in: $out"
	elif [ "$(grep -c '^e2e: [0-9]* passed' <<<"$out")" != 1 ] || ! tail -n 1 <<<"$out" | grep -q '^e2e: [0-9]* passed, [0-9]* failed, [0-9]* expected skips$'; then
		bad "merge, $name: not one closing line, last: $out"
	else ok "merge, $name: $(tail -n 1 <<<"$out")"; fi
}
A1="RESULT name=s1-associate.ping pass" A="RESULT name=s1-associate pass time=20s"
C1="RESULT name=s3-traffic.tcp pass" C="RESULT name=s3-traffic pass time=90s"
S1="RESULT name=s9-sidebyside.airq.ping pass" S="RESULT name=s9-sidebyside pass time=60s"
vm_share 1 "$A1" "$A" "$C1" "$C"
vm_share 2 "$S1" "RESULT name=s9-sidebyside.airbase.row skip no at0" "$S"
merge "two VMs' checks in one line" 0 "e2e: 3 passed, 0 failed, 1 expected skips"
merge "each VM's wall beside its budget" 0 "---- vm2: wall 12.5s of its 300s budget"
vm_share 2 "$S1" "RESULT name=s9-sidebyside.floor_rtt fail 3.1 > 2" "RESULT name=s9-sidebyside fail time=60s"
merge "a failed check in the second VM" 1 "e2e: 3 passed, 1 failed, 0 expected skips"
vm_share 2 "$S1" "RESULT name=s9-sidebyside.bridge skip no -bridge" "$S"
merge "an unlisted skip in the second VM" 1 "e2e: 3 passed, 1 failed, 0 expected skips"
vm_share 2 "$S1"
rm "$OUT/vm2/share/status"
merge "the second VM stopped mid-scenario" 1 "e2e: 3 passed, 1 failed"
out=$(two_vms && phase_report 2>&1)
grep -q 'scenario s9-sidebyside (vm2) reported no final status' <<<"$out" && ok "the missing scenario is named with its VM" || bad "no missing scenario named: $out"
vm_share 1 "$A1" "$A"
vm_share 2 "$S1" "$S"
merge "a scenario missing from the first VM" 1 "e2e: 2 passed, 1 failed"
rm -rf "$OUT/vm2"
mkdir -p "$OUT/vm2"
printf '[host  10.00s] INIT: ==== scenario s9-sidebyside (limit 240s) at uptime 9s\n[host  70.00s] RESULT name=s9-sidebyside.airq.ping pass\n[host  80.00s] RESULT name=s9-sidebyside pass time=60s\n' >"$OUT/vm2/serial.log"
vm_share 1 "$A1" "$A" "$C1" "$C"
merge "a VM without share: its serial console's results" 1 "e2e: 3 passed, 1 failed"

# plan NAME WANT -- VAR=VALUE... -- SCENARIO...: plan_vms on these scenarios
# must give WANT: "vm1-scenarios,...|budget1 budget2..." ("+" joins a VM's)
plan() {
	local name=$1 want=$2 got log=$T/plan.log
	shift 2
	[ "${1:-}" = -- ] && shift
	local vars=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
	shift
	got=$( (export "${vars[@]}" && load_costs && plan_vms "$@" && {
		for ((i = 1; i <= NVMS; i++)); do printf '%s%s' "$([ $i = 1 ] || echo ,)" "${VM_SCEN[i]// /+}"; done
		printf '|%s' "${VM_BUDGET[*]}"
	}) 2>"$log")
	if [ "$got" != "$want" ]; then bad "plan, $name: got '$got', want '$want' ($(tr '\n' ' ' <"$log"))"
	else ok "plan, $name: $got"; fi
}
printf '# a table\nboot 20\nsa 300\nsb 200\nsc 200\nsd 100\nse 100\ns1 30\ns2 30\n' >"$T/costs.txt"
C=E2E_COSTS=$T/costs.txt
# largest first to the least loaded: sa|sb, sc to vm2 (220), sd to vm1 (320),
# se to the tie (420, 420): vm1; each VM in the given order
plan "two VMs, balanced by cost" "sa+sd+se,sb+sc|1040 840" -- $C E2E_VMS=2 -- sa sb sc sd se
plan "the same VMs whatever the order given" "se+sd+sa,sc+sb|1040 840" -- $C E2E_VMS=2 -- se sd sc sb sa
plan "E2E_VMS=1: one VM" "sa+sb+sc+sd+se|1840" -- $C E2E_VMS=1 -- sa sb sc sd se
plan "three VMs" "sa,sb+sd,sc+se|640 640 640" -- $C E2E_VMS=3 -- sa sb sc sd se
plan "one scenario: one VM" "sb|440" -- $C E2E_VMS=4 -- sb
plan "two cheap scenarios: one VM" "s1+s2|160" -- $C E2E_VMS=2 -- s1 s2
plan "no more VMs than scenarios" "sa,sb|640 440" -- $C E2E_VMS=4 -- sa sb
plan "E2E_TIMEOUT replaces the budgets" "sa+sd+se,sb+sc|900 900" -- $C E2E_VMS=2 E2E_TIMEOUT=900 -- sa sb sc sd se
plan "a scenario the table lacks costs the default" "sa,snew|640 280" -- $C E2E_VMS=2 -- sa snew
grep -q "lacks snew: counted as 120s" "$T/plan.log" && ok "the lacking scenario is warned about" || bad "no warning for snew: $(cat "$T/plan.log")"
plan "no table: every scenario the default" "sa,sb|300 300" -- E2E_COSTS=$T/none E2E_VMS=2 -- sa sb
got=$( (E2E_VMS=two load_costs && E2E_VMS=two plan_vms sa sb) 2>&1)
[ $? != 0 ] && grep -q "E2E_VMS=two: want a number" <<<"$got" && ok "a bad E2E_VMS fails" || bad "E2E_VMS=two: $got"

# The repository's table: every row a scenario of vm/ (or boot), and the
# default split of today's scenarios on two VMs within 25% of each other
load_costs
for s in "${!COST[@]}"; do
	[ -f "$HERE/vm/$s.sh" ] || bad "costs.txt: $s is no scenario of vm/"
done
ok "costs.txt: ${#COST[@]} scenarios, boot ${BOOT_COST}s"
E2E_VMS=2 plan_vms $(scenario_list) 2>/dev/null
if [ "$NVMS" = 2 ] && awk -v a="${VM_COST[1]}" -v b="${VM_COST[2]}" 'BEGIN{exit !((a > b ? a - b : b - a) * 4 <= (a > b ? a : b))}'; then
	ok "today's scenarios on two VMs: ${VM_COST[1]}s and ${VM_COST[2]}s planned, budgets ${VM_BUDGET[*]}"
else bad "today's scenarios on two VMs: $NVMS VMs, ${VM_COST[*]}s planned"; fi

# verdict WALL BUDGET WANT_WARN: vm_verdict's line, and its warning past half
verdict() {
	local out
	out=$(VM_BUDGET=([1]=$2) && VM_COST=([1]=100) && VM_SCEN=([1]=sa) && vm_verdict 1 "$1" 0 2>&1)
	if ! grep -qF "vm1: wall $1s of its $2s budget" <<<"$out"; then bad "verdict $1/$2: no wall beside budget: $out"
	elif [ "$3" = warn ] && ! grep -q "WARNING: vm1 took $1s, past half its $2s budget" <<<"$out"; then bad "verdict $1/$2: no warning: $out"
	elif [ "$3" = quiet ] && grep -q WARNING <<<"$out"; then bad "verdict $1/$2: a warning: $out"
	else ok "verdict $1s of $2s: $3"; fi
}
verdict 99.9 200 quiet
verdict 100.0 200 quiet
verdict 100.1 200 warn
verdict 450.0 400 warn

# The cost table from two VMs' serial logs: each scenario's host seconds,
# rounded up, and the longest boot plus power-off
mkdir -p "$OUT/vm1" "$OUT/vm2"
printf '%s\n' '[host   0.50s] Linux version' '[host  21.20s] INIT: ==== scenario s0-env (limit 60s) at uptime 9s' \
	'[host  30.00s] RESULT name=s0-env.tun pass' '[host  33.10s] RESULT name=s0-env pass time=5s' \
	'[host  33.20s] INIT: ==== scenario s9-sidebyside (limit 240s) at uptime 14s' \
	'[host 200.00s] RESULT name=s9-sidebyside pass time=160s' '[host 201.00s] ==== RESULTS' \
	'[host 201.00s] RESULT name=s0-env pass time=5s' '[host 201.00s] RESULT name=s9-sidebyside pass time=160s' \
	'[host 203.00s] INIT: done' >"$OUT/vm1/serial.log"
printf '%s\n' '[host  25.00s] INIT: ==== scenario s10-radio (limit 150s) at uptime 9s' \
	'[host  95.50s] RESULT name=s10-radio fail time=70s rc=1' '[host  96.00s] INIT: done' >"$OUT/vm2/serial.log"
got=$(E2E_COSTS=$T/none costs_table 2>&1 | grep -v '^#' | tr '\n' ' ')
want="boot 26 s0-env 12 s9-sidebyside 167 s10-radio 71 "
[ "$got" = "$want" ] && ok "costs from serial logs: $got" || bad "costs from serial logs: got '$got', want '$want'"
printf 'boot 40\ns1-associate 30\ns9-sidebyside 100\n' >"$T/old-costs.txt"
got=$(E2E_COSTS=$T/old-costs.txt costs_table 2>&1 | grep -v '^#' | tr '\n' ' ')
want="boot 26 s0-env 12 s1-associate 30 s9-sidebyside 167 s10-radio 71 "
[ "$got" = "$want" ] && ok "costs: the rows the run did not measure are kept: $got" || bad "costs over an older table: got '$got', want '$want'"

echo "harness_test: $((N - FAILED)) passed, $FAILED failed"
[ "$FAILED" = 0 ]
