package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
)

// handleAction answers Action frames from associated stations. Injected
// frames are never aggregated and nothing can keep a BlockAck scoreboard in
// time, so ADDBA is declined at once (status 37): a station left waiting
// would stall that TID for up to a second. DELBA needs no answer. Other
// unicast Action frames are returned with the category's high bit set.
func (a *AP) handleAction(now time.Duration, s *station, fr ieee80211.Frame) {
	act, err := ieee80211.ParseAction(fr.Body())
	if err != nil {
		a.cnt[counter.RxMalformed]++
		return
	}
	if act.Category() == ieee80211.CategoryPublic && act.Code() == ieee80211.ActionCoex2040 {
		// From any sender, associated or not (coex_run.go).
		if b := a.bssOf(fr.Addr3()); b != nil {
			a.handleCoexMgmt(now, b, s, fr, act.Body())
		}
		return
	}
	if fr.Addr1().IsMulticast() || act.Category()&0x80 != 0 {
		return
	}
	if s == nil || s.State != bss.StateAssociated {
		return
	}
	switch {
	case act.Category() == ieee80211.CategorySAQuery:
		a.handleSAQuery(now, s, fr.Body())
	case act.Category() == bss.CategoryBlockAck && act.Code() == bss.ActionADDBAReq:
		a.declineADDBA(now, s.bss, fr.Addr2(), act.Body())
	case act.Category() == bss.CategoryBlockAck && act.Code() == bss.ActionDELBA:
	default:
		a.sendActionBounce(now, s.bss, fr.Addr2(), fr.Body())
	}
}

// declineADDBA declines an ADDBA Request (bss.BSS.DeclineADDBA).
func (a *AP) declineADDBA(now time.Duration, b *bss.BSS, da ieee80211.MAC, req []byte) {
	if len(req) < 5 {
		a.cnt[counter.RxMalformed]++
		return
	}
	if b.DeclineADDBA(now, a.radioOf(b), da, req) {
		a.cnt[counter.ADDBADeclined]++
	}
}
