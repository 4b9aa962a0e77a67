package main

import (
	"fmt"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/airq/airq/metrics"
	"github.com/airq/airq/shell"
	"github.com/airq/airq/tap"
)

// startMetrics serves /metrics on addr from the core's loop behind srv,
// with the loop's latency.
func startMetrics(addr string, srv *shell.ControlServer, wired *wiredView, loop prometheus.Histogram) (*metrics.Server, error) {
	m, err := metrics.Listen(addr, srv, metrics.Options{TAP: wired.stats, Extra: []prometheus.Collector{loop}})
	if err != nil {
		return nil, fmt.Errorf("-metrics: %w", err)
	}
	return m, nil
}

// wiredView hands the exporter the TAP device once the radio path has
// opened it; the simulator has none.
type wiredView struct{ d atomic.Pointer[tap.Device] }

func (w *wiredView) set(d *tap.Device) {
	if w != nil {
		w.d.Store(d)
	}
}

func (w *wiredView) stats() (tap.Stats, bool) {
	if w == nil {
		return tap.Stats{}, false
	}
	d := w.d.Load()
	if d == nil {
		return tap.Stats{}, false
	}
	return d.Stats(), true
}
