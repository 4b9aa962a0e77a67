package ap

import (
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/scan"
)

// acsCandidates: 2.4 GHz channels 1, 6 and 11, 5 GHz 36 and 40 (active) and
// 52 (radar: passive).
func acsCandidates() []scan.Channel {
	return []scan.Channel{{Freq: 2412}, {Freq: 2437}, {Freq: 2462}, {Freq: 5180}, {Freq: 5200}, {Freq: 5260, Passive: true}}
}

func acsConfig(sel scan.ACSConfig) Config {
	return Config{SSID: "airq-test", BSSID: bssid, WMM: true, ACS: &ACSConfig{
		Channels: acsCandidates(), Select: sel, Dwell: 50 * time.Millisecond, Runs: 2,
	}}
}

// neighbourBeacon is a beacon of another BSS heard at signal dBm.
func neighbourBeacon(freq int, bss ieee80211.MAC, signal int8) []byte {
	b := radiotap.AppendRx(nil, radio.RxInfo{Freq: uint16(freq), Signal: signal, HasSignal: true})
	b = ieee80211.AppendMgmtHeader(b, ieee80211.SubtypeBeacon, ieee80211.Broadcast, bss, bss, 1)
	b = ieee80211.AppendBeaconFixed(b, 1234, 100, 1)
	b = ieee80211.AppendSSID(b, "neighbour")
	return ieee80211.AppendDSParams(b, uint8(ieee80211.FreqToChannel(freq)))
}

// acsRun is what a drive through the start-up scan saw.
type acsRun struct {
	visits    map[int]int // retunes to each candidate before the choice
	probes    map[int]int // probe requests sent on each channel
	dwell     map[int]time.Duration
	home      int // where the radio went after the choice
	decidedAt time.Duration
	beaconsOn map[int]int // DS channel of our beacons
	firstBcn  time.Duration
}

// driveACS runs a core through its start-up scan and 1 s of beaconing. On
// each channel the radio is on, neighbours[freq] beacon once per 10 ms;
// when it leaves a channel the shell reports busy[freq] of the dwell as
// busy time (no report for channels without an entry).
func driveACS(t *testing.T, cfg Config, neighbours map[int][]int8, busy map[int]float64) (*harness, acsRun) {
	t.Helper()
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c := a.Config(); c.Channel != 0 || c.Freq != 0 {
		t.Fatalf("before the choice the configuration says channel %d (%d MHz)", c.Channel, c.Freq)
	}
	h := &harness{t: t, a: a}
	r := acsRun{visits: map[int]int{}, probes: map[int]int{}, dwell: map[int]time.Duration{}, beaconsOn: map[int]int{}}
	a.Start(0)
	h.collect()
	var arrived, heard time.Duration
	check := func() { r.check(t, h) }
	for h.now < 20*time.Second {
		if f, ok := h.takeRetune(); ok {
			if on := a.OnFreq(); a.ACSScanning() {
				if on != 0 {
					r.dwell[on] += h.now - arrived
				}
				if b, ok := busy[on]; ok {
					d := h.now - arrived
					a.ReportSurvey(on, scan.SurveyReport{Active: d, Busy: time.Duration(b * float64(d)), Noise: -95, HasNoise: true})
				}
				if _, decided := a.ACSDecision(); decided {
					r.home, r.decidedAt = f, h.now
				} else if f != on {
					r.visits[f]++
				}
			}
			h.now += time.Millisecond
			a.Retuned(h.now)
			h.collect()
			arrived, heard = h.now, h.now
			check()
			continue
		}
		next := a.Deadline()
		if a.ACSScanning() {
			// Neighbours beacon while the radio listens.
			for heard+10*time.Millisecond < next {
				heard += 10 * time.Millisecond
				h.now = heard
				for i, sig := range neighbours[a.OnFreq()] {
					other := ieee80211.MAC{0x02, 0xbb, 0, byte(a.OnFreq() >> 8), byte(a.OnFreq()), byte(i)}
					a.HandleRadio(h.now, neighbourBeacon(a.OnFreq(), other, sig))
				}
			}
		}
		if next < h.now {
			next = h.now
		}
		h.advance(next - h.now)
		check()
		if r.home != 0 && h.now > r.decidedAt+time.Second {
			break
		}
	}
	return h, r
}

