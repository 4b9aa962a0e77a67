package ap

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

// markActive puts a station with queued frames on the TX loop's list.
func (a *AP) markActive(slot uint16) {
	for _, s := range a.active {
		if s == slot {
			return
		}
	}
	a.active = append(a.active, slot)
}

func (a *AP) dropActive(slot uint16) {
	for i, s := range a.active {
		if s == slot {
			a.active = append(a.active[:i], a.active[i+1:]...)
			if a.rr > uint16(i) {
				a.rr--
			}
			return
		}
	}
}

// txLoop hands queued frames to the radio, one per station in turn, while the
// AC of the station's next frame has room in flight. mac80211 never pushes
// back on injected frames, so this cap is the only brake.
func (a *AP) txLoop(now time.Duration) {
	for len(a.active) > 0 && !a.out.full() {
		progress := false
		for n := len(a.active); n > 0 && len(a.active) > 0 && !a.out.full(); n-- {
			if int(a.rr) >= len(a.active) {
				a.rr = 0
			}
			slot := a.active[a.rr]
			s := &a.sta.slots[slot]
			ac := ieee80211.ACBE
			if s.qos {
				ac = ieee80211.TIDToAC(s.q.peekTID())
			}
			if a.flights[ac].data >= a.cfg.InFlightPerAC {
				a.rr++
				continue
			}
			a.sendOne(now, slot, s)
			progress = true
			if s.q.size == 0 {
				a.dropActive(slot)
			} else {
				a.rr++
			}
		}
		if !progress {
			return
		}
	}
}

// sendOne dequeues the station's next frame, builds it and hands it out.
func (a *AP) sendOne(now time.Duration, slot uint16, s *station) {
	h, n, tid, _ := s.q.pop()
	a.backlog--
	p := radio.TxParams{Rate: s.txRate}
	var seq uint16
	if s.qos {
		seq = s.txSeq[tid]
		s.txSeq[tid] = (seq + 1) & 0xfff
	} else {
		seq = a.nextMgmtSeq()
	}
	b := a.buildData(h, n, p, s.qos, tid, seq)
	fr := ieee80211.Frame(b[radiotap.TxHeaderLen(p):])
	ac, ftid := acOf(fr)
	a.register(ac, flight{addr1: fr.Addr1(), seqCtl: fr.SeqCtl(), tid: ftid, slot: slot, data: true, sent: now, bytes: n})
	a.cnt.WiredSent++
	a.emitRadio(h, b)
}
