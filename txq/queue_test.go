package txq

import (
	"slices"
	"testing"
	"time"
)

func TestBoundsDropFattest(t *testing.T) {
	o := &owner{}
	s := mustNew(t, Config{Airtime: openAirtime{}, Owner: o, MaxStations: 4, QueueLimit: 10, Limit: 16})
	s.AddStation(1)
	s.AddStation(2)
	for i := range 12 {
		s.Enqueue(1, 0, Item{Handle: Handle(i), Len: 1000, Hash: 1}, 0) // fat flow
	}
	s.Enqueue(1, 0, Item{Handle: 100, Len: 100, Hash: 0xF0000000}, 0) // thin flow
	if o.dropped[DropQueueFull] == 0 || s.Queue(1, 0).Len() > 10 {
		t.Fatalf("queue bound: %d drops, %d queued", o.dropped[DropQueueFull], s.Queue(1, 0).Len())
	}
	for i := range 10 {
		s.Enqueue(2, 0, Item{Handle: Handle(200 + i), Len: 1000, Hash: 2}, 0)
	}
	if n, _ := s.Backlog(); n > 16 || o.dropped[DropOverlimit] == 0 {
		t.Fatalf("total bound: %d queued, %d drops", n, o.dropped[DropOverlimit])
	}
	// The thin flow was never the fattest, and once the fat flow has used
	// its quantum the thin one goes next.
	q := s.Queue(1, 0)
	if f, ok := s.Dequeue(q, 0); !ok || f.Handle == 100 {
		t.Fatalf("first: %+v", f)
	}
	if f, ok := s.Dequeue(q, 0); !ok || f.Handle != 100 {
		t.Fatalf("sparse flow not next: %+v", f)
	}
	st := s.Stats(be)
	if st.Drops[DropQueueFull] != uint64(o.dropped[DropQueueFull]) {
		t.Fatal("drop counters disagree")
	}
	s.RemoveStation(1)
	if o.dropped[DropFlush] == 0 || s.Queue(1, 0).Len() != 0 {
		t.Fatal("remove did not flush")
	}
	if s.Enqueue(1, 0, Item{Handle: 1}, 0) {
		t.Fatal("enqueue to a removed station accepted")
	}
}

func TestFreezeThaw(t *testing.T) {
	s := mustNew(t, Config{Airtime: openAirtime{}, Owner: &owner{}, MaxStations: 2})
	s.AddStation(1)
	s.Enqueue(1, 0, Item{Handle: 1, Len: 100}, 10*ms)
	s.Freeze(12 * ms)
	s.Thaw(500 * ms)
	f, _ := s.Dequeue(s.Queue(1, 0), 503*ms)
	if f.Sojourn != 5*ms {
		t.Fatalf("sojourn %v, want 5ms", f.Sojourn)
	}
}

func TestSlowStationCoDel(t *testing.T) {
	s := mustNew(t, Config{Airtime: openAirtime{}, Owner: &owner{}, MaxStations: 4})
	s.AddStation(1)
	s.AddStation(2)
	s.SetExpectedThroughput(1, 11000) // < 6000 kbit/s x 2 stations
	if s.codelParams(s.Queue(1, 0)) != &slowCoDel {
		t.Fatal("slow station keeps the fast parameters")
	}
	s.SetExpectedThroughput(1, 13000)
	if p := s.codelParams(s.Queue(1, 0)); p != &fastCoDel || !p.ecn || p.target != 20*ms {
		t.Fatal("fast station parameters")
	}
	s.SetExpectedThroughput(1, 0) // unknown
	if s.codelParams(s.Queue(1, 0)) != &fastCoDel {
		t.Fatal("unknown throughput is not slow")
	}
}

// TestKeepActive: an emptied station queue stays listed (and counted for
// the per-PHY check) while its station owes airtime and was active within
// 100 ms; a checked-out queue is not counted.
func TestKeepActive(t *testing.T) {
	for _, mode := range []Mode{Trace, Production} {
		t.Run(mode.String(), func(t *testing.T) {
			s := mustNew(t, Config{Mode: mode, Airtime: openAirtime{}, Owner: &owner{}, MaxStations: 4})
			s.AddStation(1)
			s.Enqueue(1, 0, Item{Handle: 1, Len: 100}, 0)
			if s.Listed(be) != 1 {
				t.Fatal("not listed")
			}
			s.StartRound(be, 0)
			q, ok := s.Next(be, 0)
			if !ok || s.Listed(be) != 0 {
				t.Fatalf("checked out queue counted: %d", s.Listed(be))
			}
			s.Dequeue(q, 0)
			s.Charge(1, be, 5000, time.Millisecond) // in debt now
			s.Return(q, false, 2*time.Millisecond)
			if s.Listed(be) != 1 {
				t.Fatal("indebted, recently active queue dropped from the list")
			}
			s.EndRound(be)
			// Walking repays the debt; the emptied queue then leaves.
			s.StartRound(be, 3*time.Millisecond)
			for q, ok := s.Next(be, 3*time.Millisecond); ok; q, ok = s.Next(be, 3*time.Millisecond) {
				s.Return(q, false, 3*time.Millisecond)
			}
			if s.Listed(be) != 0 || s.Deficit(1, be) < 0 {
				t.Fatalf("listed %d, deficit %d", s.Listed(be), s.Deficit(1, be))
			}
			// Not active within 100 ms: no charge.
			s.Charge(1, be, 5000, 200*time.Millisecond)
			if s.Deficit(1, be) < 0 {
				t.Fatal("idle station charged")
			}
		})
	}
}

