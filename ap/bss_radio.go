package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
)

// bssRadio is the radio as one of its BSSes sees it (bss.Radio): the
// BSS's management frames go out from its BSSID at its lowest basic rate,
// its replies are paid from its budget. Each BSS has its own, made with
// it, so that handing one over allocates nothing.
type bssRadio struct {
	a *AP
	b *bss.BSS
	// tbtt is when the BSS's next beacon is due; tsfAdjust what its TSF
	// runs ahead of the radio's, so that it is a multiple of the beacon
	// interval there (multibss.go).
	tbtt        time.Duration
	tsfAdjust   uint64
	maxStations int  // max_num_sta: the BSS's associated and associating
	isolate     bool // ap_isolate: its stations reach each other only through its wired side
	toUnicast   bool // multicast_to_unicast: its group-addressed IP and ARP frames as unicast copies
	timers      bssTimers
	load        bssLoad // its BSS Load element's channel utilization (advert.go)
	ops         bssOps
	// rsn is the BSS's RSN (rsn.go), its keys and authenticator its own;
	// nil: an open network.
	rsn *rsnState
	// group holds the BSS's group-addressed frames while a station of its
	// dozes, until its DTIM beacon announces them (groupbuf.go);
	// groupQueued counts its frames in the radio's non-station queue.
	group       groupBuffer
	groupQueued int
	// dtimOnAir: the DTIM beacon that opened the group window is still
	// the radio's, so the group frames wait to follow it on the air,
	// until its record completes (dtimRef names it, so an older beacon's
	// completion leaves a newer one's hold) or dtimDue passes.
	dtimOnAir bool
	dtimRef   flightRef
	dtimDue   time.Duration
}

// bssTimers are a BSS's timers for its stations (Config's and
// BSSConfig's fields): the inactivity poll's, and how long an
// authentication and an association response's TX status are waited for.
type bssTimers struct {
	inactivity, auth, assocResp time.Duration
}

// radioOf returns BSS b's view of the radio.
func (a *AP) radioOf(b *bss.BSS) *bssRadio { return a.radios[a.indexOf(b)] }

// indexOf returns b's index in the radio's list of BSSes.
func (a *AP) indexOf(b *bss.BSS) uint8 {
	for i, x := range a.bsses {
		if x == b {
			return uint8(i)
		}
	}
	panic("ap: a BSS the radio does not carry")
}

func (r *bssRadio) StartMgmt(subtype uint8, da ieee80211.MAC, retries uint8) (bss.MgmtFrame, bool) {
	h, b, rt, ok := r.a.startMgmtFrom(r.b, int(subtype), da, r.b.Rates.LowestBasic(), retries)
	return bss.MgmtFrame{Buf: b, Handle: h, Header: rt}, ok
}

func (r *bssRadio) SendReply(now time.Duration, f bss.MgmtFrame, c bss.ReplyClass, aid uint16, await bss.Awaited) bool {
	return r.a.finishReply(now, r.b, f.Handle, f.Buf, f.Header, c, aid, uint8(await))
}

func (r *bssRadio) Send(now time.Duration, f bss.MgmtFrame) {
	r.a.finish(now, r.b, f.Handle, f.Buf, f.Header, 0)
}

func (r *bssRadio) TSF(now time.Duration) uint64 { return r.a.TSF(now) + r.tsfAdjust }

// Air: the channel utilization is the BSS's own, taken over its own
// bss_load_update_period.
func (r *bssRadio) Air() bss.Air {
	air := r.a.airOf()
	air.ChannelUtil = r.load.util
	return air
}

// Queued: a station's AID in the radio's one BSS is its slot.
func (r *bssRadio) Queued(aid uint16) bool { return r.a.queued(aid) }

// GroupQueued: the BSS's own group frames wait, in its buffer or in the
// radio's non-station queue; another BSS's never set its group bit.
func (r *bssRadio) GroupQueued() bool { return r.group.n > 0 || r.groupQueued > 0 }

// airOf is the radio's part of its BSSes' announcements: the operating
// channel, the Country element, the channel's load.
func (a *AP) airOf() bss.Air {
	air := bss.Air{Channel: a.cfg.Channel, Freq: a.cfg.Freq}
	if c := a.cfg.Country; c != nil {
		air.Country, air.Subbands = c.Alpha2, c.Subbands
	}
	return air
}

var _ bss.Radio = (*bssRadio)(nil)
