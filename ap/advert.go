package ap

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// radioLoad is the channel's load as the BSS Load elements report it: the
// time the medium was busy with the frames airq sent (the airtime each
// exchange was charged, retries included) and those it received on the
// operating channel (their airtime from the radiotap rate), as hostapd
// takes busy over active time from the radio's survey. airq's own
// accounting stands in for the survey, which some drivers report as a
// constant or not at all. Each exchange counts as the scheduler charges
// it, channel access and ACK included, so a saturated channel reads 255.
// The busy time is the radio's, one sum; each BSS takes it over its own
// bss_load_update_period (bssLoad).
type radioLoad struct {
	on   bool          // a BSS sends a BSS Load element: the busy time is counted
	busy time.Duration // since the start
}

// bssLoad is one BSS's BSS Load figures: the channel utilization over its
// last bss_load_update_period and, with chan_util_avg_period, its average
// over that many beacon intervals, as hostapd's update_channel_utilization
// takes them on each BSS's own timer.
type bssLoad struct {
	busyAt   time.Duration // the radio's busy time at the last update
	last     time.Duration // the last update; 0 before the first
	started  bool
	util     uint8 // the last period's, 0 to 255
	avgSum   int   // chan_util_avg_period's running sum of util
	avgSpans int   // beacon intervals summed in avgSum
	avg      uint8 // the last complete average
}

// anyBSSLoad reports whether one of the radio's BSSes sends a BSS Load
// element.
func (a *AP) anyBSSLoad() bool {
	for _, b := range a.bsses {
		if b.Profile.Advert.BSSLoadPeriod != 0 {
			return true
		}
	}
	return false
}

// countTxBusy adds a finished exchange's airtime, every attempt of it.
func (a *AP) countTxBusy(ac ieee80211.AC, rec *flight, st *radio.TxStatus) {
	// Inlined: every completion asks, and without a BSS Load element
	// (hostapd's default) nothing is counted.
	if a.load.on && st != nil {
		a.addTxBusy(ac, rec, st)
	}
}

// addTxBusy is countTxBusy with the BSS Load element on and a status.
func (a *AP) addTxBusy(ac ieee80211.AC, rec *flight, st *radio.TxStatus) {
	us := a.attemptAirtime(rec, ac, st.Rate) * (uint32(st.Retries) + 1)
	a.load.busy += time.Duration(us) * time.Microsecond
}

// countRxBusy adds a received frame's airtime, on the operating channel.
func (a *AP) countRxBusy(fr ieee80211.Frame) {
	if !a.load.on || a.rx.Rate == (radio.Rate{}) || !a.atHome() {
		return
	}
	ac := ieee80211.ACBE
	if fr.IsQoS() {
		ac = ieee80211.TIDToAC(fr.TID())
	}
	a.load.busy += time.Duration(a.est.Airtime(a.rx.Rate, ac, len(fr)+4)) * time.Microsecond // +4: the FCS
}

// updateLoad takes r's BSS's channel utilization anew once its
// BSSLoadPeriod beacon intervals have passed since the last time, as
// hostapd's timer does, and feeds its chan_util_avg_period's average as
// hostapd does.
func (a *AP) updateLoad(now time.Duration, r *bssRadio) {
	v, l := &r.b.Profile.Advert, &r.load
	if v.BSSLoadPeriod == 0 {
		return
	}
	if !l.started {
		l.started, l.last, l.busyAt = true, now, a.load.busy
		return
	}
	span := now - l.last
	if span < time.Duration(v.BSSLoadPeriod)*a.beaconPeriod() {
		return
	}
	l.util = uint8(min(255, (a.load.busy-l.busyAt)*255/span))
	l.busyAt, l.last = a.load.busy, now
	if v.ChanUtilAvgPeriod == 0 {
		return
	}
	l.avgSum += int(l.util)
	l.avgSpans += v.BSSLoadPeriod
	if l.avgSpans >= v.ChanUtilAvgPeriod {
		l.avg = uint8(l.avgSum / (l.avgSpans / v.BSSLoadPeriod))
		l.avgSum, l.avgSpans = 0, 0
	}
}
