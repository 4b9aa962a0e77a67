package metrics

import (
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/airq/airq/internal/netnstest"
	"github.com/airq/airq/tap"
)

// The TAP's offload counters appear once the shell has a TAP to report,
// and not before (the simulator has none). Gathered without HTTP: the test
// runs in its own network namespace.
func TestMetricsTAPOffload(t *testing.T) {
	netnstest.NeedTUN(t)
	var dev atomic.Pointer[tap.Device]
	stats := func() (tap.Stats, bool) {
		if d := dev.Load(); d != nil {
			return d.Stats(), true
		}
		return tap.Stats{}, false
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(NewCollector(serveSim(t, busySim(t)), Options{TAP: stats}))
	events := func() map[string]float64 {
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if mf.GetName() != "airq_tap_offload_total" {
				continue
			}
			got := map[string]float64{}
			for _, m := range mf.GetMetric() {
				got[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
			}
			return got
		}
		return nil
	}
	if got := events(); got != nil {
		t.Fatalf("TAP counters before there is a TAP: %v", got)
	}
	netnstest.Enter(t)
	d, err := tap.Open("atap0", tap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dev.Store(d)
	got := events()
	for _, e := range []string{"gso_read", "gso_written", "bad_header"} {
		if v, ok := got[e]; !ok || v != 0 {
			t.Errorf("event %q: %v, %v", e, v, ok)
		}
	}
}
