package ap

import (
	"math/bits"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/txq"
)

// txLoop runs one scheduling round per AC with queued frames, the way a
// completion-driven driver does: StartRound, then for each queue Next hands
// out, dequeue while the station's AQL budget and the AC's in-flight cap
// allow, then Return. mac80211 never pushes back on injected frames, so
// these limits are the only brake. It runs on every new frame, every
// completion and every tick.
func (a *AP) txLoop(now time.Duration) {
	if a.scanning(now) {
		a.airtime.waking = false // the trip's end runs the loop again
		return                   // no rounds start while a trip drains or is away
	}
	if a.parked > 0 {
		a.releaseGroups(now)
	}
	for ac := ieee80211.AC(0); ac < ieee80211.NumACs; ac++ {
		// The next AC with queues listed; asked again after each round,
		// which may list queues of other ACs.
		rest := a.sched.ListedACs() >> ac
		if rest == 0 {
			break
		}
		if ac += ieee80211.AC(bits.TrailingZeros8(rest)); !a.air.CanSend(ac) {
			continue
		}
		a.sched.StartRound(ac, now)
		for q, ok := a.sched.Next(ac, now); ok; q, ok = a.sched.Next(ac, now) {
			slot := q.Station()
			// The non-station queue is never held: each BSS holds its own
			// group frames in its buffer (groupbuf.go).
			for a.air.CanSend(ac) && a.air.StationAllows(slot, ac) && a.sched.InShare(q) && !a.out.full() && !a.holdForAMSDU(slot, q) && a.fitsBeforeLeave(now) {
				f, ok := a.sched.Dequeue(q, now)
				if !ok {
					break
				}
				if slot == 0 && a.skim(uint32(f.Handle)) {
					continue
				}
				a.send(now, q, uint32(f.Handle), int(f.Len), slot == 0 && a.groupDequeued(uint32(f.Handle)))
			}
			a.sched.Return(q, false, now)
		}
		a.sched.EndRound(ac)
	}
	if a.airtime.caps > 0 {
		a.airtimeAfterPass(now)
	}
}

// send hands out a dequeued frame, aggregated with more of its queue into an
// A-MSDU when its station takes them.
func (a *AP) send(now time.Duration, q *txq.TXQ, h uint32, n int, moreData bool) {
	if slot := q.Station(); slot != 0 && !a.slabPoll[h] && !a.slabEAPOL[h] {
		s := &a.sta.slots[slot]
		if limit := a.amsduLimit(s); limit > 0 && q.Len() > 0 && a.keyReady(slot, s) && a.sendAMSDU(now, q, s, slot, h, n, limit) {
			return
		}
	}
	a.sendOne(now, q, h, n, moreData)
}

// sendOne builds a dequeued frame, registers it in flight with its pending
// airtime, and hands it out. moreData sets the More Data bit (more group
// frames follow a DTIM, or more buffered frames for a dozing station).
func (a *AP) sendOne(now time.Duration, q *txq.TXQ, h uint32, n int, moreData bool) {
	slot := q.Station()
	var (
		p    radio.TxParams
		qos  bool
		tid  uint8
		seq  uint16
		rate radio.Rate
		from *bss.BSS
		sec  *rsnState // the sending BSS's RSN; nil: an open BSS
	)
	if slot == 0 {
		from, sec = a.bsses[a.slabGroup[h]], a.radios[a.slabGroup[h]].rsn
		rate = from.Rates.LowestBasic()
		p = radio.TxParams{Rate: rate, Flags: radio.TxNoAck}
		seq = from.NextSeq()
	} else {
		s := &a.sta.slots[slot]
		from, sec = s.bss, a.rsnOf(s)
		rate = s.txRate
		p = radio.TxParams{Rate: rate}
		if !a.slabPoll[h] {
			s.lastTx = now
			if rc := a.rateTable(s); rc != nil {
				rate, p.Retries, _ = rc.Pick(now)
				p.Rate = rate
			}
		}
		qos = s.QoS
		if qos {
			tid, _ = q.TID()
			seq = s.txSeq[tid]
			s.txSeq[tid] = (seq + 1) & 0xfff
		} else {
			seq = from.NextSeq()
		}
	}
	var b []byte
	rt := radiotap.TxHeaderLen(p) // once: building and protecting use it
	if a.slabPoll[h] {
		b = a.buildNull(h, from.BSSID, p, qos, tid, seq)
	} else {
		b = a.buildData(h, from.BSSID, n, p, rt, qos, tid, seq)
	}
	fr := ieee80211.Frame(b[rt:])
	if moreData {
		fr.SetMoreData(true)
	}
	held := noSlab
	if sec != nil && !a.slabPoll[h] {
		var drop counter.ID
		if b, held, drop = a.protect(sec, slot, h, b, rt); b == nil {
			a.dropUnsent(h, drop)
			return
		}
		fr = ieee80211.Frame(b[rt:])
	}
	// The AC and TID the frame's header says (acOf), known here without
	// reading it.
	ac, ftid := ieee80211.ACBE, uint8(tidMgmt)
	if qos {
		ac, ftid = ieee80211.TIDToAC(tid), tid
	}
	rec := a.register(ac, fr, ftid, slot, true, n, rate, now)
	a.pend(rec, slot, ac)
	rec.slab, rec.hasSlab = h, true
	a.dequeued(h)
	a.emitData(b, rec)
	if held != noSlab {
		a.out.held = append(a.out.held, held)
	}
}

// dropUnsent drops a dequeued MSDU that must not go out: no key for it
// (only EAPOL goes before the 4-way handshake's key), or no slab for its
// ciphertext.
func (a *AP) dropUnsent(h uint32, reason counter.ID) {
	a.backlog--
	a.cnt[reason]++
	a.pool.put(h)
}

// keyReady reports whether frames to station s in slot can go under a
// key, or need none (an open network).
func (a *AP) keyReady(slot uint16, s *station) bool {
	return a.rsnOf(s) == nil || a.txKey(a.rsnOf(s), slot) != nil
}
