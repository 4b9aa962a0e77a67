#!/bin/bash
# run.sh - the end-to-end tier: airqd on mac80211_hwsim in qemu VMs, with real
# wpa_supplicant/iw clients.
#
# Phases (each timed on the host):
#   setup    install the Debian packages the tier needs (skipped if present)
#   kernel   resolve the current Debian kernel through linux-image-amd64,
#            apt-get download it and unpack it with dpkg-deb -x (never install);
#            cached under $E2E_BUILD/kernel/<package>_<version>
#   base     the initramfs base: busybox-static, the hwsim/cfg80211/mac80211/9p
#            modules, iw/wpa_supplicant/hostapd with their libraries, the
#            regulatory database; cached under $E2E_BUILD/base/<key>, the key
#            being a hash of every input file. setup, kernel and base hold
#            $E2E_BUILD/cache.lock: runs beside each other build the cache once
#   payload  airqd (and airqctl) built statically from this tree, /init and the
#            scenario scripts: a second cpio appended to the base one, in this
#            run's own folder ($E2E_OUT), read by every VM of the run
#   boot     the scenarios split over E2E_VMS qemu VMs booted at once (-smp 1
#            -m 256M each, TCG with instruction-counted guest time, see
#            E2E_ICOUNT; KVM with E2E_ACCEL=kvm), each with its own share and
#            serial log under $E2E_OUT/vmN and its own time budget: twice the
#            cost of its scenarios in costs.txt (plan_vms). Each VM runs its
#            scenarios, prints RESULT lines and copies its logs to its share;
#            its wall time is printed beside its budget, with a warning past
#            half of it
#   report   merges the VMs' RESULT lines, checks every scenario reported,
#            prints the expected skips with their reasons and "e2e: N passed,
#            M failed, K expected skips"; the exit status is non-zero on any
#            failure, unexpected skip (EXPECTED_SKIPS) or missing result
#
# `run.sh costs` prints the cost table (costs.txt) measured by the last run's
# serial logs: make e2e && make e2e-costs.
#
# Environment:
#   E2E_BUILD      the cache of kernel and base image, shared by runs (default
#                  /tmp/airq-e2e)
#   E2E_OUT        this run's folder: payload, per-VM shares and serial logs
#                  (default $E2E_BUILD/out-<hash of the source path>: one per
#                  clone; a second run on the same folder is refused)
#   E2E_SCENARIOS  space-separated scenario names to run (default: all in vm/)
#   E2E_VMS        how many VMs at most (default: the host's cores, 1 to 4);
#                  fewer when the scenarios cost less than E2E_VM_MIN_COST
#                  seconds per VM (one VM for a scenario or two)
#   E2E_COSTS      the cost table (default costs.txt beside run.sh)
#   E2E_TIMEOUT    hard wall-clock limit for each VM in seconds, replacing the
#                  budget computed from the cost table
#   E2E_ACCEL      qemu accelerator: tcg (default: tcg,thread=single, with the
#                  instruction-counted clock) or kvm (opt-in: probed first,
#                  TCG if the probe boot prints nothing; the guest then has
#                  the host's clock and the throughput figures are reported,
#                  not asserted)
#   E2E_KVM_PROBE_SECS  how long the KVM probe boot may take to print (10)
#   E2E_KVM_PROBE  test hook: a shell command run instead of the probe's qemu
#   E2E_ICOUNT     TCG only: qemu's -icount shift (default 2: the guest's clock
#                  advances 4 ns per guest instruction and skips idle time);
#                  "off": the guest's clock is the host's. Under TCG with the
#                  host's clock, whatever else the host runs (the other VMs
#                  among it) slows what the scenarios measure (s9's
#                  throughput, the queues s7 and s14 need); counted
#                  instructions do not depend on it
#   E2E_SMP, E2E_MEM   guest CPUs and memory per VM (default 1, 256M)
#   E2E_KPKG       pin the kernel package (default: what linux-image-amd64
#                  depends on; Debian drops superseded ABI packages)
#   E2E_SRC        build airqd and airqctl from this source tree instead of the
#                  repository (e.g. a clean `git archive HEAD` export)
#   E2E_AIRQD      use this static airqd binary instead of building ./cmd/airqd
#   E2E_AIRQCTL    use this static airqctl binary instead of building ./cmd/airqctl
#   E2E_EXTRA      a directory copied over the VM's root (extra debugging tools)
#   E2E_NO_APT=1   never call apt-get install (fail if something is missing)
#   E2E_MON_MTU    diagnostic: the scenarios raise airqd's monitor MTU to this
#                  after start-up (tells an MTU failure from others); off by default
#
# Logs: $E2E_OUT/vmN/share/ (console.log, results.log, per-scenario logs) and
# $E2E_OUT/vmN/serial.log (the VM's console with host timestamps).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
BUILD=${E2E_BUILD:-/tmp/airq-e2e}
OUT=${E2E_OUT:-$BUILD/out-$(echo "${E2E_SRC:-$REPO}" | sha256sum | cut -c1-8)}
SMP=${E2E_SMP:-1}
ICOUNT=${E2E_ICOUNT:-2}
MEM=${E2E_MEM:-256M}

