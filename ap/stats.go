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

// DeviceDrops records the devices' kernel drop counters (totals since
// they opened), read periodically by the shell.
func (a *AP) DeviceDrops(wired, radio uint64) {
	a.cnt[counter.WiredLostInKernel], a.cnt[counter.RadioLostInKernel] = wired, radio
}

// Associated returns the number of associated stations.
func (a *AP) Associated() int { return a.assoc }
