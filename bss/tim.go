package bss

import "github.com/airq/airq/internal/ieee80211"

// FillTIM builds the traffic indication bitmap of the BSS's next beacon:
// the AIDs of its dozing stations that the radio holds frames for, or
// that an SA Query Request waits to reach, and, at a DTIM beacon, whether
// group-addressed frames follow it. The bitmap is kept in b.TIM, so that
// building it allocates nothing.
func (b *BSS) FillTIM(r Radio, dtim bool) (*ieee80211.TIMBitmap, bool) {
	b.TIM = ieee80211.TIMBitmap{}
	if b.Dozing == 0 {
		return &b.TIM, false
	}
	for aid, s := range b.Stations.recs {
		if s != nil && s.Dozing && (s.RSN != nil && s.RSN.QueryHeld || r.Queued(uint16(aid))) {
			b.TIM.Set(uint16(aid))
		}
	}
	return &b.TIM, dtim && r.GroupQueued()
}
