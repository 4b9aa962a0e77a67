package main

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/airq/airq/shell"
)

// loopProbeEvery is how often the core loop's latency is sampled: 50
// probes a second, each a channel round trip the loop answers without
// touching the core.
const loopProbeEvery = 20 * time.Millisecond

// newLoopLatency is /metrics' airq_loop_latency_seconds: how late the
// core's loop took each probe after it was due (shell.ControlServer's
// ProbeLoop). The buckets bracket the 5 ms a commit flood must not push
// it past.
func newLoopLatency() prometheus.Histogram {
	return prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "airq_loop_latency_seconds",
		Help:    "How late the core's loop served an input due every 20 ms (a probe that touches nothing).",
		Buckets: []float64{0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25},
	})
}

// probeLoop samples the loop's latency into h until ctx ends.
func probeLoop(ctx context.Context, srv *shell.ControlServer, h prometheus.Histogram) {
	srv.ProbeLoop(ctx, loopProbeEvery, func(d time.Duration) { h.Observe(d.Seconds()) })
}