func (r *acsRun) check(t *testing.T, h *harness) {
	a := h.a
	out, _ := h.take()
	for _, b := range out {
		_, fr := parsed(t, b)
		switch {
		case fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeReq):
			if !a.ACSScanning() {
				if a.cfg.Scan == nil {
					t.Error("probe request after the choice")
				}
				continue
			}
			r.probes[a.OnFreq()]++
		case fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon):
			if a.ACSScanning() || r.home == 0 || a.OnFreq() != r.home {
				t.Fatalf("beacon at %v on %d MHz before the choice took effect", h.now, a.OnFreq())
			}
			bc, err := ieee80211.ParseBeacon(fr.Body())
			if err != nil {
				t.Fatal(err)
			}
			ds, _ := bc.Elements().Find(ieee80211.ElemDSParams)
			if len(ds) == 1 {
				r.beaconsOn[int(ds[0])]++
			}
			if r.firstBcn == 0 {
				r.firstBcn = h.now
			}
		default:
			t.Errorf("frame type %d subtype %d sent", fr.Type(), fr.Subtype())
		}
	}
}

// TestACSPicksTheQuietChannel drives a core through start-up selection
// without survey figures: every candidate is visited each run, probes go
// out only on active channels, neighbours are recorded, the channel with
// the fewest and weakest neighbours wins (a passive channel never does),
// and beacons start only then, on that channel.
func TestACSPicksTheQuietChannel(t *testing.T) {
	neighbours := map[int][]int8{
		2412: {-45, -50, -55}, // channel 1: crowded
		2437: {-50, -60},      // channel 6
		2462: {-85},           // channel 11: one faint neighbour
		5180: {-40, -40},      // 36
		5200: {-50},           // 40
		5260: nil,             // 52: empty, but radar
	}
	h, r := driveACS(t, acsConfig(scan.ACSConfig{NoBias: true}), neighbours, nil)
	a := h.a
	for _, c := range acsCandidates() {
		if r.visits[c.Freq] != 2 {
			t.Errorf("%d MHz visited %d times, want 2 (one per run)", c.Freq, r.visits[c.Freq])
		}
		if r.dwell[c.Freq] < 2*50*time.Millisecond {
			t.Errorf("%d MHz listened %v, want 2 × 50 ms", c.Freq, r.dwell[c.Freq])
		}
		switch {
		case c.Passive && r.probes[c.Freq] != 0:
			t.Errorf("%d probe requests on passive %d MHz", r.probes[c.Freq], c.Freq)
		case !c.Passive && r.probes[c.Freq] != 2:
			t.Errorf("%d probe requests on %d MHz, want one per visit", r.probes[c.Freq], c.Freq)
		}
	}
	d, ok := a.ACSDecision()
	if !ok {
		t.Fatal("no decision")
	}
	t.Logf("%s", scan.AppendDecision(nil, &d))
	if d.Channel != 11 || d.Freq != 2462 || d.Method != "bss" || r.home != 2462 {
		t.Fatalf("chose channel %d (%d MHz, %s), retuned to %d; want 11", d.Channel, d.Freq, d.Method, r.home)
	}
	for _, s := range d.Channels {
		want := len(neighbours[s.Freq])
		if s.Neighbours != want {
			t.Errorf("%d MHz: %d neighbours recorded, want %d", s.Freq, s.Neighbours, want)
		}
		if s.Freq == 5260 && s.Candidate {
			t.Error("the radar channel was a candidate")
		}
	}
	c := a.Config()
	if c.Channel != 11 || c.Freq != 2462 || c.Rates[0] != 1000 {
		t.Errorf("configuration after the choice: channel %d, %d MHz, rates %v", c.Channel, c.Freq, c.Rates)
	}
	if r.beaconsOn[11] < 9 || len(r.beaconsOn) != 1 {
		t.Errorf("beacons by DS channel %v, want about 10 on channel 11 only", r.beaconsOn)
	}
	if r.firstBcn < r.decidedAt || a.TSF(r.firstBcn) > 2000 {
		t.Errorf("first beacon at %v (TSF %d), choice at %v", r.firstBcn, a.TSF(r.firstBcn), r.decidedAt)
	}
	if a.ACSTook() < 12*50*time.Millisecond {
		t.Errorf("the scan took %v", a.ACSTook())
	}
	// The BSS works on the chosen channel: a station associates.
	h.join(staMAC, true)
}

