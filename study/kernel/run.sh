#!/bin/bash
# run.sh - `make study-kernel`: seed 000's closed rounds on a real Linux
# kernel (docs/closed-rounds.md, "The real kernel"). build.sh fetches
# Debian's 6.12 kernel and builds the two mac80211 arms and hwsim; this
# script packs them with hostapd, wpa_supplicant, iperf3 and the Go medium
# (study/kernel/hwsim-medium) into an initramfs, boots it under qemu (TCG,
# instruction-counted clock, like test/e2e) and prints the arms' table and
# the RESULT line.
#
# Environment (besides build.sh's):
#   STUDY_RUNS     runs per arm of the primary phase, interleaved ABAB (3)
#   STUDY_SECS     seconds per TCP download (10)
#   STUDY_PHASES   NAME:MEDIUM:TX_ROUND:RUNS:SECS,... (default below):
#                  MEDIUM kernel is hwsim's own medium (every frame
#                  completes at once), netlink the Go medium (airtime);
#                  TX_ROUND is hwsim's tx_round (0: mac80211's generic
#                  wake_tx_queue only, 1: a round after every TX status,
#                  2: after the last status of each exchange)
#   STUDY_LIMITS   BE aql_txq_limit low:high in us (500:1000)
#   STUDY_ICOUNT   qemu's -icount shift (1: 2 ns of guest time per guest
#                  instruction; the e2e tier's 2 leaves the guest too
#                  little CPU for the medium's netlink traffic)
#   STUDY_MEDPRIO  SCHED_FIFO priority of the medium in the VM (50; 0 off)
#   STUDY_ARMS     the arms, in order (legacy,fixed; also: stock, Debian's
#                  own mac80211 and hwsim, without counters)
#   STUDY_TIMEOUT  wall-clock limit for qemu, seconds (1500)
#   STUDY_MEDFLAGS extra hwsim-medium flags, comma-separated (-max-mcs,5)
#   STUDY_TRACE=1  the VM's plan runs under set -x
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# shellcheck source=build.sh
. "$HERE/build.sh"
B=$SK_BUILD
RUNS=${STUDY_RUNS:-3}
SECS=${STUDY_SECS:-10}
PHASES=${STUDY_PHASES:-kernel:kernel:0:1:5,primary:netlink:2:$RUNS:$SECS,perstatus:netlink:1:2:$SECS}
LIMITS=${STUDY_LIMITS:-500:1000}
ICOUNT=${STUDY_ICOUNT:-1}
TIMEOUT=${STUDY_TIMEOUT:-1500}
MEDPRIO=${STUDY_MEDPRIO:-50}
SHARE=$B/share

die() { sk_say "ERROR: $*"; exit 1; }
[[ $RUNS =~ ^[1-9][0-9]?$ ]] || die "STUDY_RUNS=$RUNS: want 1-99"
[[ $SECS =~ ^[1-9][0-9]*$ ]] || die "STUDY_SECS=$SECS: want whole seconds"
[[ $PHASES =~ ^([a-z]+:(kernel|netlink):[012]:[1-9][0-9]?:[1-9][0-9]*,?)+$ ]] ||
	die "STUDY_PHASES=$PHASES: want NAME:kernel|netlink:0|1|2:RUNS:SECS,..."
[[ $LIMITS =~ ^[0-9]+:[0-9]+$ ]] || die "STUDY_LIMITS=$LIMITS: want low:high in us"
[[ $ICOUNT =~ ^([0-9]|10)$ ]] || die "STUDY_ICOUNT=$ICOUNT: want a shift 0-10"
[[ $MEDPRIO =~ ^[0-9]+$ ]] && [ "$MEDPRIO" -le 99 ] || die "STUDY_MEDPRIO=$MEDPRIO: want 0-99"
[[ ${STUDY_ARMS:-legacy} =~ ^((legacy|fixed|stock),?)+$ ]] || die "STUDY_ARMS=$STUDY_ARMS: want legacy, fixed, stock, comma-separated"

# Host packages whose binaries go into the VM (never installed in it).
PACKAGES="qemu-system-x86 busybox-static iw wpasupplicant hostapd iperf3 iproute2 kmod cpio wireless-regdb"
TOOLS="/usr/sbin/iw /usr/sbin/wpa_supplicant /usr/sbin/wpa_cli /usr/sbin/hostapd /usr/bin/iperf3 /bin/ip /usr/bin/chrt"
# stock modules of the 6.12 image (dependencies resolved by modprobe)
MODULES="cfg80211 virtio_pci 9pnet_virtio 9p veth"

setup() {
	local p missing=()
	for p in $PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} = 0 ] && return 0
	sk_say "installing ${missing[*]}"
	apt-get update -q >"$B/apt.log" 2>&1 &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$B/apt.log" 2>&1 ||
		{ tail -5 "$B/apt.log" >&2; return 1; }
}

