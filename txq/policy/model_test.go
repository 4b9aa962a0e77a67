package policy_test

import (
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/txq"
	"github.com/airq/airq/txq/policy"
)

const be = ieee80211.ACBE

// pending is the AQL view of the model: the airtime each station has in
// flight, against mac80211's BE limits (5 ms low, 12 ms high) and 24 ms
// threshold.
type pending struct {
	sta   []int32
	total int32
}

func (p *pending) PHYAllows(ieee80211.AC, int) bool { return true }
func (p *pending) StationAllows(sta uint16, _ ieee80211.AC) bool {
	_, lo, hi := p.StationBelow(sta, be)
	return lo || hi && p.TotalBelowThreshold()
}
func (p *pending) StationPending(sta uint16, _ ieee80211.AC) int32 { return p.sta[sta] }
func (p *pending) StationBelow(sta uint16, _ ieee80211.AC) (int32, bool, bool) {
	return p.sta[sta], sta == 0 || p.sta[sta] < 5000, sta == 0 || p.sta[sta] < 12000
}
func (p *pending) TotalBelowThreshold() bool { return p.total < 24000 }

type dropper struct{}

func (dropper) Mark(txq.Handle) bool            { return false }
func (dropper) Drop(txq.Handle, txq.DropReason) {}

type frame struct {
	sta  uint16
	us   int32
	done time.Duration
}

// model is one radio: stations in BSSes (the scheduler's groups), each
// either kept backlogged or idle, a hardware queue of two frames sent one
// after the other, each taking its station's airtime, and a completion
// that charges it. Time is virtual: it moves to the next completion, or,
// with nothing in flight, to when a capped BSS is back within budget.
type model struct {
	t      *testing.T
	s      *txq.Scheduler
	aql    *pending
	pol    *policy.Policy
	now    time.Duration
	due    time.Duration // the policy's next update
	polled bool
	est    []int32 // µs per frame, per station
	bss    []uint8
	busy   []bool
	flight []frame
	air    []uint64 // airtime completed per station
	h      txq.Handle
}

// newModel makes a model whose station i+1 is in BSS bss[i] and sends
// frames of est[i] µs.
func newModel(t *testing.T, mode policy.Mode, bss []uint8, est []int32) *model {
	n := len(bss)
	m := &model{t: t, aql: &pending{sta: make([]int32, n+1)}, est: make([]int32, n+1), bss: make([]uint8, n+1),
		busy: make([]bool, n+1), air: make([]uint64, n+1)}
	var err error
	if m.s, err = txq.New(txq.Config{Airtime: m.aql, Owner: dropper{}, MaxStations: n}); err != nil {
		t.Fatal(err)
	}
	if m.pol, err = policy.New(policy.Config{Mode: mode, MaxStations: n}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		sta := uint16(i + 1)
		m.est[sta], m.bss[sta], m.busy[sta] = est[i], bss[i], true
		if err := m.s.AddStation(sta); err != nil {
			t.Fatal(err)
		}
		if err := m.s.SetGroup(sta, bss[i]); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// join adds the stations to the policy, as the core does at association,
// with their own weights (0: none).
func (m *model) join(own ...uint16) {
	for sta := uint16(1); int(sta) < len(m.bss); sta++ {
		var w uint16
		if int(sta) <= len(own) {
			w = own[sta-1]
		}
		m.pol.AddStation(sta, m.bss[sta], w, m.s)
	}
}

func (m *model) topUp() {
	for sta := uint16(1); int(sta) < len(m.busy); sta++ {
		for m.busy[sta] && m.s.Queue(sta, 0).Len() < 4 {
			m.h++
			m.s.Enqueue(sta, 0, txq.Item{Handle: m.h, Len: 1500, Hash: uint32(sta)}, m.now)
		}
	}
}

// fill gives the hardware up to two frames, one driver round each.
func (m *model) fill() {
	for len(m.flight) < 2 {
		m.s.StartRound(be, m.now)
		q, ok := m.s.Next(be, m.now)
		if ok {
			sta := q.Station()
			ok = m.aql.StationAllows(sta, be)
			if ok {
				_, ok = m.s.Dequeue(q, m.now)
			}
			if ok {
				start := m.now
				if k := len(m.flight); k > 0 {
					start = m.flight[k-1].done
				}
				us := m.est[sta]
				m.flight = append(m.flight, frame{sta, us, start + time.Duration(us)*time.Microsecond})
				m.aql.sta[sta] += us
				m.aql.total += us
			}
			m.s.Return(q, false, m.now)
		}
		m.s.EndRound(be)
		if !ok {
			return
		}
	}
}

// run advances the model by d.
func (m *model) run(d time.Duration) {
	end := m.now + d
	for m.now < end {
		if !m.polled || m.now >= m.due {
			m.due, _ = m.pol.Update(m.now, m.s)
			m.polled = true
		}
		m.topUp()
		m.fill()
		if len(m.flight) == 0 {
			// Nothing eligible: an idle radio, or every backlogged
			// station in a BSS over its cap.
			next := end
			if at, ok := m.s.CapDeadline(m.now); ok {
				next = min(next, at)
			} else if frames, _ := m.s.Backlog(); frames > 0 {
				m.t.Fatalf("%v: %d frames queued, nothing sent, no cap to wait for", m.now, frames)
			}
			if m.due > m.now {
				next = min(next, m.due)
			}
			m.now = next
			continue
		}
		c := m.flight[0]
		m.flight = m.flight[1:]
		m.now = c.done
		m.aql.sta[c.sta] -= c.us
		m.aql.total -= c.us
		m.s.Charge(c.sta, be, uint32(c.us), m.now)
		m.air[c.sta] += uint64(c.us)
	}
}

// shares returns each station's and each BSS's airtime over the airtime
// of all, since the airtime snapshot from (nil: since the start).
func (m *model) shares(from []uint64) (sta []float64, bss [policy.MaxBSS]float64) {
	var total uint64
	used := make([]uint64, len(m.air))
	for i := range m.air {
		used[i] = m.air[i]
		if from != nil {
			used[i] -= from[i]
		}
		total += used[i]
	}
	sta = make([]float64, len(m.air))
	for i := 1; i < len(used); i++ {
		sta[i] = float64(used[i]) / float64(total)
		bss[m.bss[i]] += sta[i]
	}
	return sta, bss
}

// bssAirtime is the airtime BSS b's stations completed, in µs.
func (m *model) bssAirtime(b uint8) (us uint64) {
	for sta := range m.air {
		if sta > 0 && m.bss[sta] == b {
			us += m.air[sta]
		}
	}
	return us
}

func (m *model) snapshot() []uint64 { return append([]uint64(nil), m.air...) }

func near(got, want, tol float64) bool { return got >= want-tol && got <= want+tol }
