#!/bin/sh
# m9-ackholder: what a second BSSID's ACK holder costs airqd's data path.
# A measurement, not part of the suite (run.sh runs vm/s[0-9]*.sh):
# E2E_SCENARIOS=m9-ackholder make e2e.
# airqd (one BSS, s9's open network) carries s9's iperf3 runs, down and up,
# with the guest CPU per segment from /proc/stat (lib.sh's per_seg), in six
# rows on the same radios and station: each kind twice, in the order A B C
# C B A, so that a drift within the boot cancels in each kind's mean:
#   none     airqd's one active monitor, as s9 runs it;
#   monitor  plus a second active monitor on the phy with the second BSSID
#            as its address (kind "monitor" of package monitor's ACK holders);
#   station  plus a managed interface with the second BSSID as its address,
#            up and never connected (kind "station").
# The extra interface is made with iw after airqd is up, as airqd's own
# holders would be; no station uses the second BSSID, so what is measured is
# the cost of the interface on the primary BSS's frames: mac80211 hands every
# received frame and every TX-status echo to each running monitor (a clone
# and a delivery each), and runs a managed interface's address check.
#
# Output: one line per row and direction, and
#   RESULT ... us_per_seg_down_<row>=... us_per_seg_up_<row>=... down_<row>=... up_<row>=...
# with the rows numbered 1 and 2 (none1 ... none2).
# timeout: 600
. /e2e/lib.sh

one_station
echo "AP $APPHY $BSSID; station $STA"
iperf_servers 1 || result setup fail "iperf3 server"
sysctl -qw net.ipv4.tcp_no_metrics_save=1
in_sta 1 sysctl -qw net.ipv4.tcp_no_metrics_save=1
# the second BSSID: the radio's address with its last octet + 1 (hostapd's
# order); hwsim ACKs the address of any running interface
BSSID2=$(echo "$BSSID" | awk -F: '{printf "%s:%s:%s:%s:%s:%02x", $1, $2, $3, $4, $5, (("0x" $6) + 1) % 256}')
HOLDER=ah1

# holder_up KIND: the second BSSID's interface on the AP's phy
holder_up() {
	case $1 in
	monitor) iw phy "$APPHY" interface add $HOLDER type monitor flags active ;;
	station) iw phy "$APPHY" interface add $HOLDER type managed ;;
	*) return 0 ;;
	esac || return 1
	ip link set $HOLDER address "$BSSID2" && ip link set $HOLDER up
}
holder_down() { link_exists $HOLDER && iw dev $HOLDER del; return 0; }

# row NAME KIND: airqd with the holder of KIND (none: no holder)
SUMMARY=
row() {
	name=$1 kind=$2
	log "$name: airqd, holder $kind"
	if ! airq_up "airqd-$name"; then
		result "$name.ap_up" fail "airqd not ready"
		airq_down
		return
	fi
	if ! holder_up "$kind"; then
		result "$name.holder" fail "could not bring up a $kind interface with $BSSID2 on $APPHY"
		holder_down
		airq_down
		return
	fi
	iw dev >"$LOGS/$S-iwdev-$name.txt" 2>&1
	: >"$LOGS/$S-wpas1.log"
	wpas_start 1
	if wait_for 45 wpas_completed 1 && wait_for 5 sta_linked 1; then
		for dir in down up; do
			iperf_bg "$name-$dir" 1 8 -O 1 $([ $dir = down ] && echo -R)
			sleep 1
			c0=$(cpu_ticks)
			wait $IPERF_PID
			c1=$(cpu_ticks)
			set -- $(iperf_sum "$name-$dir")
			mbit=$1
			set -- $(per_seg "$c0" "$c1" "$2")
			echo "ACKHOLDER $name $dir mbit=$mbit user=$1 system=$2 softirq=$3 total=$4 us/seg idle=$5"
			SUMMARY="$SUMMARY us_per_seg_${dir}_$name=$4 ${dir}_$name=$mbit"
			iperf_check "$name-$dir" 0.1
		done
		ctl status >"$LOGS/$S-status-$name.txt" 2>&1
	else
		result "$name.associated" fail "station: $(wpas_state 1)"
	fi
	stop "$(wpas_pid 1)"
	wait_for 10 sta_unlinked 1
	# a managed interface up beside the monitor makes a retune fail (EBUSY)
	if grep -qi ebusy "$AIRQD_LOG"; then result "$name.no_ebusy" fail "$(grep -i -m1 ebusy "$AIRQD_LOG")"; fi
	holder_down
	airq_down
	wait_for 10 sh -c "! ip link show $MONIF" 2>/dev/null
}

for kind in none monitor station; do row ${kind}1 $kind; done
for kind in station monitor none; do row ${kind}2 $kind; done
echo "RESULT$SUMMARY" | tee "$LOGS/ackholder.txt"
finish
