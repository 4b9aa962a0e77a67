package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
)

// bssRadio is the radio as its BSS sees it (bss.Radio): its management
// frames go out from the BSS's BSSID at the BSS's lowest basic rate, its
// replies are paid from the BSS's budget.
type bssRadio AP

func (r *bssRadio) StartMgmt(subtype uint8, da ieee80211.MAC, retries uint8) (bss.MgmtFrame, bool) {
	a := (*AP)(r)
	h, b, rt, ok := a.startMgmtFrom(a.bss, int(subtype), da, a.bss.Rates.LowestBasic(), retries)
	return bss.MgmtFrame{Buf: b, Handle: h, Header: rt}, ok
}

func (r *bssRadio) SendReply(now time.Duration, f bss.MgmtFrame, c bss.ReplyClass, aid uint16, await bss.Awaited) bool {
	return (*AP)(r).finishReply(now, f.Handle, f.Buf, f.Header, c, aid, uint8(await))
}

func (r *bssRadio) Send(now time.Duration, f bss.MgmtFrame) {
	(*AP)(r).finish(now, f.Handle, f.Buf, f.Header, 0)
}

func (r *bssRadio) TSF(now time.Duration) uint64 { return (*AP)(r).TSF(now) }

func (r *bssRadio) Air() bss.Air { return (*AP)(r).airOf() }

// Queued: a station's AID in the radio's one BSS is its slot.
func (r *bssRadio) Queued(aid uint16) bool { return (*AP)(r).queued(aid) }

// GroupQueued: the radio's group-addressed frames are its one BSS's.
func (r *bssRadio) GroupQueued() bool { return (*AP)(r).groupBuffered() }

// airOf is the radio's part of its BSSes' announcements: the operating
// channel, the Country element, the channel's load.
func (a *AP) airOf() bss.Air {
	air := bss.Air{Channel: a.cfg.Channel, Freq: a.cfg.Freq, ChannelUtil: a.load.util}
	if c := a.cfg.Country; c != nil {
		air.Country, air.Subbands = c.Alpha2, c.Subbands
	}
	return air
}

var _ bss.Radio = (*bssRadio)(nil)
