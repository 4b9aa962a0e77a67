package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// -pprof serves a heap profile and an execution trace, and a busy address
// fails naming the flag.
func TestPprofServesProfiles(t *testing.T) {
	addr, stop, err := startPprof("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	resp, err := http.Get("http://" + addr + "/debug/pprof/heap?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "heap profile") {
		t.Fatalf("%s: %.80q", resp.Status, body)
	}
	resp, err = http.Get("http://" + addr + "/debug/pprof/trace?seconds=0.05")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(string(body), "go 1.") {
		t.Fatalf("trace: %s: %.80q", resp.Status, body)
	}
	if _, _, err := startPprof(addr); err == nil || !strings.HasPrefix(err.Error(), "-pprof:") {
		t.Fatalf("a second listener on %s: %v", addr, err)
	}
}