# Host packages. The tools (iw, wpa_supplicant, hostapd, busybox) are only
# installed so that their binaries and libraries can be copied into the VM.
PACKAGES="qemu-system-x86 busybox-static iw wpasupplicant hostapd wireless-regdb kmod cpio iperf3 aircrack-ng"
# Kernel modules for the VM; dependencies are resolved with modprobe --show-depends.
#   bridge veth           -> airqd -bridge and the wired side behind it
#   mac80211_hwsim        -> virtio virtio_ring rfkill cfg80211 libarc4 mac80211
#   virtio_pci 9pnet_virtio 9p -> the host share (-virtfs)
#   tun                   -> airqd's TAP device
#   ccm ctr gcm ghash_generic cmac michael_mic -> CCMP/GCMP/BIP/TKIP keys for
#                            later WPA2 scenarios (ctr and ghash_generic are
#                            runtime-only dependencies, so they are listed)
#   aesni_intel           -> AES with the CPU's AES instructions for those keys
#                            (s15 loads it: aes_generic's tables cost the
#                            stations' software CCMP far more under TCG)
MODULES="mac80211_hwsim virtio_pci 9pnet_virtio 9p tun bridge veth ccm ctr gcm ghash_generic cmac michael_mic aesni_intel"
# iperf3 carries the throughput scenarios; airbase-ng (aircrack-ng) is the
# third AP of the side-by-side comparison.
TOOLS="/usr/sbin/iw /usr/sbin/wpa_supplicant /usr/sbin/wpa_cli /usr/sbin/hostapd /usr/sbin/hostapd_cli /usr/bin/iperf3 /usr/sbin/airbase-ng"

now() { echo "${EPOCHREALTIME/./}"; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", (b-a)/1e6}'; }
say() { echo "e2e: $*" >&2; }
die() { say "ERROR: $*"; echo "e2e: 0 passed, 1 failed"; exit 1; }
[[ $ICOUNT == off || $ICOUNT =~ ^([0-9]|10)$ ]] || die "E2E_ICOUNT=$ICOUNT: want a shift (0-10) or off"
case ${E2E_ACCEL:-tcg} in
kvm | tcg | tcg,thread=single) ;;
tcg,thread=multi) [ "$ICOUNT" = off ] || die "E2E_ACCEL=tcg,thread=multi: -icount needs tcg,thread=single (or E2E_ICOUNT=off)" ;;
*) die "E2E_ACCEL=$E2E_ACCEL: want tcg (default), tcg,thread=single, tcg,thread=multi (with E2E_ICOUNT=off) or kvm" ;;
esac
TIMINGS=()
timed() { # timed PHASE FUNC: run FUNC, record its wall time
	local t rc
	t=$(now)
	"$2"; rc=$?
	TIMINGS+=("$1=$(secs "$t")s")
	say "phase $1 done in $(secs "$t")s"
	return $rc
}

APT_UPDATED=0
apt_update() {
	[ "$APT_UPDATED" = 1 ] && return 0
	say "apt-get update"
	as_root apt-get update -q >"$BUILD/apt.log" 2>&1 || { tail -20 "$BUILD/apt.log" >&2; return 1; }
	APT_UPDATED=1
}
as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
		say "need root for: $*"; return 1; fi
}

############################################################################
phase_setup() {
	local p missing=()
	for p in $PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		[ "${E2E_NO_APT:-0}" = 1 ] && { say "missing packages: ${missing[*]} (E2E_NO_APT=1)"; return 1; }
		say "installing: ${missing[*]}"
		apt_update || return 1
		DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -q --no-install-recommends "${missing[@]}" \
			>>"$BUILD/apt.log" 2>&1 || { tail -20 "$BUILD/apt.log" >&2; return 1; }
	else
		say "host packages present"
	fi
	command -v go >/dev/null || [ -n "${E2E_AIRQD:-}" ] || { say "no Go toolchain on PATH (needed to build airqd)"; return 1; }
}

