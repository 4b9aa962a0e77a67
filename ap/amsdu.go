package ap

import (
	"encoding/binary"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/txq"
)

// A-MSDU: injected frames are never A-MPDU aggregated, so every frame pays a
// whole channel access. An A-MSDU is a frame format, not a hardware feature:
// the TX loop packs several MSDUs of one station and TID into one QoS data
// frame. The scheduler, CoDel and the accounting still see each MSDU; one
// echo completes them all. A failed A-MSDU fails all its MSDUs (the radio
// already retried it), unless its station dozes: then each MSDU is buffered
// again.

const (
	// maxSubframes bounds the MSDUs of one A-MSDU (and the record's list).
	maxSubframes = 32
	// bigSlabSize holds the largest A-MSDU (an 11454-octet VHT MPDU) with
	// its radiotap header.
	bigSlabSize = 11454 + 256
	bigSlabs    = 256
	// maxSubframeLen is the most one MSDU adds: subframe header, LLC/SNAP,
	// a 1500-byte payload (1504 with a VLAN tag) and padding. The queue
	// cannot be peeked, so another MSDU is taken only if this much fits.
	maxSubframeLen = 14 + 8 + 1504 + 3
)

// amsduLimit is the longest A-MSDU body a station takes from us: our
// configured limit and what its HT or VHT capabilities announce.
func (a *AP) amsduLimit(s *station) int {
	if a.cfg.AMSDU == 0 || !s.HT || s.MaxAMSDU == 0 {
		return 0
	}
	return min(a.cfg.AMSDU, s.MaxAMSDU)
}

// holdForAMSDU keeps a partial A-MSDU in the queue while the station
// already has two full ones' worth of airtime pending: the radio stays busy,
// and the frames arriving meanwhile go out together instead of one by one
// (and wait less behind a long queue in the radio).
func (a *AP) holdForAMSDU(slot uint16, q *txq.TXQ) bool {
	// Inlined: without aggregation the answer is known before a call.
	return slot != 0 && a.cfg.AMSDU != 0 && a.holdingForAMSDU(slot, q)
}

// holdingForAMSDU is holdForAMSDU for a station's queue with A-MSDUs on.
func (a *AP) holdingForAMSDU(slot uint16, q *txq.TXQ) bool {
	s := &a.sta.slots[slot]
	limit := a.amsduLimit(s)
	if limit == 0 || q.Bytes() >= limit-maxSubframeLen {
		return false
	}
	r := s.txRate
	if s.rc != nil {
		r = s.rc.Best()
	}
	ac := q.AC()
	return a.air.Pending(slot, ac) >= 2*int64(a.est.Airtime(r, ac, limit))
}

// stationAMSDU reads the longest A-MSDU a station receives from its
// association request: the VHT maximum MPDU length (less the MAC header,
// QoS control and FCS) for VHT stations, the HT maximum A-MSDU otherwise.
func stationAMSDU(ies ieee80211.Elements, vht bool) int {
	if vht {
		if c, ok := ies.VHTCap(); ok {
			return c.MaxMPDU() - 26 - 4
		}
	}
	if c, ok := ies.HTCap(); ok {
		return c.MaxAMSDU()
	}
	return 0
}