func TestPaused(t *testing.T) {
	for _, mode := range []Mode{Trace, Production} {
		s := mustNew(t, Config{Mode: mode, Airtime: openAirtime{}, Owner: &owner{}, MaxStations: 4})
		s.AddStation(1)
		s.Enqueue(1, 0, Item{Handle: 1, Len: 100}, 0)
		s.SetPaused(1, true, 0)
		s.StartRound(be, 0)
		if _, ok := s.Next(be, 0); ok || s.Listed(be) != 0 {
			t.Fatal("paused station scheduled")
		}
		s.Enqueue(1, 0, Item{Handle: 2, Len: 100}, 0)
		s.SetPaused(1, false, 0)
		s.StartRound(be, 0)
		if q, ok := s.Next(be, 0); !ok || q.Len() != 2 {
			t.Fatal("woken station not scheduled")
		}
	}
}

// TestPausedFramesAreNotCoDelDropped: frames a dozing station fetches one by
// one (PS-Poll) have waited in its power-save buffer, far beyond CoDel's
// target; they are not dropped, and after waking CoDel starts afresh.
func TestPausedFramesAreNotCoDelDropped(t *testing.T) {
	for _, mode := range []Mode{Trace, Production} {
		o := &owner{}
		s := mustNew(t, Config{Mode: mode, Airtime: openAirtime{}, Owner: o, MaxStations: 4})
		s.AddStation(1)
		s.SetPaused(1, true, 0)
		for i := range 20 {
			s.Enqueue(1, 0, Item{Handle: Handle(i + 1), Len: 1500, Hash: 7}, 0)
		}
		q := s.Queue(1, 0)
		now := time.Duration(0)
		for range 10 { // one frame per beacon interval
			now += 100 * time.Millisecond
			if _, ok := s.Dequeue(q, now); !ok {
				t.Fatal("nothing to fetch")
			}
		}
		s.SetPaused(1, false, now)
		for range 10 {
			if _, ok := s.Dequeue(q, now); !ok {
				t.Fatalf("%s: frames lost after waking", mode)
			}
		}
		if got := s.Stats(be).CoDelDrops; got != 0 {
			t.Errorf("%s: %d CoDel drops of power-save buffered frames", mode, got)
		}
	}
}

// TestLoneFlowDeficit: a lone flow's deficit after each dequeue is what
// the round robin gives one quantum per visit, however many visits a big
// frame takes (Dequeue adds them in one step), and interleaving with a
// second flow still goes a quantum at a time.
func TestLoneFlowDeficit(t *testing.T) {
	for _, quantum := range []int{1, 300, 1514, 4000} {
		s := mustNew(t, Config{Airtime: openAirtime{}, Owner: &owner{}, MaxStations: 2, Quantum: quantum})
		s.AddStation(1)
		q := s.Queue(1, 0)
		lens := []uint32{1514, 60, 3000, 1, 1514, 299, 300, 301, 9000, 1514}
		for i, n := range lens {
			s.Enqueue(1, 0, Item{Handle: Handle(i), Len: n, Hash: 7}, 0)
		}
		fi := s.classify(s.queueIndex(1, 0), 7)
		want := int32(quantum) // a new flow starts with one quantum
		for i, n := range lens {
			for want <= 0 {
				want += int32(quantum)
			}
			want -= int32(n)
			f, ok := s.Dequeue(q, 0)
			if !ok || f.Handle != Handle(i) {
				t.Fatalf("quantum %d: dequeue %d: %+v %v", quantum, i, f, ok)
			}
			if i < len(lens)-1 && s.flows[fi].deficit != want {
				t.Fatalf("quantum %d: after frame %d deficit %d, want %d", quantum, i, s.flows[fi].deficit, want)
			}
		}
	}
	// Two flows of one queue alternate by quantum, big frames or not.
	s := mustNew(t, Config{Airtime: openAirtime{}, Owner: &owner{}, MaxStations: 2, Quantum: 300})
	s.AddStation(1)
	for i := range 6 {
		s.Enqueue(1, 0, Item{Handle: Handle(i), Len: 1500, Hash: uint32(i%2) << 31}, 0)
	}
	var got []Handle
	for range 6 {
		f, _ := s.Dequeue(s.Queue(1, 0), 0)
		got = append(got, f.Handle)
	}
	if want := []Handle{0, 1, 2, 3, 4, 5}; !slices.Equal(got, want) {
		t.Fatalf("two flows served %v, want %v", got, want)
	}
}
