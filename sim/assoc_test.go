package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/airq/airq/ap"
)

// newBSS builds a simulation with n stations starting 1 ms apart and one
// wired host, runs it until all are associated (or fails).
func newBSS(t testing.TB, seed uint64, n int, mc MediumConfig, sc StationConfig) (*Sim, *Host) {
	t.Helper()
	s, err := New(Config{Seed: seed, Medium: mc})
	if err != nil {
		t.Fatal(err)
	}
	h := s.AddHost(HostConfig{})
	for i := range n {
		c := sc
		c.Start = time.Duration(i) * time.Millisecond
		s.AddStation(c)
	}
	deadline := s.Now() + 5*time.Second
	for s.Now() < deadline {
		s.Run(10 * time.Millisecond)
		if associated(s) == n {
			return s, h
		}
	}
	t.Fatalf("%d of %d stations associated after 5 s; core %+v", associated(s), n, s.Core().Counters())
	return nil, nil
}

func associated(s *Sim) int {
	n := 0
	for _, st := range s.Stations() {
		if st.Associated() {
			n++
		}
	}
	return n
}

func TestAssociate(t *testing.T) {
	for _, n := range []int{1, 8, 64} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s, _ := newBSS(t, 1, n, MediumConfig{}, StationConfig{})
			var connected int
			s.DrainEvents(func(e ap.Event) {
				if e.Kind == ap.EventConnected {
					connected++
				}
			})
			if connected != n {
				t.Errorf("core reported %d connections, want %d", connected, n)
			}
			for _, st := range s.Stations() {
				if !st.QoS() {
					t.Errorf("%s associated without WMM", st.Addr())
				}
			}
			if u := s.Stats().Unaccounted; u != 0 {
				t.Errorf("core not accounted after %d calls", u)
			}
			t.Logf("%d stations in %v, %d events", n, s.Now(), s.Stats().Events)
		})
	}
}
