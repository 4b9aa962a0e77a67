package rate_test

import (
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rate"
	"pgregory.net/rapid"
)

func table(t *testing.T, cfg rate.Config) []rate.RateStats {
	t.Helper()
	st, err := rate.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return st.Stats()
}

func TestTableLegacyOnly(t *testing.T) {
	rows := table(t, rate.Config{Airtime: airtimeFunc(true), Width: radio.BW40, Band2GHz: true, AP: capsAP, Station: capsLegacyG})
	if len(rows) != 12 {
		t.Errorf("%d rates, want 12", len(rows))
	}
	for _, r := range rows {
		if r.Rate.Mode != radio.ModeLegacy {
			t.Errorf("legacy station got %s %s", rate.Mode(r.Rate), rate.Name(r.Rate))
		}
	}
	// 5 GHz: no CCK.
	for _, r := range table(t, rate.Config{Airtime: airtimeFunc(false), AP: capsAP, Station: capsLegacyG}) {
		if r.Rate.Legacy < 12 {
			t.Errorf("CCK on 5 GHz: %s", rate.Name(r.Rate))
		}
	}
}

func TestTableWidthAndGI(t *testing.T) {
	for _, c := range []struct {
		name  string
		width radio.Bandwidth
		sta   rate.Caps
		band2 bool
		max   radio.Bandwidth
		mode  radio.Mode
	}{
		{"ht40 station on 20 MHz", radio.BW20, capsHT2x40, true, radio.BW20, radio.ModeHT},
		{"ht40 station on 40 MHz", radio.BW40, capsHT2x40, false, radio.BW40, radio.ModeHT},
		{"ht station on 80 MHz", radio.BW80, capsHT2x40, false, radio.BW40, radio.ModeHT},
		{"vht station on 40 MHz", radio.BW40, capsVHT2, false, radio.BW40, radio.ModeVHT},
		{"vht station on 160 MHz", radio.BW160, capsVHT2, false, radio.BW80, radio.ModeVHT},
		{"vht station on 2.4 GHz", radio.BW40, capsVHT2, true, radio.BW40, radio.ModeHT},
	} {
		rows := table(t, rate.Config{Airtime: airtimeFunc(c.band2), Width: c.width, Band2GHz: c.band2, AP: capsAP, Station: c.sta})
		var widest radio.Bandwidth
		for _, r := range rows {
			widest = max(widest, r.Rate.Bandwidth)
			if r.Rate.Mode != radio.ModeLegacy && r.Rate.Mode != c.mode {
				t.Errorf("%s: %s %s", c.name, rate.Mode(r.Rate), rate.Name(r.Rate))
			}
			if r.Rate.Mode == radio.ModeVHT && r.Rate.Bandwidth == radio.BW80 && !r.Rate.ShortGI {
				t.Errorf("%s: both sides do SGI80 but %s is LGI", c.name, rate.Name(r.Rate))
			}
		}
		if widest != c.max {
			t.Errorf("%s: widest %d, want %d", c.name, widest, c.max)
		}
	}
	// SGI only when both sides support it.
	sta := capsHT1
	sta.SGI20 = false
	for _, r := range table(t, rate.Config{Airtime: airtimeFunc(true), Band2GHz: true, AP: capsAP, Station: sta}) {
		if r.Rate.ShortGI {
			t.Errorf("SGI without the station's support: %s", rate.Name(r.Rate))
		}
	}
}

