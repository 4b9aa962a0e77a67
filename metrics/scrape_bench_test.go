package metrics

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/sim"
)

// simSource answers calls from a simulator directly, on the caller's
// goroutine: for benchmarks, which scrape one at a time.
type simSource struct{ s *sim.Sim }

func (c simSource) Call(_ context.Context, req ctl.Request) (ctl.Reply, error) {
	return c.s.Control(req), nil
}

// fullTable is a simulator whose station table is full (2,007 stations),
// filled by forged addresses that acknowledge like real radios.
func fullTable(tb testing.TB) *sim.Sim {
	tb.Helper()
	s, err := sim.New(sim.Config{Seed: 5})
	if err != nil {
		tb.Fatal(err)
	}
	s.AddStation(sim.StationConfig{Flood: 200, FloodAssoc: true, FloodAddrs: 2100, FloodAcks: 1})
	for end := s.Now() + 60*time.Second; s.Now() < end; {
		s.Run(100 * time.Millisecond)
		c := s.Core().Counters()
		if c[counter.Associated]+c[counter.Pending]+c[counter.Authenticated] == 2007 {
			return s
		}
	}
	c := s.Core().Counters()
	tb.Fatalf("the table did not fill: %s", c.String())
	return nil
}

// BenchmarkScrapeFullTable is one /metrics scrape of a full table: what it
// allocates, and per station (allocs/op, B/op; B/station).
func BenchmarkScrapeFullTable(b *testing.B) {
	s := fullTable(b)
	h := Handler(NewCollector(simSource{s}, Options{}))
	req := httptest.NewRequest("GET", "/metrics", nil)
	b.ReportAllocs()
	b.ResetTimer()
	w := &discardResponse{header: http.Header{}}
	for b.Loop() {
		w.code, w.n = 200, 0
		h.ServeHTTP(w, req)
		if w.code != 200 || w.n < 2007*seriesPerStation*40 {
			b.Fatalf("scrape: HTTP %d, %d bytes", w.code, w.n)
		}
	}
	b.ReportMetric(float64(w.n), "body_bytes")
}

// discardResponse counts a response's body and keeps nothing, so that a
// benchmark measures the scrape, not a recorder's buffer.
type discardResponse struct {
	header http.Header
	code   int
	n      int
}

func (w *discardResponse) Header() http.Header         { return w.header }
func (w *discardResponse) WriteHeader(code int)        { w.code = code }
func (w *discardResponse) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }
