package main

import (
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"

	"github.com/airq/airq/ap"
)

// applyMemoryLimit sets the Go runtime's soft memory limit once the core
// is built. The collector's goal is otherwise twice the live heap, and a
// flood's garbage is faulted in up to it; the limit caps that goal, so
// resident memory has a ceiling whatever the input. Derived (-memory-limit
// 0), it is 1.5 times the most the core can hold (what it holds now and
// its HeapReserve): the live heap can never come near it, so the
// collector never runs back to back. GOMEMLIMIT in the environment wins
// over the derived value, not over the key.
func applyMemoryLimit(o options, core *ap.AP, log *slog.Logger) {
	live := liveHeapBytes()
	limit := int64(o.MemoryLimitMB) << 20
	derived := limit == 0
	if derived {
		if v := os.Getenv("GOMEMLIMIT"); v != "" {
			log.Info("memory limit from GOMEMLIMIT", "gomemlimit", v, "live_heap_mb", mib(live))
			return
		}
		limit = derivedMemoryLimit(live, core.HeapReserve())
	}
	debug.SetMemoryLimit(limit)
	log.Info("memory limit", "limit_mb", mib(limit), "derived", derived, "live_heap_mb", mib(live),
		"core_reserve_mb", mib(core.HeapReserve()))
}

// derivedMemoryLimit is 1.5 times live plus reserve, rounded up to MiB.
func derivedMemoryLimit(live, reserve int64) int64 {
	b := (live + reserve) * 3 / 2
	return (b + 1<<20 - 1) &^ (1<<20 - 1)
}

// liveHeapBytes is the live heap after a collection.
func liveHeapBytes() int64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

func mib(b int64) float64 { return float64(b*10>>20) / 10 }