# image: base cpio (busybox, modules, tools and their libraries), cached
# under a hash of its inputs, plus the medium and the scripts.
image() {
	local root key m f ko
	key=$({
		echo "$SK_VER $MODULES $SK_MODS $SK_HWSIM"
		for f in $TOOLS /bin/busybox; do sha256sum "$(readlink -f "$f")"; done
		declare -f image
	} | sha256sum | cut -c1-16)
	BASE=$B/base/$key.cpio.gz
	if [ ! -f "$BASE" ]; then
		sk_say "building the base initramfs ($key)"
		root=$B/base/root
		rm -rf "$B/base" && mkdir -p "$root"/{bin,proc,sys,dev,tmp,run,mnt/host,etc,lib64,usr/bin,usr/sbin,lib/modules/"$SK_KREL",study}
		ln -s bin "$root/sbin"
		cp /bin/busybox "$root/bin/"
		for f in $(/bin/busybox --list); do [ -e "$root/bin/$f" ] || ln -s busybox "$root/bin/$f"; done
		for m in $MODULES libarc4; do
			modprobe -d "$SK_ROOT" -S "$SK_KREL" --show-depends "$m" | awk '$1=="insmod"{print $2}'
		done | sort -u | while read -r ko; do
			mkdir -p "$root/$(dirname "${ko#"$SK_ROOT"/}")" && cp "$ko" "$root/${ko#"$SK_ROOT"/}"
		done
		# busybox's modprobe hands the file to the kernel as it is
		find "$root/lib/modules" -name '*.ko.xz' -exec xz -d {} +
		cp "$SK_ROOT/lib/modules/$SK_KREL"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$SK_KREL/"
		sed -i 's/\.ko\.xz$/.ko/' "$root/lib/modules/$SK_KREL/modules.order"
		depmod -b "$root" "$SK_KREL" || return 1
		mkdir -p "$root/lib/study/legacy" "$root/lib/study/fixed"
		cp "$SK_MODS/legacy/mac80211.ko" "$root/lib/study/legacy/"
		cp "$SK_MODS/fixed/mac80211.ko" "$root/lib/study/fixed/"
		cp "$SK_HWSIM/mac80211_hwsim.ko" "$root/lib/study/"
		# the stock pair, for comparison runs (study.arms=stock)
		mkdir -p "$root/lib/study/stock"
		for m in net/mac80211/mac80211 drivers/net/wireless/virtual/mac80211_hwsim; do
			xz -dc "$SK_ROOT/lib/modules/$SK_KREL/kernel/$m.ko.xz" >"$root/lib/study/stock/${m##*/}.ko" || return 1
		done
		for f in $TOOLS; do
			echo "$f"
			ldd "$f" | awk '/=> \//{print $3} /^\t\/lib64/{print $1}'
		done | sort -u | while read -r f; do
			case $f in
			/bin/ip) cp -L "$f" "$root/usr/sbin/ip" ;; # before busybox's ip on PATH
			*) mkdir -p "$root/$(dirname "$f")" && cp -L "$f" "$root/$f" ;;
			esac
		done
		echo "root:x:0:0:root:/:/bin/sh" >"$root/etc/passwd"
		# channel 36 needs a country (iw reg set US) and so the database
		mkdir -p "$root/lib/firmware"
		cp /lib/firmware/regulatory.db-debian "$root/lib/firmware/regulatory.db"
		cp /lib/firmware/regulatory.db.p7s-debian "$root/lib/firmware/regulatory.db.p7s"
		cp "$SK_ROOT/boot/vmlinuz-$SK_KREL" "$B/base/vmlinuz"
		(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$BASE.tmp" && mv "$BASE.tmp" "$BASE" || return 1
		rm -rf "$root"
	fi
	local p=$B/payload
	rm -rf "$p" && mkdir -p "$p/usr/local/bin" "$p/study"
	(cd "$REPO" && CGO_ENABLED=0 go build -trimpath -o "$p/usr/local/bin/hwsim-medium" ./study/kernel/hwsim-medium) \
		>"$B/go-build.log" 2>&1 || { cat "$B/go-build.log" >&2; return 1; }
	install -m 0755 "$HERE/vm/init" "$p/init"
	install -m 0755 "$HERE"/vm/*.sh "$p/study/"
	(cd "$p" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$B/payload.cpio.gz" || return 1
	cat "$BASE" "$B/payload.cpio.gz" >"$B/initrd.img"
}

boot() {
	rm -rf "$SHARE" && mkdir -p "$SHARE"
	local args="console=ttyS0 quiet panic=-1 rdinit=/init study.phases=$PHASES study.limits=$LIMITS${STUDY_ARMS:+ study.arms=$STUDY_ARMS}${STUDY_TRACE:+ study.trace=1}${STUDY_MEDFLAGS:+ study.medflags=$STUDY_MEDFLAGS} study.medprio=$MEDPRIO"
	sk_say "booting: $args (icount shift=$ICOUNT)"
	timeout --foreground -k 5 "$TIMEOUT" qemu-system-x86_64 -machine pc -accel tcg,thread=single -cpu max -smp 1 -m 512M \
		-nodefaults -no-user-config -no-reboot -display none -serial stdio \
		-kernel "$B/base/vmlinuz" -initrd "$B/initrd.img" -append "$args" \
		-virtfs "local,path=$SHARE,mount_tag=hostshare,security_model=none,id=hostshare" \
		-icount "shift=$ICOUNT,sleep=off" </dev/null >"$B/serial.log" 2>&1
	sk_say "qemu exit=$? (serial console: $B/serial.log)"
}

main() {
	local t0=$SECONDS
	mkdir -p "$B" || exit 1
	setup || die "host packages"
	sk_fetch || die "kernel packages"
	sk_build || die "module build"
	image || die "initramfs"
	sk_say "prepared in $((SECONDS - t0)) s"
	boot
	sk_say "total $((SECONDS - t0)) s"
	[ -f "$SHARE/runs.txt" ] || die "the VM wrote no runs.txt; tail of the console:$(echo; tail -n 30 "$B/serial.log")"
	bash "$HERE/report.sh" "$SHARE/runs.txt" "$LIMITS"
}
main