func TestCapsFromElements(t *testing.T) {
	var b []byte
	b = ieee80211.AppendRates(b, ieee80211.Rates2GHz)
	b = ieee80211.AppendHTCap(b, ieee80211.HTPHY{Streams: 2, Width40: true, SGI20: true, SGI40: true, Greenfield: true, Intolerant: true}.Cap())
	b = ieee80211.AppendVHTCap(b, ieee80211.VHTPHY{Streams: 2, Width: 80, SGI80: true}.Cap())
	c := rate.CapsFromElements(ieee80211.Elements(b))
	want := rate.Caps{Legacy: 0x0fff, HT: true, Greenfield: true, HTMCS: 0xffff, HT40: true, SGI20: true, SGI40: true, VHT: true,
		VHTMap: ieee80211.VHTMap(2), SGI80: true, Intolerant40: true}
	if c != want {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	if c := rate.CapsFromElements(ieee80211.AppendRates(nil, ieee80211.Rates5GHz)); c.HT || c.Legacy != 0x0ff0 {
		t.Errorf("legacy: %+v", c)
	}
	// HE Capabilities: an Element ID Extension element, ext ID 35; a body
	// too short for its fixed fields does not count.
	he := append([]byte{ieee80211.ElemExtension, 22, ieee80211.ElemExtHECap}, make([]byte, 21)...)
	if c := rate.CapsFromElements(append(append([]byte(nil), b...), he...)); !c.HE || c.VHT != want.VHT {
		t.Errorf("with HE: %+v", c)
	}
	short := []byte{ieee80211.ElemExtension, 5, ieee80211.ElemExtHECap, 0, 0, 0, 0}
	if c := rate.CapsFromElements(append(append([]byte(nil), b...), short...)); c.HE {
		t.Errorf("truncated HE element counted: %+v", c)
	}
}

func TestMgmtRates(t *testing.T) {
	if r := rate.MgmtRate(ieee80211.Rates2GHz); r != radio.LegacyRate(1000) {
		t.Errorf("2.4 GHz: %+v", r)
	}
	if r := rate.MgmtRate(ieee80211.Rates5GHz); r != radio.LegacyRate(6000) {
		t.Errorf("5 GHz: %+v", r)
	}
	if r := rate.MgmtRate([]byte{24, 12, 0x80 | ieee80211.SelectorHTPhy}); r != radio.LegacyRate(6000) {
		t.Errorf("no basic: %+v", r)
	}
	if r := rate.MgmtRate(nil); r.Mode != radio.ModeNone {
		t.Errorf("none: %+v", r)
	}
	if r := rate.MulticastRate(ieee80211.Rates5GHz, 24000); r != radio.LegacyRate(24000) {
		t.Errorf("multicast 24: %+v", r)
	}
	if r := rate.MulticastRate(ieee80211.Rates5GHz, 54000); r != radio.LegacyRate(6000) {
		t.Errorf("multicast 54 is not basic: %+v", r)
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := rate.New(rate.Config{}); err != rate.ErrConfig {
		t.Errorf("no airtime: %v", err)
	}
	_, err := rate.New(rate.Config{Airtime: airtimeFunc(false), AP: rate.Caps{Legacy: 0x0ff0}, Station: rate.Caps{Legacy: 0x000f}})
	if err != rate.ErrNoRates {
		t.Errorf("disjoint: %v", err)
	}
}

// TestFallbackNextFrame: a frame that fails at the best rate sends the next
// one at a slower rate; the chain ends at the lowest rate.
func TestFallbackNextFrame(t *testing.T) {
	st, _ := rate.New(rate.Config{Airtime: airtimeFunc(false), Width: radio.BW40, AP: capsAP, Station: capsHT2x40, SampleShare: -1})
	now := time.Duration(0)
	// Teach it that everything works, so the best is the fastest rate.
	for range 20 {
		for _, row := range st.Stats() {
			st.Report(row.Rate, 1, true, now)
		}
		now += 60 * time.Millisecond
	}
	r, retries, _ := st.Pick(now)
	if r != st.Stats()[0].Rate || retries == 0 {
		t.Fatalf("best %s, want the fastest", rate.Name(r))
	}
	prev := r
	for range 6 {
		st.Report(prev, int(retries)+1, false, now)
		next, n, sample := st.Pick(now)
		if sample || (next.Kbps() > prev.Kbps()) {
			t.Fatalf("after a failure at %s: %s", rate.Name(prev), rate.Name(next))
		}
		prev, retries = next, n
	}
	rows := st.Stats()
	if low := rows[len(rows)-1].Rate; prev != low || retries != rate.DefaultMaxRetries {
		t.Errorf("end of chain %s retries %d, want %s", rate.Name(prev), retries, rate.Name(low))
	}
}

// TestSampleShareProperty: whatever the echoes say and however time moves,
// the samples never exceed the configured share of the frames picked.
func TestSampleShareProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		share := rapid.Float64Range(0.01, 0.2).Draw(t, "share")
		st, _ := rate.New(rate.Config{Airtime: airtimeFunc(false), Width: radio.BW80, AP: capsAP, Station: capsVHT2,
			SampleShare: share, Seed: rapid.Uint64().Draw(t, "seed")})
		limit := min(share, rate.MaxSampleShare)
		now := time.Duration(0)
		n := rapid.IntRange(1, 3000).Draw(t, "frames")
		okProb := rapid.Float64Range(0, 1).Draw(t, "ok")
		for i := range n {
			r, retries, _ := st.Pick(now)
			st.Report(r, int(retries)+1, float64(i%100)/100 < okProb, now)
			now += time.Duration(rapid.IntRange(0, 20000).Draw(t, "dt")) * time.Microsecond
			c := st.Counters()
			if float64(c.Samples) > limit*float64(c.Frames)+1e-9 {
				t.Fatalf("%d samples in %d frames, share %.3f", c.Samples, c.Frames, limit)
			}
		}
	})
}

