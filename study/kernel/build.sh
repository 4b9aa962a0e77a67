#!/bin/bash
# build.sh - the kernel side of the closed-round study on a real kernel
# (docs/closed-rounds.md, "The real kernel"): fetch Debian's 6.12 kernel for
# bookworm, pinned to one version for image, headers and source, and build
# out of tree
#   legacy/mac80211.ko   mainline 6.12 mac80211 + the study's instrumentation
#   fixed/mac80211.ko    the same + seed 000's patch (patches/seed-000.patch)
#   mac80211_hwsim.ko    hwsim + a parameter that advertises AQL
# then check that the built modules' exported symbol CRCs are the stock
# ones (so they load beside the stock cfg80211, and hwsim beside either).
#
# Sourced by run.sh (it defines the functions); run alone it builds and
# prints where the modules are.
#
# Environment:
#   STUDY_KERNEL_BUILD  cache and output directory (/tmp/airq-study-kernel)
#   STUDY_KVER          the Debian version to pin (default: what the
#                       linux-image-6.12-amd64 meta-package depends on)
#   STUDY_NO_APT=1      never call apt-get update
set -uo pipefail

SK_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SK_BUILD=${STUDY_KERNEL_BUILD:-/tmp/airq-study-kernel}
SK_PATCHES=$SK_HERE/patches

sk_say() { echo "study-kernel: $*" >&2; }

# sk_resolve: SK_VER (Debian version, e.g. 6.12.117-1~deb12u1) and SK_ABI
# (6.12.117+deb12) from linux-image-6.12-amd64's exact dependency, or from
# STUDY_KVER. Every package is then pinned to SK_VER: Debian keeps several
# 6.12 ABIs in bookworm-security and drops superseded ones.
sk_resolve() {
	SK_VER=${STUDY_KVER:-}
	[ -n "$SK_VER" ] || SK_VER=$(apt-cache show --no-all-versions linux-image-6.12-amd64 2>/dev/null |
		sed -n 's/^Depends:.*linux-image-[0-9][^ ,]*-amd64 (= \([^)]*\)).*/\1/p' | head -1)
	SK_ABI=${SK_VER%%-*}+deb12
	[ -n "$SK_VER" ] && apt-cache show "linux-image-$SK_ABI-amd64=$SK_VER" >/dev/null 2>&1
}

sk_packages() {
	echo "linux-image-$SK_ABI-amd64 linux-headers-$SK_ABI-amd64 linux-headers-$SK_ABI-common linux-kbuild-$SK_ABI linux-source-6.12"
}

