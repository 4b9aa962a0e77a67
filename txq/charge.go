package txq

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// Charge is ieee80211_sta_register_airtime: at a frame's completion the
// station is charged the airtime actually used, but only if it was active in
// the last 100 ms, so idle stations do not build up debt. Call it for every
// completion of a station's frame (airtime 0 for an echo-less completion):
// production mode also re-checks an AQL-blocked station here.
func (s *Scheduler) Charge(sta uint16, ac ieee80211.AC, airtimeUS uint32, now time.Duration) {
	if sta == 0 || int(sta) >= len(s.stas) || !s.stas[sta].present {
		return
	}
	ac &= 3
	if s.ncapped > 0 {
		s.chargeCap(&s.stas[sta], airtimeUS, now)
	}
	a := s.airOf(sta, ac)
	a.txAirtime += uint64(airtimeUS)
	s.acs[ac].stats.Airtime += uint64(airtimeUS)
	if s.prod {
		s.realize(sta, ac, a)
	}
	switch {
	case !a.recent(now):
	case s.prod:
		a.def -= int64(airtimeUS)
	default:
		a.def = int64(int32(a.def) - int32(airtimeUS))
	}
	if s.prod {
		// The completion lowered the pending airtime too.
		s.file(sta, ac, a)
	}
}
