package policy_test

import (
	"testing"
	"time"

	"github.com/airq/airq/txq"
	"github.com/airq/airq/txq/policy"
)

// BenchmarkUpdate is one dynamic-mode tick over 2,007 stations in eight
// BSSes, every other one backlogged, read from the scheduler itself.
func BenchmarkUpdate(b *testing.B) {
	const n = txq.DefaultMaxStations
	s, err := txq.New(txq.Config{Airtime: &pending{sta: make([]int32, n+1)}, Owner: dropper{}})
	if err != nil {
		b.Fatal(err)
	}
	p, _ := policy.New(policy.Config{Mode: policy.Dynamic, MaxStations: n})
	for g := range uint8(policy.MaxBSS) {
		p.SetBSS(g, policy.BSS{Weight: uint16(1 + g)}, s)
	}
	for sta := uint16(1); sta <= n; sta++ {
		s.AddStation(sta)
		s.SetGroup(sta, uint8(sta%policy.MaxBSS))
		p.AddStation(sta, uint8(sta%policy.MaxBSS), 0, s)
		if sta%2 == 0 {
			s.Enqueue(sta, 0, txq.Item{Handle: txq.Handle(sta), Len: 1500, Hash: uint32(sta)}, 0)
		}
	}
	now := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		now, _ = p.Update(now, s)
	}
}
