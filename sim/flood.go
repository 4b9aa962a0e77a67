package sim

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// flood sends one frame of a flooder and arms the next: a wildcard probe
// request or an open authentication from a fresh locally administered
// address, so that the AP's answers go to nobody and are never ACKed.
func (st *Station) flood() {
	st.sim.stats.FloodFrames++
	var from ieee80211.MAC
	r := st.sim.rng.Uint64()
	for i := range from {
		from[i] = byte(r >> (8 * i))
	}
	from[0] = from[0]&^1 | 2
	p := st.sim.newPacket()
	if st.sim.stats.FloodFrames%2 == 0 {
		p.b = ieee80211.AppendProbeReq(p.b[:0], from, "", st.rates(), st.nextMgmtSeq())
	} else {
		p.b = ieee80211.AppendMgmtHeader(p.b[:0], ieee80211.SubtypeAuth, st.sim.med.bssid, from, st.sim.med.bssid, st.nextMgmtSeq())
		p.b = ieee80211.AppendAuth(p.b, 0, 1, 0)
	}
	st.sim.transmit(st, p, ieee80211.ACVO, st.sim.med.lowest)
	st.armTimer(time.Duration(float64(time.Second) / st.cfg.Flood))
}
