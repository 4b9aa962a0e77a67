package ap

import (
	"slices"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// The station table as the control protocol shows it: whole (station
// dump, snapshot), a page at a time (a streamed dump) or one station.

// ctlStations lists the table in AID order, as iw lists mac80211's: the
// stations of BSS of, or of every BSS for of < 0.
func (a *AP) ctlStations(now time.Duration, of int) []ctl.Station {
	var out []ctl.Station // nil when empty, as the wire form decodes it
	if n := a.sta.ids.Len(); n > 0 && of < 0 {
		out = make([]ctl.Station, 0, n)
	}
	for slot := range a.sta.used() {
		if a.stationOf(slot, of) {
			out = append(out, a.ctlStation(now, slot, nil))
		}
	}
	return out
}

// stationOf reports whether the station in slot is of BSS of (any for
// of < 0).
func (a *AP) stationOf(slot uint16, of int) bool {
	return of < 0 || a.sta.slots[slot].bss == a.bsses[of]
}

// fillPage lists the stations of BSS of (every BSS for of < 0) from AID
// p.From on into p.Into, in AID order, for a streamed dump
// (ctl.WriteStationDump); it allocates nothing.
func (a *AP) fillPage(now time.Duration, p *ctl.StationPage, of int) {
	p.N, p.Next = 0, 0
	for slot := max(int(p.From), 1); slot < len(a.sta.slots); slot++ {
		if a.sta.slots[slot].State == bss.StateNone || !a.stationOf(uint16(slot), of) {
			continue
		}
		if p.N == len(p.Into) {
			p.Next = uint16(slot)
			return
		}
		// The page's rate lists are reused: paging allocates nothing.
		p.Into[p.N] = a.ctlStation(now, uint16(slot), p.Into[p.N].SupportedRates[:0])
		p.N++
	}
}

// capShortPreamble is the Short Preamble bit of the Capability field.
const capShortPreamble = 1 << 5

// ctlStation reports the station in slot; its supported rates are appended
// to rates (nil: a new list).
func (a *AP) ctlStation(now time.Duration, slot uint16, rates ctl.Rates) ctl.Station {
	s := &a.sta.slots[slot]
	c := &s.StationCounters
	st := ctl.Station{
		Addr: ctl.MAC(s.Addr), AID: slot, BSS: a.bssName(int(a.indexOf(s.bss))), Associated: s.State == bss.StateAssociated, State: ctlState(s.State), WMM: s.QoS,
		ShortPreamble: s.Capability&capShortPreamble != 0, ListenInt: s.ListenInterval, Capability: s.Capability,
		SupportedRates: a.staRates(rates, s),
		Authorized:     s.Authorized, InactiveMs: (now - s.lastRx).Milliseconds(), Polled: s.polling, Signal: s.signal,
		SignalAvg: s.signalAvg.dBm(), TxBitrate: a.dataRate(s).Kbps(), TxRate: ctl.NewBitrate(a.dataRate(s)),
		RxRate:  ctl.NewBitrate(s.rxRate),
		RxBytes: c.RxBytes, RxPackets: c.RxPackets, TxBytes: c.TxBytes, TxPackets: c.TxPackets,
		TxRetries: c.TxRetries, TxFailed: c.TxFailed, TxNoStatus: c.TxNoStatus, RxDuplicates: c.RxDuplicates,
		RxDropMisc: c.RxDroppedUnauthorize, TxQueueDrops: c.TxQueueDrops, TxAirtime: c.TxAirtime,
		RxAirtime: c.RxAirtime, RxBitrate: s.rxRate.Kbps(), AirtimeWeight: a.cfg.AirtimeWeight,
		AMSDUs: c.AMSDUs, AMSDUSubframes: c.AMSDUSubframes, AMSDUBytes: c.AMSDUBytes,
	}
	switch {
	case s.VHT:
		st.PHYMode = "VHT"
	case s.HT:
		st.PHYMode = "HT"
	case s.State == bss.StateAssociated:
		st.PHYMode = "legacy"
	}
	st.HEAnnounced = s.HEAnnounced
	if s.RSN != nil {
		st.AKM, st.Cipher, st.KeyID = s.RSN.HS.AKM().String(), s.RSN.HS.Pairwise().String(), s.RSN.KeyID
		st.MFP = s.RSN.MFP
		st.PTKState, st.GroupState = s.RSN.HS.State(), s.RSN.HS.GroupState()
	}
	s.describeSAE(&st)
	if s.SAE != nil && s.SAE.BySAE {
		st.SAEAuthGroup = s.SAE.Keys.Group
	}
	a.ctlBSSParam(&st)
	if s.rc != nil {
		st.ExpectedThroughput = uint32(s.rc.ExpectedThroughput() * 1000)
	}
	if c.AMSDUs > 0 {
		st.AMSDUMean = float64(c.AMSDUSubframes) / float64(c.AMSDUs)
	}
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		st.AQLPending[ac] = a.air.Pending(slot, ac)
		lo, hi := a.air.StationLimit(slot, ac)
		st.AQLLimitLow[ac], st.AQLLimitHigh[ac] = int64(lo), int64(hi)
		st.InFlight[ac] = int64(a.air.StationInFlight(slot, ac))
	}
	if !st.Associated {
		return st // the scheduler holds nothing for it yet
	}
	st.ConnectedMs = (now - s.AssocAt).Milliseconds()
	st.AirtimeWeight = a.sched.Weight(slot)
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		st.AirtimeDeficit[ac] = a.sched.Deficit(slot, ac)
		st.ACAirtime[ac] = int64(a.sched.StationAirtime(slot, ac))
	}
	for tid := range uint8(ieee80211.NumTIDs) {
		if q := a.sched.Queue(slot, tid); q != nil {
			st.QueueFramesTotal += q.Len()
		}
	}
	return st
}

func ctlState(s bss.StationState) string {
	switch s {
	case bss.StateAssocPending:
		return ctl.StatePending
	case bss.StateAssociated:
		return ctl.StateAssociated
	}
	return ctl.StateAuthenticated
}

// staRates appends the BSS's rates the station announced, in the BSS's
// order and with its basic flags.
func (a *AP) staRates(dst ctl.Rates, s *station) ctl.Rates {
	for i, b := range a.bss.Rates.IE {
		if s.Rates&(1<<i) != 0 {
			dst = append(dst, b)
		}
	}
	return dst
}

// ctlStationPMK answers hostapd's GET_PMK (a testing command): the
// station's PMK, else its PMKSA cache entry's, as
// hostapd_ctrl_get_pmk falls back to the cache for a station that has
// left or holds no PMK: the cache of BSS of alone when the request names
// one (a section's socket), as hostapd's looks in its own BSS's.
func (a *AP) ctlStationPMK(now time.Duration, addr ieee80211.MAC, of int) ctl.Reply {
	if _, s := a.sta.lookup(addr); s != nil && s.RSN != nil {
		if pmk, ok := s.RSN.HS.PMK(); ok {
			return ctl.Reply{PMK: slices.Clone(pmk[:])}
		}
	}
	if e, ok := a.cachedPMKSA(now, addr, of); ok {
		return ctl.Reply{PMK: slices.Clone(e.PMK[:])}
	}
	return ctl.Errorf(ctl.ENOENT, "station %s: no PMK and no PMKSA", addr)
}
