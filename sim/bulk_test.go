package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/counter"
)

// TestBulk runs a TCP-like transfer each way with one station and checks
// that it fills a fair part of a 54 Mbit/s channel.
func TestBulk(t *testing.T) {
	s, h := newBSS(t, 3, 1, MediumConfig{}, StationConfig{})
	st := s.Stations()[0]
	down := s.Bulk(h, st, BulkConfig{})
	s.Run(2 * time.Second)
	down.Stop()
	up := s.Bulk(st, h, BulkConfig{})
	s.Run(2 * time.Second)
	up.Stop()
	for name, b := range map[string]*Bulk{"down": down, "up": up} {
		bs := b.Stats()
		mbps := float64(bs.Delivered) * 8 / 2e6
		t.Logf("%s: %.1f Mbit/s, %+v", name, mbps, bs)
		if mbps < 15 {
			t.Errorf("%s: %.1f Mbit/s, want at least 15 on a 54 Mbit/s link", name, mbps)
		}
	}
	if s.Stats().Unaccounted != 0 {
		t.Error("core unaccounted")
	}
}

// TestLossyLink checks the books when attempts, ACKs and echoes get lost:
// frames retried and failed, duplicates dropped, echoes missing.
func TestLossyLink(t *testing.T) {
	mc := MediumConfig{EchoLoss: 0.05, Collisions: true}
	s, h := newBSS(t, 4, 4, mc, StationConfig{Loss: 0.5, AckLoss: 0.1})
	var stop []interface{ Stop() }
	for _, st := range s.Stations() {
		stop = append(stop, s.Ping(h, st, 20*time.Millisecond, 100),
			s.UDP(st, h, UDPConfig{Interval: 5 * time.Millisecond}),
			s.UDP(h, st, UDPConfig{Interval: 5 * time.Millisecond}))
	}
	for range 100 {
		s.Run(10 * time.Millisecond)
		if !s.Core().Accounted() {
			t.Fatal("core unaccounted")
		}
	}
	for _, f := range stop {
		f.Stop()
	}
	s.Run(time.Second) // empty the queues; backoffs reach CWmax at this loss
	c, ss := s.Core().Counters(), s.Stats()
	var dups uint64
	for _, st := range s.Stations() {
		dups += st.Stats().RxDuplicates
	}
	t.Logf("core %+v", c)
	t.Logf("sim %+v", ss)
	if ss.DataFailed[Down] == 0 || c[counter.EchoFailed] == 0 {
		t.Errorf("no downlink frame failed (medium %d, core %d) at 50%% loss", ss.DataFailed[Down], c[counter.EchoFailed])
	}
	if c[counter.RxDuplicates] == 0 || dups == 0 {
		t.Errorf("no duplicates dropped (core %d, stations %d) with ACK loss", c[counter.RxDuplicates], dups)
	}
	if ss.EchoesLost == 0 || c[counter.NoStatus]+c[counter.TimedOut] == 0 {
		t.Errorf("%d echoes lost, core saw %d without status and %d timed out", ss.EchoesLost, c[counter.NoStatus], c[counter.TimedOut])
	}
	if got := c[counter.EchoAcked] + c[counter.EchoFailed] + c[counter.EchoUnmatched]; got != ss.Echoes {
		t.Errorf("core took %d echoes, medium sent %d", got, ss.Echoes)
	}
	if ss.Collisions == 0 {
		t.Error("no collisions with collisions on")
	}
	var down uint64
	for _, v := range ss.DataDone[Down] {
		down += v
	}
	// Every frame the core handed out is delivered or failed on the medium,
	// or still on its way (queued at the medium or its echo not back yet).
	if handed := c[counter.WiredSent] + c[counter.WiredTxFailed] + uint64(s.Core().InFlight()); down+ss.DataFailed[Down]+uint64(s.APQueued()) < c[counter.WiredSent]+c[counter.WiredTxFailed] || down+ss.DataFailed[Down] > handed {
		t.Errorf("core completed %d+%d data frames with %d in flight, medium delivered %d and failed %d", c[counter.WiredSent], c[counter.WiredTxFailed], s.Core().InFlight(), down, ss.DataFailed[Down])
	}
}

// TestDeterminism runs the same busy scenario twice per seed: the event log
// hashes must match, and differ between seeds.
func TestDeterminism(t *testing.T) {
	run := func(seed uint64) uint64 {
		s, h := newBSS(t, seed, 8, MediumConfig{Collisions: true, EchoLoss: 0.01}, StationConfig{Loss: 0.1, AckLoss: 0.05})
		for i, st := range s.Stations() {
			s.Ping(st, h, 50*time.Millisecond, 56)
			if i%2 == 0 {
				s.Bulk(h, st, BulkConfig{})
			} else {
				s.Bulk(st, h, BulkConfig{TOS: 0xa0})
			}
		}
		s.Run(500 * time.Millisecond)
		return s.Hash()
	}
	a, b, c := run(7), run(7), run(8)
	if a != b {
		t.Errorf("seed 7 gave %#x then %#x", a, b)
	}
	if a == c {
		t.Errorf("seeds 7 and 8 gave the same hash %#x", a)
	}
}
