package ap

import (
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/txq"
)

// SchedulerStats returns the TXQ scheduler's counters of an AC: rounds
// opened and closed, selections, skipped selections, airtime, drops.
func (a *AP) SchedulerStats(ac ieee80211.AC) txq.ACStats { return a.sched.Stats(ac) }

// AirtimePending returns the AQL pending airtime of an AC in µs.
func (a *AP) AirtimePending(ac ieee80211.AC) int64 { return a.air.ACPending(ac) }

// dataRate is the rate a station's data frames use when nothing fails.
func (a *AP) dataRate(s *station) radio.Rate {
	if s.rc != nil {
		return s.rc.Best()
	}
	return s.txRate
}

// KernelCounts are the devices' kernel counters, totals since they opened,
// which the shell reads periodically.
type KernelCounts struct {
	WiredLost uint64 // host frames the TAP's queue dropped (tun's tx_dropped)
	RadioLost uint64 // frames the receive socket's queue dropped (PACKET_STATISTICS)
	// RadioReceived is what the monitor interface received from the air
	// (its rx_packets), RadioPassed what the receive filter let through
	// to the socket, TX-status echoes and queue drops included
	// (PACKET_STATISTICS packets); both zero when the device cannot tell.
	RadioReceived, RadioPassed uint64
}

// DeviceDrops records the devices' kernel counters. The frames the
// receive filter shed are those the interface received less those it
// passed that were not echoes: mac80211 counts the frames it hands a
// monitor from the air, not the echoes of what it sent. An echo lost in
// the socket's queue is not known to be one, so the figure is a lower
// bound; it never decreases.
func (a *AP) DeviceDrops(k KernelCounts) {
	a.cnt[counter.WiredLostInKernel], a.cnt[counter.RadioLostInKernel] = k.WiredLost, k.RadioLost
	if k.RadioReceived > 0 && k.RadioReceived+a.cnt[counter.Echoes] > k.RadioPassed {
		a.cnt[counter.RadioFiltered] = max(a.cnt[counter.RadioFiltered], k.RadioReceived+a.cnt[counter.Echoes]-k.RadioPassed)
	}
}

// Associated returns the number of associated stations of every BSS.
func (a *AP) Associated() int {
	n := 0
	for _, b := range a.bsses {
		n += b.Associated
	}
	return n
}
