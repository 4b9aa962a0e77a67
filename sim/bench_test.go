package sim

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkSimSpeed measures simulated seconds per wall-clock second in
// real-path mode with saturating bulk downlink flows (one per station) and
// a ping per station.
func BenchmarkSimSpeed(b *testing.B) {
	for _, n := range []int{1, 32} {
		b.Run(fmt.Sprintf("stations=%d", n), func(b *testing.B) {
			s, h := newBSS(b, 1, n, MediumConfig{}, StationConfig{})
			for _, st := range s.Stations() {
				s.Bulk(h, st, BulkConfig{})
				s.Ping(st, h, 100*time.Millisecond, 56)
			}
			s.Run(200 * time.Millisecond) // past slow start
			b.ReportAllocs()
			b.ResetTimer()
			start, busy := s.Now(), s.Stats().Busy
			for b.Loop() {
				s.Run(100 * time.Millisecond)
			}
			b.ReportMetric((s.Now()-start).Seconds()/b.Elapsed().Seconds(), "simsec/s")
			b.ReportMetric(float64(s.Stats().Busy-busy)/float64(s.Now()-start), "airtime")
		})
	}
}