func TestReportUnknownRate(t *testing.T) {
	st, _ := rate.New(rate.Config{Airtime: airtimeFunc(true), Band2GHz: true, AP: capsAP, Station: capsLegacyG})
	st.Report(radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW20}, 1, true, 0)
	st.Report(radio.Rate{Mode: radio.ModeVHT, MCS: 12, NSS: 1}, 1, true, 0)
	if c := st.Counters(); c.Unknown != 2 {
		t.Errorf("unknown %d", c.Unknown)
	}
}

func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race; make norace runs this test without it")
	}
	st, _ := rate.New(rate.Config{Airtime: airtimeFunc(false), Width: radio.BW80, AP: capsAP, Station: capsVHT2})
	rows := make([]rate.RateStats, 0, st.Len())
	now := time.Duration(0)
	n := testing.AllocsPerRun(1000, func() {
		r, retries, _ := st.Pick(now)
		st.Report(r, int(retries)+1, now%3 != 0, now)
		now += 700 * time.Microsecond
		rows = st.AppendStats(rows[:0])
	})
	if n != 0 {
		t.Fatalf("%v allocations per Pick/Report", n)
	}
}

func BenchmarkPickReport(b *testing.B) {
	st, _ := rate.New(rate.Config{Airtime: airtimeFunc(false), Width: radio.BW80, AP: capsAP, Station: capsVHT2})
	now := time.Duration(0)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r, retries, _ := st.Pick(now)
		st.Report(r, int(retries)+1, i%4 != 0, now)
		now += 300 * time.Microsecond
	}
}

// BenchmarkRates runs the acceptance study once per iteration and reports
// its figures as metrics.
func BenchmarkRates(b *testing.B) {
	for b.Loop() {
		s := study(b.Errorf, time.Second, 1)
		s.check(b.Errorf)
		b.ReportMetric(s.minRatio, "oracle_ratio")
		b.ReportMetric(float64(s.maxSettle), "settle_frames")
		b.ReportMetric(s.maxShare, "sample_share")
	}
}

// TestSlowStationClimbsBack: while only 1 Mbit/s gets through, the
// station falls to it and sends few frames an interval (each takes 13 ms),
// so it samples faster rates only every few intervals. Once the channel
// clears, those samples must add up and the station climb to the top rate.
func TestSlowStationClimbsBack(t *testing.T) {
	air := airtimeFunc(true)
	st, err := rate.New(rate.Config{Airtime: air, Band2GHz: true, AP: capsAP, Station: capsLegacyG})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Duration(0)
	for now < 5*time.Second {
		if now > 2*time.Second && now < 2*time.Second+20*time.Millisecond && st.Best().Kbps() != 1000 {
			t.Fatalf("the station is at %d kbit/s while only 1 Mbit/s gets through", st.Best().Kbps())
		}
		r, _, _ := st.Pick(now)
		now += time.Duration(air(r, 1538))*time.Microsecond + 2*time.Millisecond
		st.Report(r, 1, now > 2*time.Second || r.Kbps() == 1000, now)
	}
	if b := st.Best(); b.Kbps() != 54000 {
		t.Errorf("3 s after the channel cleared the best rate is %d kbit/s, want 54000", b.Kbps())
	}
}
