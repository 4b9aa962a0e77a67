package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// startPprof serves the Go runtime's profiles on http://addr/debug/pprof/
// (-pprof), for finding what holds memory or CPU in a running daemon: e.g.
// `curl -o heap.pb.gz 'http://127.0.0.1:6060/debug/pprof/heap?gc=1'`, and
// the execution trace, for what keeps the core's loop waiting (`go tool
// trace`: which goroutine ran, for how long, GC): /debug/pprof/trace?seconds=5. Off
// by default; bind it to loopback, since profiles name the daemon's code
// paths and sizes (never key material: the heap profile records where
// memory was allocated, not what it holds).
// It returns the address it listens on (the port chosen for ":0").
func startPprof(addr string) (bound string, stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("-pprof: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	done := make(chan struct{})
	go func() { hs.Serve(ln); close(done) }()
	return ln.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if hs.Shutdown(ctx) != nil {
			hs.Close()
		}
		<-done
	}, nil
}
