package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/sae"
)

// startMgmt takes a slab and writes the radiotap TX header and a management
// header into it. The frame goes at the lowest basic rate, like hostapd's.
func (a *AP) startMgmt(subtype int, da ieee80211.MAC) (uint32, []byte, int, bool) {
	return a.startMgmtAt(subtype, da, a.bss.Rates.LowestBasic(), 0)
}

// startMgmtTo starts a management frame with another BSSID field: probe
// requests name the wildcard BSSID.
func (a *AP) startMgmtTo(subtype int, da, bssid ieee80211.MAC) (uint32, []byte, int, bool) {
	h, b, rt, ok := a.startMgmt(subtype, da)
	if ok {
		copy(b[rt+16:rt+22], bssid[:])
	}
	return h, b, rt, ok
}

func (a *AP) startMgmtAt(subtype int, da ieee80211.MAC, rate radio.Rate, retries uint8) (uint32, []byte, int, bool) {
	return a.startMgmtFrom(a.bss, subtype, da, rate, retries)
}

// startMgmtFrom starts a management frame from BSS b: its BSSID, its
// sequence numbers.
func (a *AP) startMgmtFrom(b *bss.BSS, subtype int, da ieee80211.MAC, rate radio.Rate, retries uint8) (uint32, []byte, int, bool) {
	h, ok := a.pool.get()
	if !ok {
		a.cnt[counter.OutputOverflow]++
		return 0, nil, 0, false
	}
	p := radio.TxParams{Rate: rate, Retries: retries}
	if da.IsMulticast() {
		p.Flags |= radio.TxNoAck
	}
	f := radiotap.AppendTx(a.pool.slab(h)[:0], p)
	rt := len(f)
	f = ieee80211.AppendMgmtHeader(f, uint8(subtype), da, b.BSSID, b.BSSID, b.NextSeq())
	return h, f, rt, true
}

// finishReply sends a reply from BSS from to someone else's frame if its
// class of that BSS's reply airtime budget allows (replies.go). A reply that waits for its TX
// status (mlme, for station slot) says so in its record.
func (a *AP) finishReply(now time.Duration, from *bss.BSS, h uint32, b []byte, rt int, class bss.ReplyClass, slot uint16, mlme uint8) bool {
	b = a.protectMgmt(from, b, rt)
	cost := a.est.Airtime(from.Rates.LowestBasic(), ieee80211.ACVO, len(b)-rt)
	fr := ieee80211.Frame(b[rt:])
	reserve := 0.0
	if class == bss.ReplyNew && fr.Subtype() == ieee80211.SubtypeAuth {
		reserve = bss.NewAuthReserve
	}
	ok, pooled := from.Replies.Take(now, class, float64(cost), reserve)
	if !ok {
		a.countThrottled(class)
		a.pool.put(h)
		return false
	}
	ac, tid := acOf(fr)
	rec := a.register(ac, fr, tid, slot, false, len(fr), from.Rates.LowestBasic(), now)
	rec.replyCost, rec.replyClass, rec.replyPooled, rec.mlme = cost, class, pooled, mlme
	a.emitRadio(h, b, rec)
	return true
}

// finish registers the frame of BSS from in flight and queues it for the radio. Both
// protect a robust frame first (pmf.go).
func (a *AP) finish(now time.Duration, from *bss.BSS, h uint32, b []byte, rt int, slot uint16) {
	b = a.protectMgmt(from, b, rt)
	fr := ieee80211.Frame(b[rt:])
	ac, tid := acOf(fr)
	rec := a.register(ac, fr, tid, slot, false, len(fr), from.Rates.LowestBasic(), now)
	a.emitRadio(h, b, rec)
}

// saeH2ERequired is hostapd 2.11's h2e_required for r's BSS: SAE
// offered, and hash-to-element the only method, by sae_pwe=1 or by
// identifiers on every password.
func (r *bssRadio) saeH2ERequired() bool {
	return r.rsn != nil && r.rsn.sae != nil && r.rsn.sae.auth.PWE() == sae.HashToElement
}

