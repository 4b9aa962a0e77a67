package ap

import (
	"github.com/airq/airq/counter"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rate"
)

// A station's rate selection is its largest state (about 20 KiB). What it
// needs is read at association; the table itself is built at the first
// data frame to the station and given back after Config.IdleRelease
// without one, so that the stations of a full (or flooded) table that
// never carry traffic cost only their slot.

// learnCaps reads what rate selection needs from a request: HT and VHT
// only with a WMM station that announces them and when its BSS uses them
// (mac80211 stations drop HT without WMM; hostapd's disable_11n and
// disable_11ac are a BSS's). An HT or VHT Capabilities
// element shorter than its fixed fields is ignored, as hostapd ignores it:
// the station is then not HT (VHT). The rate table itself is built when a
// frame first needs it (rateTable).
func (a *AP) learnCaps(s *station, ies ieee80211.Elements) {
	caps := rate.CapsFromElements(ies)
	s.HT = s.bss.PHY.HT() && s.QoS && caps.HT
	s.VHT = s.bss.PHY.VHT() && s.HT && caps.VHT
	s.HEAnnounced = caps.HE
	s.MaxAMSDU = 0
	if s.HT {
		s.MaxAMSDU = stationAMSDU(ies, s.VHT)
	}
	if !s.HT {
		caps.HT, caps.VHT = false, false
	} else if !s.VHT {
		caps.VHT = false
	}
	s.Caps = caps
	s.rc, s.rcTried = nil, false
}

// rateTable returns the station's rate selection, building it at its first
// use: a rate table is about 20 KiB, and most stations in a full table (or
// a flooded one) never carry data. Nil means the best legacy rate.
// Inlined: every frame to a station asks, and all but its first find it.
func (a *AP) rateTable(s *station) *rate.Station {
	if s.rc != nil || s.rcTried {
		return s.rc
	}
	return a.buildRateTable(s)
}

// buildRateTable is rateTable at a station's first frame.
func (a *AP) buildRateTable(s *station) *rate.Station {
	s.rcTried = true
	var seed uint64
	for _, b := range s.Addr {
		seed = seed<<8 | uint64(b)
	}
	rc, err := rate.New(rate.Config{
		Airtime:  func(r radio.Rate, n int) uint32 { return a.est.Airtime(r, ieee80211.ACBE, n) },
		Width:    s.bss.PHY.Width,
		Band2GHz: a.cfg.Freq < 3000,
		AP:       s.bss.PHY.Caps,
		Station:  s.Caps,
		Seed:     seed,
	})
	if err != nil {
		return nil // no common rate beyond what the legacy check admitted
	}
	s.rc = rc
	a.cnt[counter.RateTablesBuilt]++
	return rc
}

// releaseIdleState gives back the rate table of a station that has sent
// nothing for Config.IdleRelease; its next data frame builds it again.
func (a *AP) releaseIdleState(now time.Duration, s *station) {
	if s.rcTried && now-s.lastTx >= a.cfg.IdleRelease {
		if s.rc != nil {
			a.cnt[counter.RateTablesReleased]++
		}
		s.rc, s.rcTried = nil, false
	}
}
