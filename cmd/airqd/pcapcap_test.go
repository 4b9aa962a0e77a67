package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/internal/pcap"
)

// A capture that reaches -pcap-max-mb says so once, when it happens, with
// the cap and how to raise it; -pcap-rotate keeps a ring of files instead,
// each within the cap, and never reports full.
func TestPcapCapAndRotate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.pcap")
	d := startDaemon(t, "-pcap", path, "-pcap-max-mb", "1", "-sim-stations", "2", "-sim-join", "5ms")
	waitUntil(t, "the capture full", 20*time.Second, func() bool { return strings.Contains(d.log(), "pcap full") })
	log := d.log()
	if strings.Count(log, "pcap full") != 1 || !strings.Contains(log, "max_mb=1") || !strings.Contains(log, "-pcap-rotate") {
		t.Errorf("the full capture's warning:\n%s", log)
	}

	path = filepath.Join(t.TempDir(), "r.pcap")
	d = startDaemon(t, "-pcap", path, "-pcap-max-mb", "1", "-pcap-rotate", "3", "-sim-stations", "2", "-sim-join", "5ms")
	third := pcap.RingName(path, 2)
	waitUntil(t, "the ring back at its first file", 30*time.Second, func() bool {
		first, err1 := os.Stat(path)
		last, err2 := os.Stat(third)
		return err1 == nil && err2 == nil && first.ModTime().After(last.ModTime()) && last.Size() > 1<<19
	})
	for n := range 3 {
		if fi, err := os.Stat(pcap.RingName(path, n)); err != nil || fi.Size() > 1<<20 {
			t.Errorf("file %d: %v, %v", n, fi, err)
		}
	}
	if strings.Contains(d.log(), "pcap full") {
		t.Errorf("a rotating capture reported full:\n%s", d.log())
	}
}

func TestPcapRotateFlag(t *testing.T) {
	for _, n := range []string{"1", "-1", "1001"} {
		if _, err := parseFlags([]string{"-radio", "sim", "-pcap-rotate", n}); err == nil || !strings.Contains(err.Error(), "-pcap-rotate: "+n+", want 0 (one file) or 2 to 1000") {
			t.Errorf("-pcap-rotate %s: %v", n, err)
		}
	}
}
