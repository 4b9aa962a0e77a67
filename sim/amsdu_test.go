package sim

import (
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/aql"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

var amsduLong = flag.Bool("amsdu.long", false, "run the A-MSDU study at full length and print its RESULT line")

// amsduRun is one arm of the A-MSDU study: a VHT80 station on channel 36
// with a saturating TCP-like download and a sparse downlink flow (100-byte
// datagrams every 50 ms) whose one-way latency is what the AP adds.
func amsduRun(t *testing.T, seed uint64, amsdu int, d time.Duration) (bps float64, sparse time.Duration, st *Station) {
	s, err := New(Config{Seed: seed, AP: ap.Config{
		Channel: 36, WMM: true, AMSDU: amsdu,
		PHY: ap.PHY{VHT: true, Width: 80, SGI20: true, SGI40: true, SGI80: true},
	}})
	if err != nil {
		t.Fatal(err)
	}
	h := s.AddHost(HostConfig{})
	st = s.AddStation(StationConfig{VHT: true})
	for s.Now() < 2*time.Second && !st.Associated() {
		s.Run(10 * time.Millisecond)
	}
	if !st.Associated() {
		t.Fatal("station did not associate")
	}
	bulk := s.Bulk(h, st, BulkConfig{MaxWindow: 512})
	s.Run(time.Second) // slow start and rate control settle
	flow := s.UDP(h, st, UDPConfig{Size: 100, Interval: 50 * time.Millisecond})
	start, delivered := s.Now(), bulk.Stats().Delivered
	s.Run(d)
	flow.Stop()
	elapsed := s.Now() - start
	fs := flow.Stats()
	if fs.Received == 0 || s.Stats().Unaccounted != 0 {
		t.Fatalf("sparse flow %+v, unaccounted %d", fs, s.Stats().Unaccounted)
	}
	return float64(bulk.Stats().Delivered-delivered) * 8 / elapsed.Seconds(), fs.LatencySum / time.Duration(fs.Received), st
}

// TestAMSDUStudy: on VHT80 (rate control settles near MCS 9), packing MSDUs
// into A-MSDUs must at least double a saturated station's goodput, and a
// sparse flow sharing the station must not wait more than 2 ms longer.
// With -amsdu.long it runs longer, over three seeds, and prints the RESULT
// line `make bench-amsdu` reports.
func TestAMSDUStudy(t *testing.T) {
	d, seeds := 2*time.Second, []uint64{1}
	if *amsduLong {
		d, seeds = 10*time.Second, []uint64{1, 2, 3}
	}
	logExchange(t)
	minGain, maxDelta := 1e9, -1e9
	for _, seed := range seeds {
		without, latWithout, _ := amsduRun(t, seed, 0, d)
		with, latWith, st := amsduRun(t, seed, 11424, d)
		gain := with / without
		delta := (latWith - latWithout).Seconds() * 1000
		t.Logf("seed %d: goodput %.1f -> %.1f Mbit/s (x%.2f), sparse flow latency %v -> %v, %d A-MSDUs received",
			seed, without/1e6, with/1e6, gain, latWithout, latWith, st.Stats().RxAMSDUs)
		minGain, maxDelta = min(minGain, gain), max(maxDelta, delta)
		if st.Stats().RxAMSDUs == 0 || st.Stats().RxBadSubframes != 0 {
			t.Errorf("station received %d A-MSDUs, %d bad subframes", st.Stats().RxAMSDUs, st.Stats().RxBadSubframes)
		}
	}
	if *amsduLong {
		fmt.Printf("RESULT amsdu_gain=%.2f sparse_latency_delta_ms=%.2f\n", minGain, maxDelta)
	}
	if minGain < 2 {
		t.Errorf("A-MSDU gain x%.2f, want at least x2", minGain)
	}
	if maxDelta > 2 {
		t.Errorf("sparse flow waits %.2f ms longer with A-MSDUs, want at most 2", maxDelta)
	}
}

// logExchange prints what one frame costs without aggregation at the rate
// the study settles at: the whole exchange (AIFS, mean backoff, preamble,
// the frame, SIFS, ACK) against the time the packet itself takes.
func logExchange(t *testing.T) {
	r := radio.Rate{Mode: radio.ModeVHT, MCS: 9, NSS: 1, Bandwidth: radio.BW80, ShortGI: true}
	const packet = 1500
	mpdu := 26 + 8 + packet + 4 // QoS data header, LLC/SNAP, FCS
	whole := aql.Airtime(r, ieee80211.ACBE, mpdu)
	own := float64(packet*8) / (float64(r.Kbps()) / 1000)
	t.Logf("exchange: a %d-byte packet at VHT80 MCS 9 (1 SS, short GI, %.1f Mbit/s) takes %d µs of BE airtime in all, %.0f µs of it the packet",
		packet, float64(r.Kbps())/1000, whole, own)
}
