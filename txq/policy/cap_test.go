package policy_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/airq/airq/txq"
	"github.com/airq/airq/txq/policy"
)

// TestCapProperties: random radios of 2-4 BSSes with 1-4 stations each,
// some idle, one or two BSSes capped at 5-90 % with bursts of 1-30 ms
// (raised to MinCapBurst),
// frames of 300-4000 µs. Every capped BSS stays within its share of the
// time plus its burst and two frames in flight; the air is never idle
// while an uncapped BSS is busy; and with every busy BSS capped, the air
// carries the sum of their shares (the caps do not hold anyone back
// further than their budget).
func TestCapProperties(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 15
	}
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 0x636170))
		nb := 2 + r.IntN(3)
		var bss []uint8
		var est []int32
		for b := range nb {
			for range 1 + r.IntN(4) {
				bss = append(bss, uint8(b))
				est = append(est, int32(300+r.IntN(3701)))
			}
		}
		m := newModel(t, policy.Off, bss, est)
		busy := make([]bool, nb)
		for b := range busy {
			busy[b] = r.IntN(3) != 0
		}
		for sta := 1; sta < len(m.bss); sta++ {
			m.busy[sta] = busy[m.bss[sta]]
		}
		share := make([]int, nb)
		burst := make([]time.Duration, nb)
		for range 1 + r.IntN(2) {
			b := r.IntN(nb)
			share[b] = 50 + r.IntN(851)
			burst[b] = time.Duration(1+r.IntN(30)) * time.Millisecond
			if err := m.s.SetCap(uint8(b), share[b], burst[b], 0); err != nil {
				t.Fatal(err)
			}
			burst[b] = max(burst[b], txq.MinCapBurst)
		}
		const span = 5 * time.Second
		m.run(span)
		var used, allowed uint64
		uncappedBusy := false
		for b := range nb {
			air := m.bssAirtime(uint8(b))
			used += air
			if share[b] == 0 {
				uncappedBusy = uncappedBusy || busy[b]
				continue
			}
			limit := uint64(span/time.Microsecond)*uint64(share[b])/1000 + uint64(burst[b]/time.Microsecond) + 2*4000
			if air > limit {
				t.Errorf("seed %d: BSS %d capped at %d‰ used %d µs of %v, above %d", seed, b, share[b], air, span, limit)
			}
			if busy[b] {
				allowed += uint64(span/time.Microsecond) * uint64(share[b]) / 1000
			}
		}
		total := uint64(m.now / time.Microsecond)
		switch {
		case uncappedBusy && used < total-total/1000:
			t.Errorf("seed %d: the air idle %d µs of %d with an uncapped BSS busy", seed, total-used, total)
		case !uncappedBusy && used < min(allowed, total)*98/100:
			t.Errorf("seed %d: capped BSSes alone carried %d µs, their shares allow %d (shares %v bursts %v busy %v est %v bss %v)", seed, used, allowed, share, burst, busy, est, bss)
		}
	}
}