# sk_fetch: download and unpack the five packages (never installed) into
# $SK_ROOT; the headers' Makefile includes the common headers by absolute
# path, which is pointed into the unpacked tree.
sk_fetch() {
	local p dl
	if ! sk_resolve; then
		[ "${STUDY_NO_APT:-0}" = 1 ] && { sk_say "cannot resolve linux-image-6.12-amd64 (no apt lists?)"; return 1; }
		apt-get update -q >"$SK_BUILD/apt.log" 2>&1 || { tail -5 "$SK_BUILD/apt.log" >&2; return 1; }
		sk_resolve || { sk_say "cannot resolve linux-image-6.12-amd64's kernel package"; return 1; }
	fi
	SK_KREL=$SK_ABI-amd64
	SK_ROOT=$SK_BUILD/kernel/$SK_VER
	SK_HDR=$SK_ROOT/usr/src/linux-headers-$SK_KREL
	sk_say "Debian kernel $SK_VER ($SK_KREL): $(sk_packages)"
	if [ -f "$SK_ROOT/.done" ]; then
		sk_say "packages cached in $SK_ROOT"
		return 0
	fi
	dl=$SK_BUILD/dl/$SK_VER
	rm -rf "$SK_ROOT" && mkdir -p "$dl" "$SK_ROOT"
	for p in $(sk_packages); do
		ls "$dl/${p}_"*.deb >/dev/null 2>&1 && continue
		(cd "$dl" && apt-get download "$p=$SK_VER") >>"$SK_BUILD/download.log" 2>&1 ||
			{ tail -5 "$SK_BUILD/download.log" >&2; return 1; }
	done
	for p in "$dl"/*.deb; do dpkg-deb -x "$p" "$SK_ROOT" || return 1; done
	sed -i "s#^include /usr/src/#include $SK_ROOT/usr/src/#" "$SK_HDR/Makefile" || return 1
	tar -xJf "$SK_ROOT/usr/src/linux-source-6.12.tar.xz" -C "$SK_ROOT/usr/src" \
		linux-source-6.12/net/mac80211 linux-source-6.12/drivers/net/wireless/virtual || return 1
	rm "$SK_ROOT/usr/src/linux-source-6.12.tar.xz"
	# the image ships no modules.dep (its postinst runs depmod)
	depmod -b "$SK_ROOT" "$SK_KREL" || return 1
	touch "$SK_ROOT/.done"
}

# sk_make DIR LOG: build the module in DIR out of tree against the headers.
# No module BTF: pahole is not needed, and the kernel accepts modules
# without it (BTF is only checked when present).
sk_make() {
	make -C "$SK_HDR" M="$1" -j2 CONFIG_DEBUG_INFO_BTF_MODULES= modules >"$2" 2>&1 ||
		{ tail -20 "$2" >&2; return 1; }
}

# sk_tree ARM DIR: the mac80211 tree of one arm: pristine 6.12 source, the
# seed's patch for the fixed arm, the instrumentation for both.
sk_tree() {
	rm -rf "$2" && mkdir -p "$2/net" && cp -r "$SK_ROOT/usr/src/linux-source-6.12/net/mac80211" "$2/net/" || return 1
	if [ "$1" = fixed ]; then
		(cd "$2" && patch -p1 <"$SK_PATCHES/seed-000.patch") >"$2.patch.log" 2>&1 || { cat "$2.patch.log" >&2; return 1; }
	fi
	(cd "$2" && patch -p1 <"$SK_PATCHES/instrument.patch") >>"$2.patch.log" 2>&1 || { cat "$2.patch.log" >&2; return 1; }
}

# sk_crc SYMVERS MODULE: "symbol crc" lines of MODULE's exports in SYMVERS
sk_crc() { awk -v m="$2" '$3 == m {print $2, $1}' "$1" | sort; }

# sk_imports KO NAME DIFF: every symbol KO imports carries the CRC the stock
# kernel, cfg80211 and mac80211 export (the stock Module.symvers), so the
# module loads beside the stock ones.
sk_imports() {
	local n
	modprobe --dump-modversions "$1" >"$3.dump" || return 1
	if ! awk 'NR == FNR { crc[$2] = $1; next } crc[$2] != $1 { print $2, $1, "stock:", crc[$2]; bad = 1 } END { exit bad }' \
		"$SK_HDR/Module.symvers" "$3.dump" >"$3"; then
		sk_say "$2: imported symbol versions differ from the stock kernel's:"
		head -20 "$3" >&2
		return 1
	fi
	n=$(wc -l <"$3.dump")
	sk_say "$2: $n imported symbol versions equal to the stock kernel's"
}

# sk_build: SK_MODS (legacy/mac80211.ko and fixed/mac80211.ko) and
# SK_HWSIM (mac80211_hwsim.ko), each cached under a key of the version,
# its patches and the functions that shape it.
sk_build() {
	local key arm d
	key=$({
		echo "$SK_VER"
		cat "$SK_PATCHES/seed-000.patch" "$SK_PATCHES/instrument.patch"
		declare -f sk_tree sk_make
	} | sha256sum | cut -c1-16)
	SK_MODS=$SK_BUILD/modules/mac80211-$key
	if [ -f "$SK_MODS/.done" ]; then
		sk_say "mac80211 arms cached in $SK_MODS"
	else
		rm -rf "$SK_BUILD"/modules/mac80211-* && mkdir -p "$SK_MODS"
		for arm in legacy fixed; do
			d=$SK_MODS/src-$arm
			sk_tree $arm "$d" || return 1
			sk_say "building mac80211.ko ($arm): $(grep -c '^patching file' "$d.patch.log") files patched"
			grep -i 'offset\|fuzz' "$d.patch.log" | sed 's/^/  /' >&2
			sk_make "$d/net/mac80211" "$SK_MODS/$arm.log" || return 1
			# the exports must keep the stock CRCs, or the stock hwsim (and
			# ours) would not load against this build
			if ! diff <(sk_crc "$SK_HDR/Module.symvers" net/mac80211/mac80211) \
				<(sk_crc "$d/net/mac80211/Module.symvers" "$d/net/mac80211/mac80211") >"$SK_MODS/$arm.crcdiff"; then
				sk_say "mac80211 ($arm): exported CRCs differ from the stock build:"
				head -20 "$SK_MODS/$arm.crcdiff" >&2
				return 1
			fi
			sk_say "mac80211 ($arm): $(sk_crc "$SK_HDR/Module.symvers" net/mac80211/mac80211 | wc -l) exported CRCs equal to the stock build"
			sk_imports "$d/net/mac80211/mac80211.ko" "mac80211 ($arm)" "$SK_MODS/$arm.imports" || return 1
			mkdir -p "$SK_MODS/$arm"
			strip --strip-debug -o "$SK_MODS/$arm/mac80211.ko" "$d/net/mac80211/mac80211.ko" || return 1
			rm -rf "$d"
		done
		touch "$SK_MODS/.done"
	fi
	key=$({
		echo "$SK_VER"
		cat "$SK_PATCHES/hwsim-aql.patch"
		declare -f sk_make
	} | sha256sum | cut -c1-16)
	SK_HWSIM=$SK_BUILD/modules/hwsim-$key
	if [ -f "$SK_HWSIM/.done" ]; then
		sk_say "hwsim cached in $SK_HWSIM"
		return 0
	fi
	rm -rf "$SK_BUILD"/modules/hwsim-* && mkdir -p "$SK_HWSIM"
	d=$SK_HWSIM/src
	mkdir -p "$d/drivers/net/wireless" &&
		cp -r "$SK_ROOT/usr/src/linux-source-6.12/drivers/net/wireless/virtual" "$d/drivers/net/wireless/" || return 1
	(cd "$d" && patch -p1 <"$SK_PATCHES/hwsim-aql.patch") >"$d.patch.log" 2>&1 || { cat "$d.patch.log" >&2; return 1; }
	sk_say "building mac80211_hwsim.ko (parameters aql, tx_round, ampdu_status)"
	# CONFIG_VIRT_WIFI= : only hwsim is wanted from this directory. The
	# stock Module.symvers has mac80211's CRCs, which the arms keep.
	make -C "$SK_HDR" M="$d/drivers/net/wireless/virtual" -j2 CONFIG_DEBUG_INFO_BTF_MODULES= CONFIG_VIRT_WIFI= \
		modules >"$SK_HWSIM/build.log" 2>&1 || { tail -20 "$SK_HWSIM/build.log" >&2; return 1; }
	sk_imports "$d/drivers/net/wireless/virtual/mac80211_hwsim.ko" mac80211_hwsim "$SK_HWSIM/versions.diff" || return 1
	strip --strip-debug -o "$SK_HWSIM/mac80211_hwsim.ko" "$d/drivers/net/wireless/virtual/mac80211_hwsim.ko" || return 1
	rm -rf "$d"
	touch "$SK_HWSIM/.done"
}

sk_main() {
	mkdir -p "$SK_BUILD" || return 1
	sk_fetch || return 1
	sk_build || return 1
	sk_say "modules: $SK_MODS $SK_HWSIM"
}
[ "${BASH_SOURCE[0]}" != "$0" ] || sk_main
