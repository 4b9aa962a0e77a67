package ap

import (
	"encoding/binary"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
)

// Block Ack action frames (IEEE 802.11 9.6.4).
const (
	categoryBlockAck = 3
	actionADDBAReq   = 0
	actionADDBAResp  = 1
	actionDELBA      = 2
)

// handleAction answers Action frames from associated stations. Injected
// frames are never aggregated and nothing can keep a BlockAck scoreboard in
// time, so ADDBA is declined at once (status 37): a station left waiting
// would stall that TID for up to a second. DELBA needs no answer. Other
// unicast Action frames are returned with the category's high bit set.
func (a *AP) handleAction(now time.Duration, fr ieee80211.Frame) {
	act, err := ieee80211.ParseAction(fr.Body())
	if err != nil {
		a.cnt[counter.RxMalformed]++
		return
	}
	if fr.Addr1().IsMulticast() || act.Category()&0x80 != 0 {
		return
	}
	_, s := a.sta.lookup(fr.Addr2())
	if s == nil || s.state != stateAssociated {
		return
	}
	switch {
	case act.Category() == ieee80211.CategorySAQuery:
		a.handleSAQuery(now, s, fr.Body())
	case act.Category() == categoryBlockAck && act.Code() == actionADDBAReq:
		a.declineADDBA(now, fr.Addr2(), act.Body())
	case act.Category() == categoryBlockAck && act.Code() == actionDELBA:
	default:
		a.sendActionBounce(now, fr.Addr2(), fr.Body())
	}
}

// declineADDBA sends an ADDBA Response with status 37 (request declined),
// echoing the dialog token, parameters and timeout of the request.
func (a *AP) declineADDBA(now time.Duration, da ieee80211.MAC, req []byte) {
	if len(req) < 5 {
		a.cnt[counter.RxMalformed]++
		return
	}
	h, b, rt, ok := a.startMgmt(ieee80211.SubtypeAction, da)
	if !ok {
		return
	}
	b = append(b, categoryBlockAck, actionADDBAResp, req[0])
	b = binary.LittleEndian.AppendUint16(b, ieee80211.StatusRequestDeclined)
	b = append(b, req[1:5]...) // BA parameter set and timeout
	if a.finishReply(now, h, b, rt, bss.ReplyKnown, 0, mlmeNone) {
		a.cnt[counter.ADDBADeclined]++
	}
}
