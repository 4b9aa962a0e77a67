package txq

import (
	"testing"
	"time"
)

// tcpOwner marks ECN-capable bulk frames and remembers which, so that the
// sender can react when a marked frame is delivered.
type tcpOwner struct {
	marked map[Handle]bool
	drops  int
}

func (o *tcpOwner) Mark(h Handle) bool      { o.marked[h] = true; return true }
func (o *tcpOwner) Drop(Handle, DropReason) { o.drops++ }

// TestLatencySparseFlow: one station, a window-based bulk sender (additive
// increase per window, halving on a CE mark at most once per RTT) and a
// ping every 100 ms, served at one 1500-byte frame per ms. CoDel keeps the
// bulk queue near its 20 ms target and the sparse flow, always a new flow,
// leaves within a frame time.
func TestLatencySparseFlow(t *testing.T) {
	for _, mode := range []Mode{Production, Trace} {
		t.Run(mode.String(), func(t *testing.T) {
			o := &tcpOwner{marked: map[Handle]bool{}}
			s := mustNew(t, Config{Mode: mode, Airtime: openAirtime{}, Owner: o, MaxStations: 4})
			s.AddStation(1)
			const bulkHash, pingHash = 0x11111111, 0x99999999
			var (
				now              time.Duration
				h                Handle
				cwnd             = 4.0
				queued           int
				lastCut          time.Duration
				pingMax, bulkSum time.Duration
				bulkN, pings     int
				ping             = map[Handle]bool{}
				nextPing         time.Duration
			)
			const duration = 20 * time.Second
			for now = 0; now < duration; now += time.Millisecond {
				if now >= nextPing {
					h++
					ping[h] = true
					s.Enqueue(1, 0, Item{Handle: h, Len: 100, Hash: pingHash}, now)
					nextPing += 100 * time.Millisecond
				}
				for float64(queued) < cwnd {
					h++
					queued++
					s.Enqueue(1, 0, Item{Handle: h, Len: 1500, Hash: bulkHash}, now)
				}
				s.StartRound(be, now)
				q, ok := s.Next(be, now)
				if !ok {
					t.Fatal("nothing to serve")
				}
				f, ok := s.Dequeue(q, now)
				s.Return(q, false, now)
				s.EndRound(be)
				if !ok {
					continue
				}
				s.Charge(1, be, 1000, now)
				if ping[f.Handle] {
					pings++
					pingMax = max(pingMax, f.Sojourn)
					continue
				}
				queued--
				if now > duration/2 {
					bulkSum += f.Sojourn
					bulkN++
				}
				if o.marked[f.Handle] && now-lastCut > f.Sojourn {
					cwnd, lastCut = max(cwnd/2, 2), now
				} else {
					cwnd += 1 / cwnd
				}
			}
			bulkAvg := bulkSum / time.Duration(bulkN)
			t.Logf("%v: %d pings, worst sojourn %v; bulk mean sojourn %v (second half), %d marks", mode, pings, pingMax, bulkAvg, s.Stats(be).CoDelMarks)
			if pingMax >= 5*time.Millisecond {
				t.Errorf("sparse flow sojourn %v, want < 5ms", pingMax)
			}
			if bulkAvg < 10*time.Millisecond || bulkAvg > 35*time.Millisecond {
				t.Errorf("bulk sojourn %v, want near the 20ms target", bulkAvg)
			}
			if s.Stats(be).CoDelMarks == 0 {
				t.Error("CoDel never marked")
			}
		})
	}
}
