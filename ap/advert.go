package ap

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// bssLoad is the channel's load as the BSS Load element reports it: the
// time the medium was busy with the frames airq sent (the airtime each
// exchange was charged, retries included) and those it received on the
// operating channel (their airtime from the radiotap rate), over the time
// that passed, as hostapd takes busy over active time from the radio's
// survey. airq's own accounting stands in for the survey, which some
// drivers report as a constant or not at all. Each exchange counts as the
// scheduler charges it, channel access and ACK included, so a saturated
// channel reads 255.
type bssLoad struct {
	busy     time.Duration // since the last update
	last     time.Duration // the last update; 0 before the first
	started  bool
	util     uint8 // the last period's, 0 to 255
	avgSum   int   // chan_util_avg_period's running sum of util
	avgSpans int   // beacon intervals summed in avgSum
	avg      uint8 // the last complete average
}

// countTxBusy adds a finished exchange's airtime, every attempt of it.
func (a *AP) countTxBusy(ac ieee80211.AC, rec *flight, st *radio.TxStatus) {
	// Inlined: every completion asks, and without a BSS Load element
	// (hostapd's default) nothing is counted.
	if a.cfg.Advert.BSSLoadPeriod != 0 && st != nil {
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
	if a.cfg.Advert.BSSLoadPeriod == 0 || a.rx.Rate == (radio.Rate{}) || a.onFreq != a.cfg.Freq || a.retuneTo != 0 {
		return
	}
	ac := ieee80211.ACBE
	if fr.IsQoS() {
		ac = ieee80211.TIDToAC(fr.TID())
	}
	a.load.busy += time.Duration(a.est.Airtime(a.rx.Rate, ac, len(fr)+4)) * time.Microsecond // +4: the FCS
}

// updateLoad takes the channel utilization anew once BSSLoadPeriod beacon
// intervals have passed since the last time, as hostapd's timer does, and
// feeds chan_util_avg_period's average as hostapd does.
func (a *AP) updateLoad(now time.Duration) {
	v, l := a.cfg.Advert, &a.load
	if v.BSSLoadPeriod == 0 {
		return
	}
	if !l.started {
		l.started, l.last, l.busy = true, now, 0
		return
	}
	span := now - l.last
	if span < time.Duration(v.BSSLoadPeriod)*a.beaconPeriod() {
		return
	}
	l.util = uint8(min(255, l.busy*255/span))
	l.busy, l.last = 0, now
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
