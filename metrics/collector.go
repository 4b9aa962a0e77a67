package metrics

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/tap"
)

// Source answers control requests from the loop that owns the core, as
// shell.ControlServer.Call does. Scrapes may call it concurrently.
type Source interface {
	Call(ctx context.Context, req ctl.Request) (ctl.Reply, error)
}

// Options tune a Collector.
type Options struct {
	// Timeout bounds the wait for the core's loop; 0 means 2 s.
	Timeout time.Duration
	// TAP reports the TAP's counters, false while there is none (the
	// simulator has none; the radio path opens it after the exporter
	// starts). Nil: no TAP families.
	TAP func() (tap.Stats, bool)
	// Extra are the daemon's own collectors (the core loop's latency),
	// served beside the core's.
	Extra []prometheus.Collector
}

// Collector is a prometheus.Collector of the core's state.
type Collector struct {
	src  Source
	opts Options
	up   *prometheus.Desc
	flat map[*counter.Family]*prometheus.Desc
	sec  sectionDescs
	bss  bssDescs
}

var _ prometheus.Collector = (*Collector)(nil)

// NewCollector returns a collector that reads src.
func NewCollector(src Source, opts Options) *Collector {
	if opts.Timeout == 0 {
		opts.Timeout = 2 * time.Second
	}
	c := &Collector{src: src, opts: opts, flat: map[*counter.Family]*prometheus.Desc{},
		up: prometheus.NewDesc("airq_up", "1 when the core's loop answered the scrape; a loop that does not answer fails the scrape.", nil, nil)}
	for _, f := range counter.Families() {
		var labels []string
		if f.Label != "" {
			labels = []string{f.Label}
		}
		c.flat[f] = prometheus.NewDesc(f.Name, f.Help, labels, nil)
	}
	c.sec = newSectionDescs()
	c.bss = newBSSDescs()
	return c
}

// Describe sends every family the collector may export.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.up
	for _, f := range counter.Families() {
		ch <- c.flat[f]
	}
	c.sec.describe(ch)
	c.bss.describe(ch)
}

// Collect takes one snapshot from the core's loop and exports it.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), c.opts.Timeout)
	defer cancel()
	r, err := c.src.Call(ctx, ctl.Request{Op: ctl.OpSnapshot})
	switch {
	case err != nil:
		err = fmt.Errorf("the core's loop did not answer: %w", err)
	case r.Status == nil || r.AQL == nil || r.Scheduler == nil:
		err = errors.New("the core's snapshot lacks its status, aql or scheduler section")
	}
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.up, err)
		return
	}
	e := emitter{ch}
	e.gauge(c.up, 1)
	c.collectCounters(e, &r.Status.Counters)
	c.sec.collect(e, &r)
	c.bss.collect(e, r.Devs)
	if c.opts.TAP != nil {
		if t, ok := c.opts.TAP(); ok {
			c.sec.collectTAP(e, &t)
		}
	}
}

// collectCounters exports the table: every entry, zero or not, so that a
// series exists from the first scrape.
func (c *Collector) collectCounters(e emitter, s *counter.Set) {
	for _, f := range counter.Families() {
		d, t := c.flat[f], prometheus.CounterValue
		if f.Kind == counter.Gauge {
			t = prometheus.GaugeValue
		}
		for _, id := range counter.Members(f) {
			var labels []string
			if f.Label != "" {
				labels = []string{id.Desc().Value}
			}
			e.ch <- prometheus.MustNewConstMetric(d, t, float64(s[id]), labels...)
		}
	}
}

// emitter sends constant metrics.
type emitter struct{ ch chan<- prometheus.Metric }

func (e emitter) gauge(d *prometheus.Desc, v float64, labels ...string) {
	e.ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
}

func (e emitter) counter(d *prometheus.Desc, v float64, labels ...string) {
	e.ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
}
