package main

import (
	"io"
	"log/slog"
	"math"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
)

// memory_limit: 0 by default (derived), the file sets it, the flag
// overrides it, and both are checked.
func TestMemoryLimitOption(t *testing.T) {
	o, err := parseFlags([]string{"-radio", "sim"})
	if err != nil || o.MemoryLimitMB != 0 {
		t.Fatalf("default: %d, %v", o.MemoryLimitMB, err)
	}
	path := writeConf(t, "memory_limit=96\n")
	if o, err = parseFlags([]string{"-radio", "sim", "-config", path}); err != nil || o.MemoryLimitMB != 96 {
		t.Fatalf("file: %d, %v", o.MemoryLimitMB, err)
	}
	if o, err = parseFlags([]string{"-radio", "sim", "-config", path, "-memory-limit", "200"}); err != nil || o.MemoryLimitMB != 200 {
		t.Fatalf("flag: %d, %v", o.MemoryLimitMB, err)
	}
	if _, err = parseFlags([]string{"-radio", "sim", "-memory-limit", "8"}); err == nil || !strings.Contains(err.Error(), "-memory-limit: 8") {
		t.Fatalf("bad flag: %v", err)
	}
	if _, err = parseFlags([]string{"-radio", "sim", "-config", writeConf(t, "memory_limit=lots\n")}); err == nil || !strings.Contains(err.Error(), "memory_limit") {
		t.Fatalf("bad key: %v", err)
	}
}

// The derived limit is 1.5 times what the core can hold, so the live heap
// stays well under it; a configured one is taken as it is.
func TestMemoryLimitApplied(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	t.Setenv("GOMEMLIMIT", "") // empty: not set
	core, err := ap.New(ap.Config{SSID: "airq-test", BSSID: ieee80211.MAC{2, 0, 0, 0, 0, 1}, Channel: 1})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var o options
	o.MemoryLimitMB = 100
	applyMemoryLimit(o, core, log)
	if got := debug.SetMemoryLimit(-1); got != 100<<20 {
		t.Errorf("configured: limit %d", got)
	}
	o.MemoryLimitMB = 0
	applyMemoryLimit(o, core, log)
	if got := debug.SetMemoryLimit(-1); got < core.HeapReserve()*3/2 || got > derivedMemoryLimit(liveHeapBytes(), core.HeapReserve())+1<<20 {
		t.Errorf("derived: limit %d MiB, reserve %d MiB", got>>20, core.HeapReserve()>>20)
	}
	if got := derivedMemoryLimit(10<<20, 80<<20+1); got != 136<<20 {
		t.Errorf("derived from 10 MiB live and 80 MiB reserve: %d MiB, want 136", got>>20)
	}
}