// sendAMSDU packs frame h (n bytes of 802.3) and as many more MSDUs of q as
// fit into one A-MSDU, registers it and hands it out. It returns false, having
// done nothing, when no big buffer is free; the caller sends h alone.
func (a *AP) sendAMSDU(now time.Duration, q *txq.TXQ, s *station, slot uint16, h uint32, n int, limit int) bool {
	big, ok := a.big.get()
	if !ok {
		return false
	}
	tid, _ := q.TID()
	ac := ieee80211.TIDToAC(tid)
	r, retries := s.txRate, uint8(0)
	s.lastTx = now
	if rc := a.rateTable(s); rc != nil {
		r, retries, _ = rc.Pick(now)
	}
	p := radio.TxParams{Rate: r, Retries: retries}
	seq := s.txSeq[tid]
	s.txSeq[tid] = (seq + 1) & 0xfff
	b := a.txh.Append(a.big.slab(big)[:0], p)
	rt := len(b)
	b = ieee80211.AppendDataHeader(b, ieee80211.DataHeader{
		Flags: ieee80211.FCFromDS, Addr1: s.Addr, Addr2: s.bss.BSSID, Addr3: s.bss.BSSID,
		Seq: seq, QoS: true, TID: tid, AMSDU: true,
	})
	if a.rsnOf(s) != nil {
		b = append(b, zeroGap[:]...) // the CCMP header, written at encryption
	}
	body := len(b)
	var subs [maxSubframes]uint32
	nsubs, bytes := 0, 0
	add := func(h uint32, n int) {
		eth := a.pool.slab(h)[headroom : headroom+n]
		var da, sa ieee80211.MAC
		copy(da[:], eth[0:6])
		copy(sa[:], eth[6:12])
		b = ieee80211.AppendAMSDUSubframe(b, body, da, sa, binary.BigEndian.Uint16(eth[12:14]), eth[14:])
		subs[nsubs] = h
		nsubs++
		bytes += n
		a.dequeued(h)
	}
	add(h, n)
	// One A-MSDU may use at most half the station's low AQL limit, so a
	// single frame cannot take its whole airtime budget.
	low, _ := a.air.StationLimit(slot, ac)
	for nsubs < maxSubframes && len(b)-body+maxSubframeLen <= limit &&
		a.est.Airtime(r, ac, len(b)-rt+maxSubframeLen) <= low/2 {
		f, ok := a.sched.Dequeue(q, now)
		if !ok {
			break
		}
		if a.slabPoll[f.Handle] || a.slabEAPOL[f.Handle] { // a poll is a Null frame; EAPOL waits for its own TX status
			a.sendOne(now, q, uint32(f.Handle), int(f.Len), false)
			break
		}
		add(uint32(f.Handle), int(f.Len))
	}
	if a.rsnOf(s) != nil {
		b = a.protectInPlace(a.rsnOf(s), slot, b, rt)
	}
	fr := ieee80211.Frame(b[rt:])
	rec := a.register(ac, fr, tid, slot, true, bytes, r, now)
	a.pend(rec, slot, ac)
	rec.slab, rec.hasSlab, rec.big = big, true, true
	rec.subs, rec.nsubs = subs, uint8(nsubs)
	s.AMSDUs++
	s.AMSDUSubframes += uint64(nsubs)
	s.AMSDUBytes += uint64(bytes)
	a.emitData(b, rec)
	return true
}

// completeAMSDU settles each MSDU of an A-MSDU and frees the buffers.
func (a *AP) completeAMSDU(rec *flight, st *radio.TxStatus, now time.Duration) {
	acked := st == nil || st.Acked
	for _, h := range rec.subs[:rec.nsubs] {
		a.inflight--
		switch {
		case acked:
			a.cnt[counter.WiredSent]++
		case a.rebufferMSDU(rec.slot, rec.addr1, rec.tid, h, now):
			a.cnt[counter.Rebuffered]++
			continue
		default:
			a.cnt[counter.WiredTxFailed]++
		}
		a.pool.put(h)
	}
	a.big.put(rec.slab)
}

// rebufferMSDU puts an MSDU whose 802.3 frame is intact in slab h back into
// its dozing station's queue.
func (a *AP) rebufferMSDU(slot uint16, addr ieee80211.MAC, tid uint8, h uint32, now time.Duration) bool {
	s := &a.sta.slots[slot]
	if slot == 0 || s.State != bss.StateAssociated || s.Addr != addr || !s.Dozing {
		return false
	}
	a.backlog++
	if !a.sched.Enqueue(slot, tid, a.itemOf(h, int(a.slabLen[h])), now) {
		a.backlog--
		return false
	}
	return true
}
