package main

import (
	"io"
	"net"
	"net/http"
	"regexp"
	"testing"
	"time"
)

// /metrics carries the core loop's latency, sampled while the daemon runs.
func TestMetricsLoopLatency(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	startDaemon(t, "-metrics", addr)
	count := regexp.MustCompile(`(?m)^airq_loop_latency_seconds_count ([1-9][0-9]*)$`)
	var text string
	waitUntil(t, "loop latency samples in /metrics", 10*time.Second, func() bool {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			return false
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		text = string(b)
		return count.MatchString(text)
	})
	if !regexp.MustCompile(`(?m)^airq_loop_latency_seconds_bucket\{le="0.005"\} [0-9]+$`).MatchString(text) {
		t.Errorf("no 5 ms bucket:\n%s", text)
	}
}
