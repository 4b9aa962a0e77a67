package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

// setPM follows a station's Power Management bit: a dozing station's queues
// leave the scheduler (frames wait in them, announced in the TIM) and come
// back when it wakes.
func (a *AP) setPM(now time.Duration, slot uint16, s *station, pm bool) {
	if !s.bss.FollowPM(&s.Station, pm) {
		return
	}
	a.sched.SetPaused(slot, pm, now)
	if !pm {
		a.releaseSAQuery(now, s)
	}
}

// psOrder is the order PS-Poll delivery takes TIDs in: voice first.
var psOrder = [ieee80211.NumTIDs]uint8{7, 6, 5, 4, 3, 0, 2, 1}

// buffered reports whether a station has frames waiting in any TID
// queue, or an SA Query Request held (saquery.go).
func (a *AP) buffered(slot uint16) bool {
	if r := a.sta.slots[slot].RSN; r != nil && r.QueryHeld {
		return true
	}
	return a.queued(slot)
}

// queued reports whether frames wait in any of a station's TID queues.
func (a *AP) queued(slot uint16) bool {
	for tid := range uint8(ieee80211.NumTIDs) {
		if q := a.sched.Queue(slot, tid); q != nil && q.Len() > 0 {
			return true
		}
	}
	return false
}

// handlePSPoll delivers one buffered frame to a dozing station, with More
// Data set while others wait; with nothing buffered it answers with a Null
// frame, as mac80211 does, so the station can go back to sleep.
func (a *AP) handlePSPoll(now time.Duration, fr ieee80211.Frame) {
	b := a.bssOf(fr.Addr1())
	if b == nil {
		a.cnt[counter.RxNotForUs]++
		return
	}
	sa := fr.Addr2()
	slot, s := a.sta.lookup(sa)
	if !a.admitClass3(now, b, sa, slot, s) {
		return
	}
	if fr.AID() != slot {
		a.cnt[counter.RxFromUnknown]++ // another station's AID: mac80211 ignores it too
		return
	}
	s.lastRx = now
	a.cnt[counter.PSPolls]++
	if !s.Dozing || a.releaseSAQuery(now, s) {
		return
	}
	for _, tid := range psOrder {
		q := a.sched.Queue(slot, tid)
		if q == nil || q.Len() == 0 {
			continue
		}
		f, ok := a.sched.Dequeue(q, now)
		if !ok {
			continue
		}
		a.sendOne(now, q, uint32(f.Handle), int(f.Len), a.buffered(slot))
		return
	}
	a.sendNullTo(now, slot, s)
}

// sendNullTo sends a Null data frame to a station (nothing buffered).
func (a *AP) sendNullTo(now time.Duration, slot uint16, s *station) {
	h, ok := a.pool.get()
	if !ok {
		a.cnt[counter.OutputOverflow]++
		return
	}
	copy(a.pool.slab(h)[headroom:], s.Addr[:])
	p := radio.TxParams{Rate: s.txRate}
	b := a.buildNull(h, s.bss.BSSID, p, false, 0, s.bss.NextSeq())
	fr := ieee80211.Frame(b[radiotap.TxHeaderLen(p):])
	ac, tid := acOf(fr)
	rec := a.register(ac, fr, tid, slot, false, 0, s.txRate, now)
	a.emitRadio(h, b, rec)
}

// buildNull writes a (QoS) Null data frame from BSS bssid to the station
// whose address is at the slab's headroom.
func (a *AP) buildNull(h uint32, bssid ieee80211.MAC, p radio.TxParams, qos bool, tid uint8, seq uint16) []byte {
	slab := a.pool.slab(h)
	var da ieee80211.MAC
	copy(da[:], slab[headroom:headroom+6])
	b := radiotap.AppendTx(slab[:0], p)
	return ieee80211.AppendDataHeader(b, ieee80211.DataHeader{
		Flags: ieee80211.FCFromDS, Addr1: da, Addr2: bssid, Addr3: bssid, Seq: seq, QoS: qos, TID: tid, Null: true,
	})
}

// rebuffer puts a frame whose transmission failed back into its station's
// queue when the station was dozing: it was handed to the radio before the
// station's Null frame with the PM bit arrived, and is not lost.
func (a *AP) rebuffer(rec *flight, now time.Duration) bool {
	if rec.slot == 0 {
		return false
	}
	s := &a.sta.slots[rec.slot]
	if s.State != bss.StateAssociated || s.Addr != rec.addr1 || !s.Dozing {
		return false
	}
	h := rec.slab
	slab := a.pool.slab(h)
	// Restore the 802.3 header the 802.11 header was written over; the
	// EtherType stayed in place at the end of the SNAP header.
	hdrLen := 24
	tid := uint8(0)
	if rec.tid != tidMgmt {
		hdrLen, tid = 26, rec.tid
	}
	hdr := headroom + 14 - 8 - hdrLen
	var sa ieee80211.MAC
	copy(sa[:], slab[hdr+16:hdr+22])
	copy(slab[headroom:], rec.addr1[:])
	copy(slab[headroom+6:], sa[:])
	a.backlog++
	if !a.sched.Enqueue(rec.slot, tid, a.itemOf(h, rec.bytes), now) {
		a.backlog--
		return false
	}
	return true
}

// pollInactive sends a Null data poll to stations not heard from for
// their BSS's inactivity timeout. The poll is queued like data, so a dozing station gets
// it after the TIM announces it; no ACK means the station is gone.
func (a *AP) pollInactive(now time.Duration) {
	for slot := range a.sta.used() {
		s := &a.sta.slots[slot]
		a.releaseIdleState(now, s)
		if s.State != bss.StateAssociated || s.polling || now-s.lastRx < a.radios[s.bssIdx].timers.inactivity {
			continue
		}
		h, ok := a.pool.get()
		if !ok {
			return
		}
		copy(a.pool.slab(h)[headroom:], s.Addr[:])
		a.slabPoll[h], a.slabSlot[h] = true, slot
		a.polls++
		if a.sched.Enqueue(slot, 0, a.itemOf(h, 14), now) {
			s.polling = true
		}
	}
}

// pollDone ends an inactivity poll: an ACK proves the station is there.
func (a *AP) pollDone(now time.Duration, slot uint16, addr ieee80211.MAC, acked bool) {
	s := &a.sta.slots[slot]
	if s.State != bss.StateAssociated || s.Addr != addr {
		return
	}
	s.polling = false
	if acked {
		s.lastRx = now
		return
	}
	a.disconnect(now, slot, ieee80211.ReasonInactivity, "no ACK to an inactivity poll", true)
}
