package metrics

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Handler serves /metrics: the core's collector, Go's and the process's.
// Go's adds the live heap as of the last collection (go_gc_heap_live_bytes)
// to the go_memstats_* families: go_memstats_heap_alloc_bytes counts
// garbage not yet collected too, which comes and goes with every scrape;
// the soft memory limit (go_gc_gomemlimit_bytes) and the CPU the collector
// took (go_cpu_classes_gc_total_cpu_seconds_total) show what the limit
// costs under a flood. A scrape the core's loop does not answer fails with HTTP 500.
func Handler(c *Collector) http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(c,
		collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(
			collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^(/gc/heap/live:bytes|/gc/gomemlimit:bytes|/cpu/classes/gc/total:cpu-seconds)$`)})),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(c.opts.Extra...)
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.HTTPErrorOnError}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("airqd: metrics at /metrics\n"))
	})
	return mux
}

// Server serves Handler on a TCP address until Close.
type Server struct {
	hs   *http.Server
	ln   net.Listener
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

// Listen starts serving src's metrics on addr (host:port; port 0 picks
// one).
func Listen(addr string, src Source, opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	s := &Server{ln: ln, hs: &http.Server{Handler: Handler(NewCollector(src, opts)), ReadHeaderTimeout: 5 * time.Second}}
	s.wg.Go(func() { s.hs.Serve(ln) }) // ends with http.ErrServerClosed at Close
	return s, nil
}

// Addr is the address the server listens on (the port chosen for ":0").
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the server, letting scrapes in progress finish for a second.
// It may be called more than once.
func (s *Server) Close() error {
	s.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if s.err = s.hs.Shutdown(ctx); s.err != nil {
			s.err = s.hs.Close()
		}
		s.wg.Wait()
	})
	return s.err
}
