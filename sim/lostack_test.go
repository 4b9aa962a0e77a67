package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// lostAcks is what TestAssociateOverLostAcks measures.
type lostAcks struct {
	firstTry   int           // stations associated on their first authentication
	mean, most time.Duration // from a station's start to its first association
	reason6    int           // stations sent back with reason 6
}

// lostAckRun joins n stations, 20 ms apart, over a channel that loses 10%
// of their ACKs, each frame getting one attempt (so that a lost ACK fails
// the response though the station has it). Each station pings the wired
// host every 100 ms, as a station starts DHCP at once, and starts over
// after a deauthentication. A station's first association is seen to 10
// ms.
func lostAckRun(t *testing.T, n int) lostAcks {
	s, err := New(Config{Seed: 29, Medium: MediumConfig{RetryLimit: 1}})
	if err != nil {
		t.Fatal(err)
	}
	h := s.AddHost(HostConfig{})
	start := make([]time.Duration, n)
	for i := range n {
		start[i] = time.Duration(i) * 20 * time.Millisecond
		st := s.AddStation(StationConfig{Start: start[i], AckLoss: 0.1, Reconnect: true})
		s.Ping(st, h, 100*time.Millisecond, 56)
	}
	first := make([]time.Duration, n)
	var r lostAcks
	for s.Now() < start[n-1]+2*time.Second {
		s.Run(10 * time.Millisecond)
		for i, st := range s.Stations() {
			if first[i] == 0 && st.Associated() {
				first[i] = s.Now()
				if st.Stats().Auths == 1 {
					r.firstTry++
				}
			}
		}
	}
	for i, st := range s.Stations() {
		if first[i] == 0 {
			t.Fatalf("station %s never associated", st.Addr())
		}
		d := first[i] - start[i]
		r.mean += d / time.Duration(n)
		r.most = max(r.most, d)
		if st.Stats().LastReason == ieee80211.ReasonClass2FromNonAuth {
			r.reason6++
		}
	}
	return r
}

// TestAssociateOverLostAcks: a station whose authentication response's
// ACK was lost associates on its first try, as on a real channel, instead
// of being sent back to the start with reason 6.
func TestAssociateOverLostAcks(t *testing.T) {
	const n = 100
	r := lostAckRun(t, n)
	t.Logf("ACKs lost at 10%%: %d of %d stations associated on their first authentication; first association %v after the start on average, %v at most; %d sent back with reason 6",
		r.firstTry, n, r.mean, r.most, r.reason6)
	if r.firstTry != n || r.reason6 != 0 || r.most >= 100*time.Millisecond {
		t.Errorf("want every station associated on its first try, within 100 ms, none sent back with reason 6")
	}
}