// sendBeacon sends r's BSS's beacon due at tbtt.
func (a *AP) sendBeacon(now, tbtt time.Duration, r *bssRadio) {
	rate := r.b.Rates.LowestBasic()
	if a.cfg.BeaconRate != 0 {
		rate = radio.LegacyRate(a.cfg.BeaconRate)
	}
	h, b, rt, ok := a.startMgmtFrom(r.b, ieee80211.SubtypeBeacon, ieee80211.Broadcast, rate, 0)
	if !ok {
		return
	}
	a.updateLoad(now, r)
	b = r.b.AppendBeacon(b, r, now, r.saeH2ERequired())
	a.cnt[counter.Beacons]++
	fr := ieee80211.Frame(b[rt:])
	rec := a.register(ieee80211.ACVO, fr, tidMgmt, 0, false, len(fr), rate, now)
	rec.tbtt, rec.beacon = tbtt, true
	r.dtimOnAir = r.b.GroupWindow
	if r.dtimOnAir {
		r.dtimRef = rec.ref
		r.dtimDue = now + time.Duration(a.est.Airtime(rate, ieee80211.ACVO, len(fr)+4))*time.Microsecond + dtimEchoMargin // +4: the FCS
	}
	a.emitRadio(h, b, rec)
	a.beacons.emitted(now - tbtt)
}

// sendAuth answers an authentication (bss.BSS.SendAuth); a success to the
// station in slot waits for its TX status. It reports whether the response
// went out.
func (a *AP) sendAuth(now time.Duration, b *bss.BSS, da ieee80211.MAC, alg, seq, status uint16, class bss.ReplyClass, slot uint16) bool {
	if !b.SendAuth(now, a.radioOf(b), da, alg, seq, status, class, slot) {
		return false
	}
	a.cnt[counter.AuthResponses]++
	return true
}

// sendAssocResp answers a (re)association request (bss.BSS.SendAssocResp);
// a success gives the station its AID and waits for the response's TX
// status. It reports whether the response went out.
func (a *AP) sendAssocResp(now time.Duration, b *bss.BSS, reassoc bool, da ieee80211.MAC, status, aid uint16, wmm bool, class bss.ReplyClass) bool {
	resp := bss.AssocResp{Reassoc: reassoc, To: da, Status: status, WMM: wmm, H2EOnly: a.radioOf(b).saeH2ERequired(), Class: class}
	var s *station
	var admitted bss.Admitted
	if status == ieee80211.StatusSuccess && aid != 0 {
		s = &a.sta.slots[aid]
		admitted = bss.Admitted{AID: aid, ERP: s.ERPClass(), HT: s.HT, VHT: s.VHT, HTClass: s.HTClass(), SeqCtl: s.RespSeq}
		resp.Station = &admitted
	}
	sent := b.SendAssocResp(now, a.radioOf(b), &resp)
	if s != nil {
		s.RespSeq = admitted.SeqCtl
	}
	if !sent {
		return false
	}
	a.cnt[counter.AssocResponses]++
	return true
}

func (a *AP) sendDeauth(now time.Duration, b *bss.BSS, da ieee80211.MAC, reason uint16) {
	if b.SendReason(now, a.radioOf(b), ieee80211.SubtypeDeauth, da, reason) {
		a.cnt[counter.Deauths]++
	}
}

// sendDisassoc sends a disassociation.
func (a *AP) sendDisassoc(now time.Duration, b *bss.BSS, da ieee80211.MAC, reason uint16) {
	b.SendReason(now, a.radioOf(b), ieee80211.SubtypeDisassoc, da, reason)
}

// sendStrangerReply answers a class 2 or 3 frame from a station that is
// not authenticated or associated (bss.BSS.SendStrangerReply).
func (a *AP) sendStrangerReply(now time.Duration, b *bss.BSS, subtype uint8, da ieee80211.MAC, reason uint16) {
	if b.SendStrangerReply(now, a.radioOf(b), subtype, da, reason) {
		a.cnt[counter.Deauths]++
	}
}

// sendActionBounce returns an unknown unicast Action frame with the
// category's high bit set, as IEEE 802.11 requires of a receiver.
func (a *AP) sendActionBounce(now time.Duration, from *bss.BSS, da ieee80211.MAC, body []byte) {
	h, b, rt, ok := a.startMgmtFrom(from, ieee80211.SubtypeAction, da, from.Rates.LowestBasic(), 0)
	if !ok {
		return
	}
	if len(body) > slabSize-len(b)-32 {
		body = body[:slabSize-len(b)-32]
	}
	b = append(b, body...)
	b[len(b)-len(body)] |= 0x80
	a.finishReply(now, from, h, b, rt, bss.ReplyStranger, 0, mlmeNone)
}