############################################################################
# resolve_kernel: KPKG and KPKGVER, from linux-image-amd64's exact dependency
# ("Depends: linux-image-6.1.0-57-amd64 (= 6.1.192-3)"), one apt-cache call.
resolve_kernel() {
	local dep
	if [ -n "${E2E_KPKG:-}" ]; then
		KPKG=$E2E_KPKG
		KPKGVER=$(apt-cache show --no-all-versions "$KPKG" 2>/dev/null | awk '/^Version:/{print $2; exit}')
	else
		dep=$(apt-cache show --no-all-versions linux-image-amd64 2>/dev/null |
			sed -n 's/^Depends:.*\(linux-image-[0-9][^ ,]*\) (= \([^)]*\)).*/\1 \2/p' | head -1)
		KPKG=${dep% *} KPKGVER=${dep#* }
	fi
	[ -n "$KPKG" ] && [ -n "$KPKGVER" ] && [ "$KPKG" != "$KPKGVER" ]
}
phase_kernel() {
	if ! resolve_kernel; then
		[ "${E2E_NO_APT:-0}" = 1 ] && { say "cannot resolve the kernel package (no apt lists?)"; return 1; }
		apt_update && resolve_kernel || { say "cannot resolve linux-image-amd64's kernel package"; return 1; }
	fi
	KVER=${KPKG#linux-image-}
	KROOT=$BUILD/kernel/${KPKG}_${KPKGVER}
	say "kernel package $KPKG $KPKGVER (kernel $KVER)"
	if [ ! -f "$KROOT/.done" ]; then
		rm -rf "$KROOT" "$BUILD/kernel/dl" && mkdir -p "$BUILD/kernel/dl"
		(cd "$BUILD/kernel/dl" && apt-get download "$KPKG=$KPKGVER") >"$BUILD/kernel/download.log" 2>&1 ||
			{ cat "$BUILD/kernel/download.log" >&2; return 1; }
		dpkg-deb -x "$BUILD"/kernel/dl/"${KPKG}"_*.deb "$KROOT" || return 1
		# The .deb ships no modules.dep (its postinst runs depmod).
		depmod -b "$KROOT" "$KVER" || return 1
		rm -rf "$BUILD/kernel/dl"
		touch "$KROOT/.done"
		# Keep only the current kernel in the cache.
		for d in "$BUILD"/kernel/linux-image-*; do [ "$d" = "$KROOT" ] || rm -rf "$d"; done
	else
		say "kernel cached in $KROOT"
	fi
}

############################################################################
# Every input file of the base image, one per line (binaries, libraries).
base_inputs() {
	local b
	echo /bin/busybox
	for b in $TOOLS; do
		echo "$b"
		ldd "$b" | awk '/=> \//{print $3} /^\t\/lib64/{print $1}'
	done | sort -u
	echo /lib/firmware/regulatory.db-debian
	echo /lib/firmware/regulatory.db.p7s-debian
}
phase_base() {
	local key f ko rel root
	# The key covers the kernel package, the module list, the content of every
	# copied file and this script's base-building code.
	key=$({
		echo "$KPKG $KPKGVER $MODULES"
		base_inputs | while read -r f; do sha256sum "$(readlink -f "$f")"; done
		declare -f phase_base base_inputs
	} | sha256sum | cut -c1-16)
	BASE=$BUILD/base/$key/base.cpio.gz
	if [ -f "$BASE" ]; then say "base initramfs cached ($key)"; base_to_out; return; fi
	say "building base initramfs ($key)"
	root=$BUILD/base/$key/root
	rm -rf "$BUILD/base" && mkdir -p "$root"
	mkdir -p "$root"/{bin,etc,proc,sys,dev,tmp,run,mnt/host,usr/bin,usr/sbin,usr/local/bin,lib64,lib/modules/$KVER,lib/firmware}
	mkdir -p "$root/var" && ln -s ../run "$root/var/run" # control sockets
	# /sbin -> bin: the kernel runs /sbin/modprobe to auto-load modules.
	ln -s bin "$root/sbin"
	cp /bin/busybox "$root/bin/busybox"
	for f in $(/bin/busybox --list); do
		[ -e "$root/bin/$f" ] || ln -s busybox "$root/bin/$f"
	done
	for m in $MODULES; do
		modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" | awk '$1=="insmod"{print $2}'
	done | sort -u | while read -r ko; do
		rel=${ko#"$KROOT"/}
		mkdir -p "$root/$(dirname "$rel")"
		cp "$ko" "$root/$rel"
	done
	cp "$KROOT/lib/modules/$KVER"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$KVER/"
	depmod -b "$root" "$KVER" || return 1
	base_inputs | while read -r f; do
		case $f in
		/bin/busybox | /lib/firmware/*) ;;
		/usr/sbin/*) cp "$f" "$root/usr/sbin/" ;;
		*) mkdir -p "$root/$(dirname "$f")" && cp -L "$f" "$root/$f" ;;
		esac
	done
	cp /lib/firmware/regulatory.db-debian "$root/lib/firmware/regulatory.db"
	cp /lib/firmware/regulatory.db.p7s-debian "$root/lib/firmware/regulatory.db.p7s"
	echo "root:x:0:0:root:/:/bin/sh" >"$root/etc/passwd"
	cp "$KROOT/boot/vmlinuz-$KVER" "$BUILD/base/$key/vmlinuz"
	(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$BASE.tmp" && mv "$BASE.tmp" "$BASE"
	rm -rf "$root"
	base_to_out
}
# base_to_out: this run's copy of the kernel and base image, taken under the
# cache lock: a run beside this one may replace the cache (another kernel)
# while these VMs boot.
base_to_out() {
	cp "$(dirname "$BASE")/vmlinuz" "$OUT/vmlinuz" && cp "$BASE" "$OUT/base.cpio.gz"
}

############################################################################
# gobuild CMD: static build of ./cmd/CMD into the payload
SRC=${E2E_SRC:-$REPO}
gobuild() {
	(cd "$SRC" && CGO_ENABLED=0 go build -trimpath -o "$OUT/payload/usr/local/bin/$1" "./cmd/$1") \
		>"$OUT/go-build-$1.log" 2>&1 && return 0
	say "go build ./cmd/$1 failed:"
	cat "$OUT/go-build-$1.log" >&2
	return 1
}
phase_payload() {
	local p=$OUT/payload
	rm -rf "$p" && mkdir -p "$p/usr/local/bin" "$p/e2e"
	if [ -n "${E2E_AIRQD:-}" ]; then
		cp "$E2E_AIRQD" "$p/usr/local/bin/airqd" || return 1
		say "airqd from E2E_AIRQD=$E2E_AIRQD"
	else
		say "building airqd and airqctl (CGO_ENABLED=0) from $SRC"
		gobuild airqd || return 1
	fi
	if [ -n "${E2E_AIRQCTL:-}" ]; then
		cp "$E2E_AIRQCTL" "$p/usr/local/bin/airqctl" || return 1
		say "airqctl from E2E_AIRQCTL=$E2E_AIRQCTL"
	else
		gobuild airqctl || return 1
	fi
	# nl80211's TestIntegrationHwsim needs root and hwsim radios: s0-env runs it
	(cd "$SRC" && CGO_ENABLED=0 go test -c -tags hwsim -trimpath -o "$p/usr/local/bin/nl80211.test" ./nl80211) \
		>"$OUT/go-build-nl80211.test.log" 2>&1 ||
		{ say "go test -c -tags hwsim ./nl80211 failed:"; cat "$OUT/go-build-nl80211.test.log" >&2; return 1; }
	# The harness's own tools (a separate module under tools/): the air
	# sniffer, the privilege dropper for the non-root scenario and the
	# admission flooder and the attacker of s15-wpa2-attack and s15-wpa2-pmf.
	for tool in e2esniff e2edrop e2eflood e2einject; do
		(cd "$HERE/tools" && CGO_ENABLED=0 go build -trimpath -o "$p/usr/local/bin/$tool" "./$tool") \
			>"$OUT/go-build-$tool.log" 2>&1 || { say "go build $tool failed:"; cat "$OUT/go-build-$tool.log" >&2; return 1; }
	done
	if [ -n "${E2E_EXTRA:-}" ]; then cp -a "$E2E_EXTRA"/. "$p/" || return 1; fi
	install -m 0755 "$HERE/vm/init" "$p/init"
	install -m 0755 "$HERE"/vm/*.sh "$p/e2e/"
	(cd "$p" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$OUT/payload.cpio.gz" || return 1
	# The kernel unpacks concatenated archives in order; the payload's /init
	# and binaries are added on top of the base image. Every VM of the run
	# boots this one image and picks its scenarios from its command line.
	cat "$OUT/base.cpio.gz" "$OUT/payload.cpio.gz" >"$OUT/initrd.img"
}

############################################################################
scenario_list() {
	local s
	if [ -n "${E2E_SCENARIOS:-}" ]; then echo $E2E_SCENARIOS; return; fi
	for s in "$HERE"/vm/s[0-9]*.sh; do basename "$s" .sh; done | tr '\n' ' '
}

############################################################################
# The split. costs.txt gives each scenario's host wall seconds in a VM (and
# "boot": a VM's start-up and power-off), measured by `run.sh costs` on the
# serial logs of a run. plan_vms deals the scenarios to the VMs by cost,
# largest first, each to the VM with the least so far (ties: the lower VM
# number, then the name), so the same list always gives the same VMs; each
# VM then runs its share in the suite's order. A VM's budget is
# BUDGET_MARGIN times its boot and scenarios: past half of it, the run warns.
BUDGET_MARGIN=2
DEFAULT_COST=120     # a scenario the table lacks (warned): a scenario's usual cost
DEFAULT_BOOT_COST=30 # a table without its boot row
VM_MIN_COST=${E2E_VM_MIN_COST:-120} # scenario seconds worth booting another VM for
declare -A COST=()
BOOT_COST=$DEFAULT_BOOT_COST
load_costs() {
	local name secs
	COSTS=${E2E_COSTS:-$HERE/costs.txt} COST=() BOOT_COST=$DEFAULT_BOOT_COST
	[ -f "$COSTS" ] || { say "WARNING: no cost table $COSTS: every scenario costs ${DEFAULT_COST}s"; return 0; }
	while read -r name secs _; do
		[[ $name == "" || $name == \#* ]] && continue
		[[ $secs =~ ^[0-9]+$ ]] || { say "WARNING: $COSTS: '$name $secs': want NAME SECONDS"; continue; }
		if [ "$name" = boot ]; then BOOT_COST=$secs; else COST[$name]=$secs; fi
	done <"$COSTS"
}
# default_vms: the host's cores, 1 to 4 (each VM is one TCG thread)
default_vms() {
	local n
	n=$(nproc 2>/dev/null || echo 1)
	((n < 1)) && n=1
	((n > 4)) && n=4
	echo "$n"
}
# plan_vms SCENARIO...: NVMS, and per VM i (1..NVMS) VM_SCEN[i] (its
# scenarios in the given order), VM_COST[i] (boot + scenarios, seconds) and
# VM_BUDGET[i] (seconds; E2E_TIMEOUT replaces it)
plan_vms() {
	local s i best total=0 n want order=() tmp
	declare -A cost_of=() vm_of=()
	NVMS=0 VM_SCEN=() VM_COST=() VM_BUDGET=()
	[ $# -gt 0 ] || return 0
	for s; do
		if [ -n "${COST[$s]:-}" ]; then cost_of[$s]=${COST[$s]}
		else
			cost_of[$s]=$DEFAULT_COST
			say "WARNING: $COSTS lacks $s: counted as ${DEFAULT_COST}s (measure it: make e2e, then make e2e-costs)"
		fi
		total=$((total + ${cost_of[$s]}))
	done
	want=${E2E_VMS:-$(default_vms)}
	[[ $want =~ ^[1-9][0-9]*$ ]] || { say "E2E_VMS=$want: want a number of VMs (1 or more)"; return 1; }
	n=$((total / VM_MIN_COST))
	((n < 1)) && n=1
	((n > want)) && n=$want
	(($# < n)) && n=$#
	NVMS=$n
	for ((i = 1; i <= n; i++)); do VM_COST[i]=$BOOT_COST VM_SCEN[i]=""; done
	mapfile -t order < <(for s; do echo "${cost_of[$s]} $s"; done | sort -k1,1nr -k2,2 | cut -d' ' -f2)
	for s in "${order[@]}"; do
		best=1
		for ((i = 2; i <= n; i++)); do ((VM_COST[i] < VM_COST[best])) && best=$i; done
		vm_of[$s]=$best
		VM_COST[best]=$((VM_COST[best] + ${cost_of[$s]}))
	done
	for s; do
		i=${vm_of[$s]}
		tmp=${VM_SCEN[i]}
		VM_SCEN[i]=${tmp:+$tmp }$s
	done
	for ((i = 1; i <= n; i++)); do
		VM_BUDGET[i]=${E2E_TIMEOUT:-$((BUDGET_MARGIN * VM_COST[i]))}
	done
}
# vm_verdict I WALL RC: VM I's wall time beside its budget; a warning past
# half of it (the margin is for a loaded host, not for growth: re-measure)
vm_verdict() {
	local i=$1 wall=$2 rc=$3 budget=${VM_BUDGET[$1]} pct
	pct=$(awk -v w="$wall" -v b="$budget" 'BEGIN{printf "%d", 100 * w / b}')
	say "vm$i: wall ${wall}s of its ${budget}s budget (${pct}%; planned ${VM_COST[i]}s), qemu exit=$rc: ${VM_SCEN[i]}"
	[ "$rc" = 124 ] && say "vm$i: qemu hit its ${budget}s budget and was stopped"
	if awk -v w="$wall" -v b="$budget" 'BEGIN{exit !(2 * w > b)}'; then
		say "WARNING: vm$i took ${wall}s, past half its ${budget}s budget (load average $(loadavg)," \
			"$(nproc 2>/dev/null || echo ?) cores): a loaded host, or scenarios that grew (make e2e-costs)"
	fi
	return 0
}
loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }

# choose_accel: ACCEL, CLOCK ("icount": the guest's clock counts
# instructions; "host": it is the host's) and ICOUNT_ARGS. TCG with counted
# instructions unless asked otherwise: it runs everywhere and makes the
# asserted figures repeat. KVM only with E2E_ACCEL=kvm, and only if a probe
# boot prints a console line (kvm_probe); else a message and TCG. On a host
# whose /dev/kvm runs no guest (nested, in a container) qemu either aborts
# at once or boots a guest that never prints anything.
choose_accel() {
	ACCEL=${E2E_ACCEL:-tcg} CLOCK=host ICOUNT_ARGS=()
	[ "$ACCEL" = tcg ] && ACCEL=tcg,thread=single
	if [[ $ACCEL == kvm* ]] && ! kvm_probe; then
		say "E2E_ACCEL=$ACCEL: KVM unusable: $KVM_WHY; falling back to TCG (tcg,thread=single)"
		ACCEL=tcg,thread=single
	fi
	# -icount needs TCG on one thread (qemu refuses it with MTTCG)
	if [ "$ICOUNT" != off ] && [[ $ACCEL == tcg* ]]; then
		ICOUNT_ARGS=(-icount "shift=$ICOUNT,sleep=off")
		CLOCK=icount
	fi
	say "accelerator ${ACCEL%%,*}, guest clock: $([ $CLOCK = icount ] && echo "counted instructions (figures asserted)" || echo "the host's (throughput figures reported, not asserted)")"
}
# kvm_probe: boot the kernel without a root file system under KVM; it must
# print its banner within E2E_KVM_PROBE_SECS (panic=-1 and -no-reboot end qemu
# after the missing root). E2E_KVM_PROBE replaces the qemu command (the
# host-side test makes the probe print nothing, or hang). Sets KVM_WHY.
KVM_DEV=/dev/kvm # harness_test.sh points it elsewhere: a host without KVM
kvm_probe() {
	local out rc cmd limit=${E2E_KVM_PROBE_SECS:-10}
	[ -w "$KVM_DEV" ] || { KVM_WHY="$KVM_DEV is missing or not writable"; return 1; }
	if [ -n "${E2E_KVM_PROBE:-}" ]; then
		cmd=(sh -c "$E2E_KVM_PROBE")
	else
		cmd=(qemu-system-x86_64 -machine pc -accel kvm -cpu max -m 128M -nodefaults -no-user-config -no-reboot
			-display none -serial stdio -kernel "$OUT/vmlinuz" -append "console=ttyS0 panic=-1")
	fi
	say "probing KVM: a boot must print a console line within ${limit}s"
	out=$(timeout -k 1 "$limit" "${cmd[@]}" </dev/null 2>&1 | head -c 65536; exit "${PIPESTATUS[0]}")
	rc=$?
	grep -q 'Linux version' <<<"$out" && return 0
	if [ $rc = 124 ]; then KVM_WHY="the probe boot printed no console line in ${limit}s"
	else KVM_WHY="the probe boot exited (status $rc) without a console line"; fi
	[ -n "$out" ] && KVM_WHY="$KVM_WHY; qemu: $(tail -n 1 <<<"$out")"
	return 1
}
phase_boot() {
	local i pids=() wall rc load0
	choose_accel
	SCENARIOS=$(scenario_list)
	load_costs
	plan_vms $SCENARIOS || return 1
	say "scenarios: $SCENARIOS"
	load0=$(loadavg)
	say "$NVMS VM(s) at once, load average $load0; each VM's budget is ${BUDGET_MARGIN}x its boot (${BOOT_COST}s) and scenarios in $COSTS${E2E_TIMEOUT:+, replaced by E2E_TIMEOUT=$E2E_TIMEOUT}"
	for ((i = 1; i <= NVMS; i++)); do
		say "vm$i: budget ${VM_BUDGET[i]}s (planned ${VM_COST[i]}s): ${VM_SCEN[i]}"
		rm -rf "$OUT/vm$i" && mkdir -p "$OUT/vm$i/share" || return 1
		boot_vm "$i" &
		pids+=($!)
	done
	wait "${pids[@]}"
	echo "load average $load0 at the start, $(loadavg) at the end" >"$OUT/load" # for the cost table
	for ((i = 1; i <= NVMS; i++)); do
		{ read -r rc wall <"$OUT/vm$i/exit"; } 2>/dev/null || { rc=unknown wall=0; }
		vm_verdict "$i" "$wall" "$rc"
	done
	return 0
}
# boot_vm I: VM I on its scenarios, its console stamped with the host time
# into its serial.log (and, prefixed "vmI", to stdout when there are
# several); writes "<qemu status> <wall seconds>" to vmI/exit
boot_vm() {
	local i=$1 dir=$OUT/vm$1 cmd start rc prefix=
	[ "$NVMS" -gt 1 ] && prefix="vm$i "
	# -nodefaults: no NIC/VGA; the VM needs no network. -no-reboot: the guest's
	# poweroff ends qemu. panic=-1: a kernel panic ends qemu too.
	cmd=(qemu-system-x86_64
		-machine pc -accel "$ACCEL" -cpu max -smp "$SMP" -m "$MEM"
		-nodefaults -no-user-config -no-reboot -display none -serial stdio
		-kernel "$OUT/vmlinuz" -initrd "$OUT/initrd.img"
		-append "console=ttyS0 quiet panic=-1 rdinit=/init airq.scenarios=$(echo ${VM_SCEN[i]} | tr ' ' ,) airq.accel=${ACCEL%%,*} airq.clock=$CLOCK${E2E_MON_MTU:+ airq.monmtu=$E2E_MON_MTU}"
		-virtfs "local,path=$dir/share,mount_tag=hostshare,security_model=none,id=hostshare"
		"${ICOUNT_ARGS[@]}")
	say "vm$i: ${cmd[*]}"
	start=$(now)
	timeout --foreground -k 5 "${VM_BUDGET[i]}" "${cmd[@]}" </dev/null | stamp | tee "$dir/serial.log" | sed -u "s/^/$prefix/"
	rc=${PIPESTATUS[0]}
	echo "$rc $(secs "$start")" >"$dir/exit"
	say "vm$i: qemu exit=$rc wall=$(secs "$start")s accel=$ACCEL${ICOUNT_ARGS:+ icount=${ICOUNT_ARGS[1]}} smp=$SMP mem=$MEM"
}
stamp() {
	local t0=${EPOCHREALTIME/./} line cs
	while IFS= read -r line; do
		cs=$(((${EPOCHREALTIME/./} - t0) / 10000))
		printf '[host %3d.%02ds] %s\n' $((cs / 100)) $((cs % 100)) "${line%$'\r'}"
	done
}

############################################################################
# The skips a run may have: "<check pattern>|<when>|<why>", <when> being
# "always" or "host" (the guest's clock is the host's: KVM, E2E_ICOUNT=off).
# Any other skip fails the run: a check that quietly stops being made (a
# flag airqd lost, a tool missing from the image) is not a pass.
EXPECTED_SKIPS=(
	"s9-sidebyside.airbase.*|always|airbase-ng is a guest row of the comparison: it gets one only if wpa_supplicant completes the exchange with it on hwsim, which airq does not decide"
	"s9-sidebyside.floor_*|host|the airq/hostapd ratios are reported, not asserted, when the guest's clock is the host's (KVM, E2E_ICOUNT=off): the host's load moves them"
	"s15-wpa2.ratio_*|host|the WPA2/open throughput ratios move with the host's load when the guest's clock is the host's"
	"s17-multibss-hostapd.floor_*|host|the airq/hostapd ratios with two BSSes are reported, not asserted, when the guest's clock is the host's: the host's load moves them"
	"s16-sae-flood.*.loop_latency|always|a target not met, its figure reported: with iperf3 a downlink frame costs the loop about 0.85 ms of the emulated CPU (the station's stack runs in airqd's write) and the vCPU is saturated; the loop hands the core its batches in pieces of about 4 ms (shell/turns.go), so 63-78 % of the samples are within 5 ms, beside the foreign injection as under the flood, the largest 20-100 ms (the detail has both; airqd waits about 0.3 ms for the CPU each time it wakes, schedstat); quiet_loop_latency is the flood's own share"
	"s16-sae-flood.*.quiet_loop_latency|always|a target not met, its figure reported: with one CPU (GOMAXPROCS=1) the loop waits for the SAE job's piece in work, one scalar multiplication or exponentiation (the smallest unit filippo.io/nistec and bigmod offer), about 5 ms on the VM's emulated CPU: 0-6 % of the samples take more than 5 ms, none more than 20 ms (every sample within 5 ms in 5 of the 10 readings of the five full runs of 2026-12-06)"
)
# skip_reason CHECK: why CHECK may skip in this run; rc 1 if it may not
skip_reason() {
	local e pat when why
	for e in "${EXPECTED_SKIPS[@]}"; do
		IFS='|' read -r pat when why <<<"$e"
		# shellcheck disable=SC2053 # pat is a glob
		if [[ $1 == $pat ]] && { [ "$when" = always ] || [ "$when" = "$CLOCK" ]; }; then
			echo "$why"
			return 0
		fi
	done
	return 1
}
# vm_results I: VM I's RESULT lines, from its share or else its console
vm_results() {
	local dir=$OUT/vm$1
	if [ -f "$dir/share/results.log" ]; then
		grep '^RESULT name=' "$dir/share/results.log"
	else
		say "vm$1: no results.log on its share; reading RESULT lines from its serial console"
		sed -n 's/^\[host [ 0-9.]*s\] \(RESULT name=\)/\1/p' "$dir/serial.log" 2>/dev/null
	fi
	return 0
}
# phase_report: the VMs' results merged into one verdict (plan_vms's NVMS
# and VM_SCEN say which VM ran what)
phase_report() {
	local results="" vres pass fail skip s line name why missing=0 vmissing i f expected=() unexpected=()
	for ((i = 1; i <= NVMS; i++)); do
		vres=$(vm_results "$i")
		results+=${vres:+$vres$'\n'}
		# A scenario that failed without a failed check (killed at its time limit,
		# non-zero exit, no checks at all) or that never reported counts as one.
		vmissing=0
		for s in ${VM_SCEN[i]}; do
			# (grep -q on a here-string: echo | grep -q fails under pipefail
			# when grep exits before echo has written everything)
			if ! grep -q "^RESULT name=$s \(pass\|fail\)" <<<"$vres"; then
				say "scenario $s (vm$i) reported no final status (crash or timeout)"
				vmissing=$((vmissing + 1))
			elif grep -q "^RESULT name=$s fail" <<<"$vres" &&
				! grep -q "^RESULT name=$s\.[^ ]* fail" <<<"$vres"; then
				vmissing=$((vmissing + 1))
			fi
		done
		if [ ! -f "$OUT/vm$i/share/status" ]; then
			say "vm$i wrote no status file (timeout or crash); see $OUT/vm$i/serial.log"
			[ "$vmissing" = 0 ] && vmissing=1
		fi
		missing=$((missing + vmissing))
	done
	# Check lines are "RESULT name=<scenario>.<check> pass|fail ...";
	# the line "RESULT name=<scenario> pass|fail ..." closes a scenario.
	pass=$(echo "$results" | grep -c '^RESULT name=[^ ]*\.[^ ]* pass')
	fail=$(echo "$results" | grep -c '^RESULT name=[^ ]*\.[^ ]* fail')
	while read -r line; do
		[ -n "$line" ] || continue
		name=${line#RESULT name=} name=${name%% *}
		if why=$(skip_reason "$name"); then expected+=("$line"$'\n'"    expected: $why")
		else unexpected+=("$line"); fi
	done <<<"$(echo "$results" | grep '^RESULT name=[^ ]*\.[^ ]* skip')"
	skip=${#expected[@]}
	fail=$((fail + ${#unexpected[@]} + missing))
	echo
	echo "---- results"
	echo "$results" | grep -v '^$'
	if [ "$fail" -gt 0 ]; then
		echo "---- failed checks"
		echo "$results" | grep ' fail' || true
		[ ${#unexpected[@]} = 0 ] || printf '%s (a skip not in EXPECTED_SKIPS: failed)\n' "${unexpected[@]}"
		for f in "$OUT"/vm*/share/*airqd*.log; do
			[ -f "$f" ] || continue
			echo "---- tail of $f"
			tail -n 40 "$f"
		done
	fi
	for f in "$OUT"/vm*/share/sidebyside.txt; do
		[ -f "$f" ] || continue
		echo "---- side by side (s9-sidebyside)"
		cat "$f"
	done
	for f in "$OUT"/vm*/share/multibss.txt; do
		[ -f "$f" ] || continue
		echo "---- two BSSes side by side (s17-multibss-hostapd)"
		cat "$f"
	done
	echo "---- timings: ${TIMINGS[*]}"
	for ((i = 1; i <= NVMS; i++)); do
		sed -n "s/^\[host *\([0-9.]*s\)\] TIMING \(.*\)/---- vm$i: \2 (host clock \1)/p" "$OUT/vm$i/serial.log" 2>/dev/null
		{ read -r _ f <"$OUT/vm$i/exit"; } 2>/dev/null && echo "---- vm$i: wall ${f}s of its ${VM_BUDGET[i]}s budget"
		echo "---- vm$i logs: $OUT/vm$i/share (serial: $OUT/vm$i/serial.log)"
	done
	[ "$skip" = 0 ] || { echo "---- expected skips (run.sh EXPECTED_SKIPS; counted neither way)"; printf '%s\n' "${expected[@]}"; }
	# The failures once more, last, where a log's tail shows them.
	if [ "$fail" -gt 0 ]; then
		echo "---- failed checks, again"
		echo "$results" | grep '^RESULT name=[^ ]*\.[^ ]* fail' || true
		[ ${#unexpected[@]} = 0 ] || printf '%s (a skip not in EXPECTED_SKIPS: failed)\n' "${unexpected[@]}"
	fi
	echo "e2e: $pass passed, $fail failed, $skip expected skips"
	[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
}

# costs_table: the cost table of the last run, from its VMs' serial logs:
# each scenario's host seconds from its "INIT: ==== scenario" line to its
# closing RESULT line, rounded up; boot is the longest start-up (qemu to the
# first scenario) plus power-off (last RESULT to the end). Scenarios the run
# did not measure (E2E_SCENARIOS) keep their row. make e2e-costs.
costs_table() {
	local logs=("$OUT"/vm*/serial.log) f measured s
	[ -f "${logs[0]}" ] || { say "no serial logs in $OUT/vm*/: run make e2e first"; return 1; }
	measured=$(for f in "${logs[@]}"; do
		awk '
		function up(x) { return x == int(x) ? x : int(x) + 1 }
		/^\[host/ {
			last = $2; sub(/s\]$/, "", last); last += 0
			if ($3 == "INIT:" && $4 == "====" && $5 == "scenario") {
				if (first == "") first = last
				start[$6] = last
			}
			if ($3 == "RESULT" && $4 ~ /^name=[^.]*$/ && ($5 == "pass" || $5 == "fail")) {
				# /init prints every closing line again at the end: the first counts
				n = substr($4, 6); if (n in start) { print n, up(last - start[n]); delete start[n]; lastres = last }
			}
		}
		END { if (first != "") print "boot", up(first + last - lastres) }' "$f"
	done)
	load_costs 2>/dev/null
	echo "# Host wall seconds per e2e scenario in its VM, and a VM's boot and power-off:"
	echo "# run.sh deals the scenarios to the VMs by these and sizes each VM's budget"
	echo "# from them (${BUDGET_MARGIN}x). Measured by: make e2e && make e2e-costs"
	echo "# (run.sh costs), $(date -u +%Y-%m-%d), $(nproc) cores, ${#logs[@]} VMs, $(cat "$OUT/load" 2>/dev/null || echo "load unknown")."
	{
		echo "$measured"
		grep -q '^boot ' <<<"$measured" || echo "boot $BOOT_COST"
		for s in "${!COST[@]}"; do grep -q "^$s " <<<"$measured" || echo "$s ${COST[$s]}"; done
	} | awk 'NF == 2 { if ($1 == "boot") { if ($2 > boot) boot = $2; next } print } END { print "boot", boot }' | sort -V -k1,1 |
		awk '$1 == "boot" { print; next } { rest = rest $0 "\n" } END { printf "%s", rest }'
}

############################################################################
main() {
	mkdir -p "$BUILD" "$OUT" || exit 1
	if [ "${1:-}" = costs ]; then costs_table; exit; fi
	# One run per output folder; runs beside each other share only the cache,
	# built under its lock (a second run waits for the first's build).
	exec 8>"$OUT/run.lock" 9>"$BUILD/cache.lock"
	flock -n 8 || die "another run is using $OUT (set E2E_OUT to a folder of its own)"
	T0=$(now)
	flock -n 9 || { say "waiting for another run's cache build ($BUILD/cache.lock)"; flock 9; }
	timed setup phase_setup || die "setup failed"
	timed kernel phase_kernel || die "kernel package failed"
	timed base phase_base || die "base initramfs failed"
	flock -u 9
	timed payload phase_payload || die "payload (airqd build) failed"
	timed boot phase_boot || die "boot failed"
	TIMINGS+=("total=$(secs "$T0")s")
	phase_report
}
# Sourced (harness_test.sh), it only defines the phases.
[ "${BASH_SOURCE[0]}" != "$0" ] || main "$@"
