#!/bin/bash
# hwsim-suite.sh HOSTAP_DIR [MODULE...]: hostap's own test framework
# (tests/hwsim, run-tests.py) with airqd in place of hostapd, in one e2e VM.
# Run by hand or with `make e2e-hostap HOSTAP=DIR`; not part of make e2e or
# make test (it needs a hostap checkout and takes an hour).
#
# HOSTAP_DIR is a hostap source tree (git clone of w1.fi's hostap, a tag such
# as hostap_2_11). This script builds in it, as hostap's own tests/hwsim/
# build.sh does: wpa_supplicant and wpa_cli from
# tests/hwsim/example-wpa_supplicant.config (less D-Bus and the BFD tracer,
# which need libraries the VM does not carry), and wlantest. It needs
# libnl-3-dev, libnl-genl-3-dev, libnl-route-3-dev, libssl-dev and
# libpcap-dev on the host, and Debian's python3 with python3-pycryptodome
# and python3-openssl, which are copied into the VM with the standard
# library. MODULE defaults to the open, PSK, PMF and SAE
# modules (test_ap_open test_ap_psk test_ap_pmf test_sae).
#
# In the VM (vm/hwsim-suite.sh): seven hwsim radios as hostap's start.sh
# makes them, wlantest on hwsim0, wpa_supplicant on wlan0-2 and the spare
# global instance, and airqd -g /var/run/hostapd-global -hostapd-testing on
# wlan3's radio, where run-tests.py's hostapd would run. run-tests.py's
# output and logs land in $E2E_OUT/vm1/share/; this script prints the
# counts per module at the end (also in $E2E_OUT/summary.txt).
#
# Environment: as run.sh (E2E_BUILD, E2E_MEM, E2E_TIMEOUT, E2E_NO_APT, ...);
# E2E_OUT defaults to $E2E_BUILD/hostap-<hash of the source path>, beside
# (not in) make e2e's folder. HWSIM_TESTS: run-tests.py's test names instead
# of whole modules (e.g. "ap_open ap_wpa2_psk").
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
say() { echo "hwsim-suite: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

[ $# -ge 1 ] || die "usage: $0 HOSTAP_DIR [MODULE...]"
HOSTAP=$(cd "$1" && pwd) || die "no directory $1"
shift
[ -f "$HOSTAP/tests/hwsim/run-tests.py" ] || die "$HOSTAP is no hostap tree (no tests/hwsim/run-tests.py)"
MODULES=${*:-test_ap_open test_ap_psk test_ap_pmf test_sae}
BUILD=${E2E_BUILD:-/tmp/airq-e2e}
export E2E_OUT=${E2E_OUT:-$BUILD/hostap-$(echo "${E2E_SRC:-$REPO}" | sha256sum | cut -c1-8)}
PY=/usr/bin/python3
[ -x "$PY" ] || die "no $PY (Debian's python3 is copied into the VM)"
"$PY" -c 'import Cryptodome, OpenSSL' 2>/dev/null ||
	die "$PY lacks pycryptodome or pyOpenSSL: apt-get install python3-pycryptodome python3-openssl"

build_hostap() {
	local cfg=$HOSTAP/wpa_supplicant/.config
	say "building wpa_supplicant and wlantest in $HOSTAP"
	sed -e '/CONFIG_CTRL_IFACE_DBUS/d' -e '/CONFIG_WPA_TRACE/d' -e '/CONFIG_DEBUG_LINUX_TRACING/d' \
		"$HOSTAP/tests/hwsim/example-wpa_supplicant.config" >"$cfg.new"
	cmp -s "$cfg.new" "$cfg" && rm "$cfg.new" || mv "$cfg.new" "$cfg"
	make -C "$HOSTAP/wpa_supplicant" -j"$(nproc)" wpa_supplicant wpa_cli >"$E2E_OUT/wpas-build.log" 2>&1 ||
		{ tail -20 "$E2E_OUT/wpas-build.log" >&2; return 1; }
	make -C "$HOSTAP/wlantest" -j"$(nproc)" >"$E2E_OUT/wlantest-build.log" 2>&1 ||
		{ tail -20 "$E2E_OUT/wlantest-build.log" >&2; return 1; }
}

# copy_libs ROOT FILE...: the shared libraries FILEs load, into ROOT
copy_libs() {
	local root=$1 l
	shift
	for l in $(ldd "$@" 2>/dev/null | awk '/=> \//{print $3} /^\t\/lib64/{print $1}' | sort -u); do
		mkdir -p "$root/$(dirname "$l")" && cp -L "$l" "$root/$l"
	done
}

# stage: the tree run.sh copies over the VM's root (E2E_EXTRA)
stage() {
	local x=$E2E_OUT/extra pyver pylib
	rm -rf "$x" && mkdir -p "$x/usr/bin" "$x/etc" "$x/hostap/wpa_supplicant" "$x/hostap/wlantest" "$x/hostap/tests" || return 1
	pyver=$("$PY" -c 'import sys; print("python%d.%d" % sys.version_info[:2])')
	pylib=/usr/lib/$pyver
	cp -L "$PY" "$x/usr/bin/python3"
	mkdir -p "$x$pylib"
	tar -C "$pylib" --exclude=test --exclude=idlelib --exclude=tkinter --exclude=ensurepip \
		--exclude=lib2to3 --exclude='config-*' --exclude=turtledemo -cf - . | tar -C "$x$pylib" -xf -
	copy_libs "$x" "$PY" "$pylib"/lib-dynload/*.so
	# Debian's packages that test modules import at their top: pycryptodome
	# (test_ap_psk's AES key wrap, imported by most modules), pyOpenSSL with
	# cryptography and cffi (the EAP modules' certificates)
	mkdir -p "$x/usr/lib/python3/dist-packages"
	for p in Cryptodome OpenSSL cryptography _cffi_backend.cpython-*.so; do
		cp -a /usr/lib/python3/dist-packages/$p "$x/usr/lib/python3/dist-packages/" || return 1
	done
	copy_libs "$x" $(find "$x/usr/lib/python3/dist-packages" -name '*.so')
	# OpenSSL's configuration and providers, which cryptography loads
	mkdir -p "$x/etc/ssl" "$x/usr/lib/x86_64-linux-gnu"
	cp /etc/ssl/openssl.cnf "$x/etc/ssl/" && cp -a /usr/lib/x86_64-linux-gnu/ossl-modules "$x/usr/lib/x86_64-linux-gnu/" || return 1
	cp "$HOSTAP"/wpa_supplicant/{wpa_supplicant,wpa_cli} "$x/hostap/wpa_supplicant/"
	cp "$HOSTAP"/wlantest/{wlantest,wlantest_cli} "$x/hostap/wlantest/"
	copy_libs "$x" "$x"/hostap/wpa_supplicant/* "$x"/hostap/wlantest/*
	cp -a "$HOSTAP/wpaspy" "$x/hostap/"
	cp -a "$HOSTAP/tests/hwsim" "$x/hostap/tests/"
	rm -rf "$x/hostap/tests/hwsim/logs"
	# compiled here: under TCG, compiling hostap's test modules at each
	# run-tests.py start takes minutes (the copies keep their sources' times)
	"$PY" -m compileall -q "$x$pylib" "$x/usr/lib/python3/dist-packages" "$x/hostap/tests/hwsim" "$x/hostap/wpaspy" >/dev/null
	printf 'root:x:0:\nadm:x:4:\n' >"$x/etc/group"
	echo "$MODULES" >"$x/hostap/modules"
	echo "${HWSIM_TESTS:-}" >"$x/hostap/tests.list"
	# the tag of a clone, else the version an export says it is
	git -C "$HOSTAP" describe --tags --always >"$x/hostap/version" 2>/dev/null ||
		sed -n 's/^#define VERSION_STR "\([^"]*\)".*/hostap \1 (no git)/p' "$HOSTAP/src/common/version.h" >"$x/hostap/version"
}

mkdir -p "$E2E_OUT" || exit 1
build_hostap || die "building hostap's wpa_supplicant/wlantest failed (logs in $E2E_OUT)"
stage || die "staging the VM's extra files failed"
say "hostap $(cat "$E2E_OUT/extra/hostap/version"), modules: $MODULES${HWSIM_TESTS:+, tests: $HWSIM_TESTS}"
E2E_EXTRA=$E2E_OUT/extra E2E_SCENARIOS=hwsim-suite E2E_VMS=1 E2E_MEM=${E2E_MEM:-1536M} \
	E2E_TIMEOUT=${E2E_TIMEOUT:-7200} bash "$HERE/run.sh"
rc=$?
# counts per module: each verdict goes to the module whose file defines the
# test; from the serial console when the VM was stopped before its share
out=$E2E_OUT/vm1/share/hwsim-suite-run-tests.out
[ -f "$out" ] || { out=$E2E_OUT/verdicts; sed -n 's/^\[host [ 0-9.]*s\] //p' "$E2E_OUT/vm1/serial.log" >"$out"; }
echo "---- hostap tests/hwsim against airqd ($(cat "$E2E_OUT/extra/hostap/version"))"
for m in $MODULES; do
	awk -v m="$m" 'FNR == NR { if (match($0, /^def test_[A-Za-z0-9_]+\(/)) def[substr($0, 10, RLENGTH - 10)] = 1; next }
		/^(PASS|FAIL|SKIP) / && ($2 in def) { n[$1]++ }
		END { printf "%s: %d passed, %d failed, %d skipped of %d\n", m, n["PASS"], n["FAIL"], n["SKIP"], length(def) }' \
		"$HOSTAP/tests/hwsim/$m.py" "$out"
done | tee "$E2E_OUT/summary.txt"
exit $rc