// TestACSSurveyDecides has the shell report survey figures: a channel
// without neighbours but busy most of the time loses to a quiet one, the
// bias options apply, and a configured width takes a span of candidates.
func TestACSSurveyDecides(t *testing.T) {
	neighbours := map[int][]int8{2412: {-50, -50, -50}, 5200: {-80}}
	busy := map[int]float64{2412: 0.1, 2437: 0.5, 2462: 0.9, 5180: 0.05, 5200: 0.05, 5260: 0.0}
	cases := []struct {
		name string
		sel  scan.ACSConfig
		phy  bss.PHY
		want int
	}{
		{"default", scan.ACSConfig{}, bss.PHY{}, 36},
		// A strong bias for channel 1 (below 1 prefers it) outweighs its
		// neighbours.
		{"bias", scan.ACSConfig{Bias: []scan.Bias{{Channel: 1, Factor: 0.1}}}, bss.PHY{}, 1},
		// 40 MHz: 36+40 is the only span of active candidates.
		{"ht40", scan.ACSConfig{}, bss.PHY{HT: true, Width: 40}, 36},
		// 11 is the busiest channel: a bias cannot rescue it against 36.
		{"no-rescue", scan.ACSConfig{Bias: []scan.Bias{{Channel: 11, Factor: 0.5}}}, bss.PHY{}, 36},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := acsConfig(tc.sel)
			cfg.PHY = tc.phy
			h, r := driveACS(t, cfg, neighbours, busy)
			d, _ := h.a.ACSDecision()
			if d.Method != "survey" || d.Channel != tc.want || ieee80211.FreqToChannel(r.home) != tc.want {
				t.Fatalf("chose %d by %s (home %d MHz), want %d\n%s", d.Channel, d.Method, r.home, tc.want, scan.AppendDecision(nil, &d))
			}
			c := h.a.Config()
			if tc.phy.Width == 40 && (c.PHY.Secondary != 1 || c.CenterFreq() != 5190) {
				t.Errorf("40 MHz: secondary %d, centre %d MHz", c.PHY.Secondary, c.CenterFreq())
			}
			if c.Freq > 5000 && c.Rates[0] != 6000 {
				t.Errorf("5 GHz rates %v", c.Rates)
			}
			if r.beaconsOn[tc.want] == 0 {
				t.Errorf("no beacon on channel %d: %v", tc.want, r.beaconsOn)
			}
		})
	}
}

// TestACSConfig checks what a configuration with automatic selection must
// hold, and that background scanning starts after the choice with the
// chosen channel as home.
func TestACSConfig(t *testing.T) {
	bad := []struct {
		mod  func(*Config)
		want string
	}{
		{func(c *Config) { c.ACS.Channels = []scan.Channel{{Freq: 5260, Passive: true}} }, "allows beaconing"},
		{func(c *Config) { c.ACS.Runs = 1000 }, "acs_num_scans"},
		{func(c *Config) { c.ACS.Dwell = time.Millisecond }, "acs dwell"},
		{func(c *Config) { c.PHY = bss.PHY{HT: true, VHT: true, Width: 160} }, "160"},
		{func(c *Config) {
			c.PHY = bss.PHY{HT: true, VHT: true, Width: 80}
			c.ACS.Channels = c.ACS.Channels[:3]
		}, "80 MHz"},
		{func(c *Config) { c.SSID = "" }, "ssid"},
	}
	for _, b := range bad {
		cfg := acsConfig(scan.ACSConfig{})
		b.mod(&cfg)
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("error %v, want one naming %q", err, b.want)
		}
	}
	if _, err := New(Config{SSID: "x", BSSID: bssid}); err == nil {
		t.Error("channel 0 without ACS accepted")
	}

	cfg := acsConfig(scan.ACSConfig{NoBias: true})
	cfg.Scan = &ScanConfig{Planner: scan.Config{Channels: acsCandidates(), Retune: time.Millisecond}}
	h, r := driveACS(t, cfg, map[int][]int8{2412: {-50}, 2437: {-50}, 5180: {-50}, 5200: {-50}}, nil)
	if r.home != 2462 {
		t.Fatalf("home %d", r.home)
	}
	// Trips start after the choice and never visit home; the table holds
	// what the start-up scan heard.
	st := h.a.ScanStats()
	if st.Planner.Trips == 0 {
		t.Fatalf("no background trip after the choice: %+v", st)
	}
	if got := len(h.a.ScanResults(nil, h.now)); got != 4 {
		t.Errorf("%d BSSs in the table, want the 4 heard at start-up", got)
	}
	for _, s := range h.a.Surveys(nil, h.now) {
		if s.InUse != (s.Freq == 2462) {
			t.Errorf("survey %d MHz in use %v", s.Freq, s.InUse)
		}
	}
}
