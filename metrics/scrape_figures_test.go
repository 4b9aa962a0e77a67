package metrics

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/airq/airq/internal/readmetest"
)

// One scrape of a full table (2,007 stations) as the README quotes it: the
// text's size exactly, what it allocates within the few per cent the
// client library's pools and maps move it by.
func TestScrapeFullTableFigures(t *testing.T) {
	s := fullTable(t)
	h := Handler(NewCollector(simSource{s}, Options{}))
	req := httptest.NewRequest("GET", "/metrics", nil)
	w := &discardResponse{header: http.Header{}, code: 200} // a handler that writes no header answers 200
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h.ServeHTTP(w, req)
	runtime.ReadMemStats(&after)
	if w.code != 200 {
		t.Fatalf("scrape: HTTP %d", w.code)
	}
	mb := float64(after.TotalAlloc-before.TotalAlloc) / 1e6
	allocs := float64(after.Mallocs - before.Mallocs)
	t.Logf("a scrape of the full table: %d bytes of text, %.1f MB allocated in %.0f allocations", w.n, mb, allocs)
	readmetest.Check(t, `scrape of that table \(([\d.]+) MB of text\)`, fmt.Sprintf("%.2f", float64(w.n)/1e6))
	readmetest.CheckNear(t, `of text\) allocates ([\d.]+) MB`, mb, 0.05*mb)
	readmetest.CheckNear(t, `MB in about ([\d,]+)\s+allocations`, allocs, 0.02*allocs)
}
