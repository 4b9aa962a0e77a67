package sim

import (
	"runtime"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

// downlinkMbps runs a bulk download to one associated station for d, with
// flooders sending frames at flood frames/s in all, and returns the goodput
// and the share of airtime the AP spent answering others.
func downlinkMbps(t *testing.T, flood float64, d time.Duration) (mbps, replyShare float64) {
	s, h := newBSS(t, 7, 1, MediumConfig{}, StationConfig{})
	if flood > 0 {
		s.AddStation(StationConfig{Start: s.Now(), Flood: flood})
	}
	b := s.Bulk(h, s.Stations()[0], BulkConfig{})
	s.Run(500 * time.Millisecond) // slow start
	start, delivered, mgmt := s.Now(), b.Stats().Delivered, s.Stats().APMgmtAirtime
	s.Run(d)
	elapsed := s.Now() - start
	if s.Stats().Unaccounted != 0 {
		t.Error("core unaccounted")
	}
	return float64(b.Stats().Delivered-delivered) * 8 / elapsed.Seconds() / 1e6,
		float64(s.Stats().APMgmtAirtime-mgmt) / float64(elapsed)
}

// TestFloodOnTheMedium: about 200 probe requests and authentications a
// second from ever new addresses, on the air and contending for it. The
// AP's answers (never ACKed) stay under 10% of airtime and an associated
// station keeps at least 80% of its download.
func TestFloodOnTheMedium(t *testing.T) {
	base, _ := downlinkMbps(t, 0, 3*time.Second)
	flooded, share := downlinkMbps(t, 200, 3*time.Second)
	t.Logf("download %.1f Mbit/s alone, %.1f under the flood; replies took %.1f%% of airtime", base, flooded, 100*share)
	if share >= 0.10 {
		t.Errorf("replies took %.1f%% of airtime, want under 10%%", 100*share)
	}
	if flooded < 0.8*base {
		t.Errorf("download fell from %.1f to %.1f Mbit/s under the flood", base, flooded)
	}
}

// TestFloodAtTheSeam delivers 10,000 frames a second from fake addresses
// (probes, authentications, associations) straight to the core while a
// station pings: the station keeps its service and the core's memory does
// not grow with the number of addresses seen.
func TestFloodAtTheSeam(t *testing.T) {
	s, h := newBSS(t, 8, 1, MediumConfig{}, StationConfig{})
	ping := s.Ping(h, s.Stations()[0], 100*time.Millisecond, 56)
	rt := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2412, Signal: -60, HasSignal: true})
	bssid := s.Core().Config().BSSID
	var buf []byte
	frame := func(i int) []byte {
		from := ieee80211.MAC{0x02, 0xfe, byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)}
		buf = append(buf[:0], rt...)
		switch i % 3 {
		case 0:
			return ieee80211.AppendProbeReq(buf, from, "", []byte{0x82, 0x84, 0x8b, 0x96}, uint16(i))
		case 1:
			b := ieee80211.AppendMgmtHeader(buf, ieee80211.SubtypeAuth, bssid, from, bssid, uint16(i))
			return ieee80211.AppendAuth(b, 0, 1, 0)
		}
		b := ieee80211.AppendMgmtHeader(buf, ieee80211.SubtypeAssocReq, bssid, from, bssid, uint16(i))
		b = ieee80211.AppendAssocReq(b, 0x0421, 10)
		b = ieee80211.AppendSSID(b, s.Core().Config().SSID)
		return ieee80211.AppendRates(b, []byte{0x82, 0x84, 0x8b, 0x96, 12, 24, 48, 108})
	}
	var ms runtime.MemStats
	heap := func() uint64 { runtime.GC(); runtime.ReadMemStats(&ms); return ms.HeapAlloc }
	i := 0
	flood := func(d time.Duration) {
		for end := s.Now() + d; s.Now() < end; {
			for range 10 { // 10 frames per ms
				s.InjectRadio(frame(i))
				i++
			}
			s.Run(time.Millisecond)
		}
	}
	flood(time.Second) // the tables fill
	before := heap()
	flood(3 * time.Second)
	after := heap()
	ping.Stop()
	s.Run(200 * time.Millisecond)
	if ps := ping.Stats(); ps.Received != ps.Sent || ps.Sent < 30 {
		t.Errorf("ping under the flood: %d sent, %d received", ps.Sent, ps.Received)
	}
	if after > before+4<<20 {
		t.Errorf("heap grew from %d to %d bytes over 30,000 more addresses", before, after)
	}
	// Nobody acknowledges the fake stations' authentication responses, so
	// their entries go as the echoes come back, and the budget holds most
	// responses back; none associates (their association requests come
	// from addresses that never authenticated).
	if c := s.Core().Counters(); c.AuthNotAcked == 0 || c.RepliesThrottled == 0 || s.Core().Associated() != 1 {
		t.Errorf("%d associated, counters %+v", s.Core().Associated(), c)
	}
	if !s.Core().Accounted() {
		t.Error("core unaccounted")
	}
}
