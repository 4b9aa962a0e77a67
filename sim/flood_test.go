package sim

import (
	"runtime"
	"testing"
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
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
	if c := s.Core().Counters(); c[counter.AuthNotAcked] == 0 || c[counter.RepliesThrottled] == 0 || s.Core().Associated() != 1 {
		t.Errorf("%d associated, counters %+v", s.Core().Associated(), c)
	}
	if !s.Core().Accounted() {
		t.Error("core unaccounted")
	}
}

// floodRun is what admissionFlood measured.
type floodRun struct {
	before, during float64       // the download's goodput, Mbit/s
	replies        float64       // share of airtime the AP's replies took during the flood
	joined         time.Duration // how long the new station took to associate; -1: it did not
	s              *Sim
	flooder        *Station
}

// admissionFlood runs a download to one associated station, then starts a
// flooder sending rate frames/s of an admission flood (3,000 addresses,
// half acknowledging like real radios); half a second into it, a new
// station starts joining. It measures the download for d from then.
func admissionFlood(t *testing.T, seed uint64, rate float64, d time.Duration) floodRun {
	t.Helper()
	s, h := newBSS(t, seed, 1, MediumConfig{}, StationConfig{})
	b := s.Bulk(h, s.Stations()[0], BulkConfig{})
	s.Run(500 * time.Millisecond) // slow start
	mbps := func(run time.Duration) float64 {
		start, delivered := s.Now(), b.Stats().Delivered
		s.Run(run)
		return float64(b.Stats().Delivered-delivered) * 8 / (s.Now() - start).Seconds() / 1e6
	}
	r := floodRun{s: s}
	r.before = mbps(time.Second)
	r.flooder = s.AddStation(StationConfig{Start: s.Now(), Flood: rate, FloodAssoc: true, FloodAcks: 0.5})
	s.Run(500 * time.Millisecond) // the flood is on
	st := s.AddStation(StationConfig{Start: s.Now()})
	start, mgmt := s.Now(), s.Stats().APMgmtAirtime
	r.during = mbps(d)
	r.replies = float64(s.Stats().APMgmtAirtime-mgmt) / float64(s.Now()-start)
	r.joined = st.Stats().AssociatedAt - start
	if !st.Associated() {
		r.joined = -1
	}
	return r
}

// TestAdmissionFloodOnTheMedium: 500 frames/s of authentications and
// association requests from 3,000 forged addresses, half of them
// acknowledging like real radios, contending on the air. A station that
// starts joining during the flood is associated within 2 s; no forged
// address that never acknowledged is associated (no ghosts); the AP's
// replies stay under 10% of airtime, and the download keeps most of its
// goodput.
func TestAdmissionFloodOnTheMedium(t *testing.T) {
	r := admissionFlood(t, 11, 500, 3*time.Second)
	c := r.s.Core().Counters()
	t.Logf("download %.1f Mbit/s before, %.1f during the flood; replies %.1f%% of airtime; joined in %v; %d forged stations associated, %d acknowledged",
		r.before, r.during, 100*r.replies, r.joined, r.s.Core().Associated()-2, c[counter.AssocAcked])
	if r.joined < 0 || r.joined > 2*time.Second {
		t.Errorf("the new station joined in %v, want within 2 s", r.joined)
	}
	ghosts, forged := 0, 0
	for _, st := range r.s.Control(ctl.Request{Op: ctl.OpStationDump}).Stations {
		flood, acks := r.flooder.FloodAddress(ieee80211.MAC(st.Addr))
		if st.Associated && flood {
			forged++
			if !acks {
				ghosts++
			}
		}
	}
	if ghosts != 0 || forged == 0 || uint64(forged) > r.flooder.FloodAssociated() {
		t.Errorf("%d ghosts among %d forged stations associated (%d acknowledged a success)", ghosts, forged, r.flooder.FloodAssociated())
	}
	if r.replies >= 0.10 {
		t.Errorf("replies took %.1f%% of airtime, want under 10%%", 100*r.replies)
	}
	if r.during < 0.7*r.before {
		t.Errorf("download fell from %.1f to %.1f Mbit/s", r.before, r.during)
	}
	if r.s.Stats().Unaccounted != 0 {
		t.Error("core unaccounted")
	}
}
