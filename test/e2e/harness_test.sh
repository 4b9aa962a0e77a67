#!/bin/bash
# harness_test.sh - host-side tests of run.sh, no VM (make e2e-harness, part
# of make test): the accelerator's choice and KVM's fallback to TCG with an
# injected probe (E2E_KVM_PROBE: silent, hanging, aborting, printing), and the
# report's skip policy (a skip fails the run unless EXPECTED_SKIPS lists it).
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
unset E2E_ACCEL E2E_KVM_PROBE E2E_KVM_PROBE_SECS E2E_ICOUNT E2E_SCENARIOS
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

# report NAME CLOCK WANT_RC WANT_TEXT RESULT-LINES...: phase_report on these
# results (scenario s9-sidebyside, closed with a pass)
report() {
	local name=$1 clock=$2 want=$3 text=$4 out rc
	shift 4
	mkdir -p "$SHARE" && : >"$BUILD/serial.log" && echo 0 >"$SHARE/status"
	printf '%s\n' "$@" "RESULT name=s9-sidebyside pass time=1s" >"$SHARE/results.log"
	out=$(CLOCK=$clock SCENARIOS=s9-sidebyside phase_report 2>&1)
	rc=$?
	if [ $rc != "$want" ]; then bad "$name: rc $rc, want $want: $out"
	elif ! grep -qF -- "$text" <<<"$out"; then bad "$name: no '$text' in: $out"
	else ok "$name: $(tail -n 1 <<<"$out")"; fi
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

echo "harness_test: $((N - FAILED)) passed, $FAILED failed"
[ "$FAILED" = 0 ]
