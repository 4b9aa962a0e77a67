package sim

import (
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/aql"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/readmetest"
	"github.com/airq/airq/radio"
)

var amsduLong = flag.Bool("amsdu.long", false, "run the A-MSDU study at full length and print its RESULT line")

// amsduRun is one arm of the A-MSDU study: a VHT80 station on channel 36
// with a saturating TCP-like download and a sparse downlink flow (100-byte
// datagrams every 50 ms) whose one-way latency is what the AP adds.
func amsduRun(t *testing.T, seed uint64, amsdu int, d time.Duration) (bps float64, sparse time.Duration, st *Station) {
	s, err := New(Config{Seed: seed, AP: ap.Config{
		Channel: 36, WMM: true, AMSDU: amsdu,
		PHY: bss.PHY{VHT: true, Width: 80, SGI20: true, SGI40: true, SGI80: true},
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
	// make norace runs the full study, whose figures the README quotes
	// (virtual time, about a second of CPU); the race pass a shorter one.
	long := *amsduLong || !raceEnabled
	d, seeds := 2*time.Second, []uint64{1}
	if long {
		d, seeds = 10*time.Second, []uint64{1, 2, 3}
	}
	whole, own := logExchange(t)
	minGain, maxDelta := 1e9, -1e9
	var without, with, less spread
	for _, seed := range seeds {
		bpsWithout, latWithout, _ := amsduRun(t, seed, 0, d)
		bpsWith, latWith, st := amsduRun(t, seed, 11424, d)
		gain := bpsWith / bpsWithout
		delta := (latWith - latWithout).Seconds() * 1000
		t.Logf("seed %d: goodput %.1f -> %.1f Mbit/s (x%.2f), sparse flow latency %v -> %v, %d A-MSDUs received",
			seed, bpsWithout/1e6, bpsWith/1e6, gain, latWithout, latWith, st.Stats().RxAMSDUs)
		minGain, maxDelta = min(minGain, gain), max(maxDelta, delta)
		without.add(bpsWithout / 1e6)
		with.add(bpsWith / 1e6)
		less.add(-delta)
		if st.Stats().RxAMSDUs == 0 || st.Stats().RxBadSubframes != 0 {
			t.Errorf("station received %d A-MSDUs, %d bad subframes", st.Stats().RxAMSDUs, st.Stats().RxBadSubframes)
		}
	}
	if *amsduLong {
		fmt.Printf("RESULT amsdu_gain=%.2f sparse_latency_delta_ms=%.2f amsdu_mbit=%.1f\n", minGain, maxDelta, with.hi)
	}
	if long {
		readmetest.Check(t, `takes (\d+) µs of airtime in all, of which (\d+) µs is the packet`, fmt.Sprint(whole), fmt.Sprintf("%.0f", own))
		readmetest.Check(t, `download\s+tops out at ([\d.]+)-([\d.]+) Mbit/s`, without.format("%.1f")...)
		readmetest.Check(t, `download goes from ([\d.]+)-([\d.]+) to ([\d.]+)-([\d.]+) Mbit/s`, append(without.format("%.1f"), with.format("%.1f")...)...)
		readmetest.Check(t, `.amsdu_gain=([\d.]+)., the lowest of three seeds`, fmt.Sprintf("%.2f", minGain))
		readmetest.Check(t, `waits ([\d.]+)-([\d.]+) ms less, not more \(.sparse_latency_delta_ms=(-?[\d.]+).`,
			append(less.format("%.2f"), fmt.Sprintf("%.2f", maxDelta))...)
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
func logExchange(t *testing.T) (whole uint32, own float64) {
	r := radio.Rate{Mode: radio.ModeVHT, MCS: 9, NSS: 1, Bandwidth: radio.BW80, ShortGI: true}
	const packet = 1500
	mpdu := 26 + 8 + packet + 4 // QoS data header, LLC/SNAP, FCS
	whole = aql.Airtime(r, ieee80211.ACBE, mpdu)
	own = float64(packet*8) / (float64(r.Kbps()) / 1000)
	t.Logf("exchange: a %d-byte packet at VHT80 MCS 9 (1 SS, short GI, %.1f Mbit/s) takes %d µs of BE airtime in all, %.0f µs of it the packet",
		packet, float64(r.Kbps())/1000, whole, own)
	return whole, own
}

// spread is the lowest and highest of a figure over the seeds.
type spread struct{ lo, hi float64 }

func (s *spread) add(v float64) {
	if *s == (spread{}) {
		s.lo, s.hi = v, v
	}
	s.lo, s.hi = min(s.lo, v), max(s.hi, v)
}

// format is the spread as the README writes it, "lo-hi", in two figures.
func (s spread) format(verb string) []string {
	return []string{fmt.Sprintf(verb, s.lo), fmt.Sprintf(verb, s.hi)}
}
