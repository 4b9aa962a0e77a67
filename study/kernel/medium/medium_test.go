package medium

import (
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/study/kernel/hwsimnl"
)

var (
	apHW   = ieee80211.MAC{0x42, 0, 0, 0, 0, 0}
	apIf   = ieee80211.MAC{0x02, 0, 0, 0, 0, 0}
	staHW  = ieee80211.MAC{0x42, 0, 0, 0, 1, 0}
	staIf  = ieee80211.MAC{0x02, 0, 0, 0, 1, 0}
	vht3   = hwsimnl.TxRate{Idx: 0x03, Count: 2, Flags: hwsimnl.RateVHTMCS | hwsimnl.Rate80MHz | hwsimnl.RateShortGI}
	vht7   = hwsimnl.TxRate{Idx: 0x07, Count: 2, Flags: hwsimnl.RateVHTMCS | hwsimnl.Rate80MHz | hwsimnl.RateShortGI}
	noRate = hwsimnl.TxRate{Idx: -1}
)

func TestRate(t *testing.T) {
	cases := []struct {
		in   hwsimnl.TxRate
		freq uint32
		want radio.Rate
		ok   bool
	}{
		{vht3, 5180, radio.Rate{Mode: radio.ModeVHT, MCS: 3, NSS: 1, Bandwidth: radio.BW80, ShortGI: true}, true},
		{hwsimnl.TxRate{Idx: 0x13, Flags: hwsimnl.RateVHTMCS}, 5180, radio.Rate{Mode: radio.ModeVHT, MCS: 3, NSS: 2, Bandwidth: radio.BW20}, true},
		{hwsimnl.TxRate{Idx: 0x0b, Flags: hwsimnl.RateVHTMCS}, 5180, radio.Rate{Mode: radio.ModeVHT, MCS: 11, NSS: 1, Bandwidth: radio.BW20}, false},
		{hwsimnl.TxRate{Idx: 15, Flags: hwsimnl.RateMCS | hwsimnl.Rate40MHz}, 2412, radio.Rate{Mode: radio.ModeHT, MCS: 15, Bandwidth: radio.BW40}, true},
		{hwsimnl.TxRate{Idx: 4}, 5180, radio.Rate{Mode: radio.ModeLegacy, Legacy: 48, Bandwidth: radio.BW20}, true},
		{hwsimnl.TxRate{Idx: 3, Flags: hwsimnl.RateShortPre}, 2412, radio.Rate{Mode: radio.ModeLegacy, Legacy: 22, Bandwidth: radio.BW20, ShortPre: true}, true},
		{hwsimnl.TxRate{Idx: 8}, 5180, radio.Rate{}, false},
		{noRate, 5180, radio.Rate{}, false},
	}
	for _, c := range cases {
		got, ok := Rate(c.in, c.freq)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("Rate(%+v, %d) = %+v, %v; want %+v, %v", c.in, c.freq, got, ok, c.want, c.ok)
		}
	}
}

func TestLinkDecodes(t *testing.T) {
	l := Link{MaxNSS: 1, MaxMCS: 3, MaxLegacyKbps: 24000}
	cases := []struct {
		r    radio.Rate
		want bool
	}{
		{radio.Rate{Mode: radio.ModeVHT, MCS: 3, NSS: 1}, true},
		{radio.Rate{Mode: radio.ModeVHT, MCS: 4, NSS: 1}, false},
		{radio.Rate{Mode: radio.ModeVHT, MCS: 0, NSS: 2}, false},
		{radio.Rate{Mode: radio.ModeHT, MCS: 3}, true},
		{radio.Rate{Mode: radio.ModeHT, MCS: 8}, false}, // two streams
		{radio.LegacyRate(24000), true},
		{radio.LegacyRate(36000), false},
	}
	for _, c := range cases {
		if got := l.Decodes(c.r); got != c.want {
			t.Errorf("Decodes(%+v) = %v", c.r, got)
		}
	}
}

// qosData is a QoS data frame from -> to of n octets (no FCS), TID 0.
func qosData(to, from ieee80211.MAC, n int) []byte {
	b := make([]byte, n)
	b[0], b[1] = 0x88, 0x02 // QoS data, from DS
	copy(b[4:], to[:])
	copy(b[10:], from[:])
	copy(b[16:], from[:])
	return b
}

type seen struct {
	at     time.Duration
	status bool
	to     ieee80211.MAC
	info   hwsimnl.TxInfo
}

type sink struct {
	now time.Duration
	evs []seen
}

func (s *sink) Deliver(rx ieee80211.MAC, _ []byte, _, _ uint32, _ int32) {
	s.evs = append(s.evs, seen{at: s.now, to: rx})
}

func (s *sink) Status(t *hwsimnl.TxInfo) {
	s.evs = append(s.evs, seen{at: s.now, status: true, info: *t})
}

// drain runs m to the end, event time by event time.
func drain(m *Medium, s *sink) {
	for {
		at, ok := m.Next()
		if !ok {
			return
		}
		s.now = at
		m.Run(at, s)
	}
}

func newMedium(t *testing.T) *Medium {
	t.Helper()
	m, err := New(Config{Link: Link{MaxNSS: 1, MaxMCS: 3, MaxLegacyKbps: 24000}, MaxSubframes: 64, MaxPPDU: 4000, Signal: -50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	m.AddRadio(apHW, apIf)
	m.AddRadio(staHW, staIf)
	return m
}

func submit(m *Medium, at time.Duration, from ieee80211.MAC, cookie uint64, data []byte, r0, r1 hwsimnl.TxRate) {
	m.Submit(at, &hwsimnl.Frame{Transmitter: from, Data: data, Flags: hwsimnl.TxCtlReqTxStatus, Freq: 5180,
		Rates: [hwsimnl.MaxRates]hwsimnl.TxRate{r0, r1, noRate, noRate}, Cookie: cookie})
}

// TestAMPDUTiming: three frames queued together go out as one A-MPDU:
// delivered at the end of the PPDU aql's estimator gives, acknowledged
// SIFS + BlockAck later, after AIFS and 0-15 slots of backoff.
func TestAMPDUTiming(t *testing.T) {
	m := newMedium(t)
	for i := range 3 {
		submit(m, 0, apHW, uint64(i+1), qosData(staIf, apIf, 1534), vht3, noRate)
	}
	s := &sink{}
	drain(m, s)
	if len(s.evs) != 6 {
		t.Fatalf("%d events, want 3 deliveries and 3 statuses: %+v", len(s.evs), s.evs)
	}
	r, _ := Rate(vht3, 5180)
	data, resp := m.b5.ppdu(r, ieee80211.ACBE, []int{1538, 1538, 1538})
	b := m.b5
	start := s.evs[0].at - us(data)
	if lo, hi := us(b.aifs[ieee80211.ACBE]), us(b.aifs[ieee80211.ACBE]+15*b.slot); start < lo || start > hi || (start-lo)%us(b.slot) != 0 {
		t.Fatalf("PPDU starts at %v, want AIFS + whole slots in [%v, %v]", start, lo, hi)
	}
	for i, e := range s.evs {
		if i < 3 && (e.status || e.to != staHW || e.at != start+us(data)) {
			t.Fatalf("event %d %+v: want delivery to the station at %v", i, e, start+us(data))
		}
		if i >= 3 && (e.info.Flags&hwsimnl.TxStatBatchEnd != 0) != (i == 5) {
			t.Fatalf("event %d %+v: only the last status ends the batch", i, e)
		}
		if i >= 3 && (!e.status || e.at != start+us(data+resp) || e.info.Flags&hwsimnl.TxStatAck == 0 ||
			e.info.Rates[0] != (hwsimnl.TxRate{Idx: 3, Count: 1, Flags: vht3.Flags}) || e.info.Rates[1].Idx != -1 || e.info.Cookie != uint64(i-2)) {
			t.Fatalf("event %d %+v: want the ACKed status of cookie %d at %v", i, e, i-2, start+us(data+resp))
		}
	}
	if st := m.Stats(); st.AMPDUs != 1 || st.AggFrames != 3 || st.Busy != us(data+resp) {
		t.Fatalf("stats %+v", st)
	}
	// BlockAck at 24 Mbit/s after a VHT MCS 3 A-MPDU: 32 octets = 32 µs, plus SIFS
	if resp != 16+32 {
		t.Fatalf("SIFS + BlockAck = %d µs, want 48", resp)
	}
}

// TestRetryChain: the first rate is above the link, so its two attempts
// fail and the second rate's first attempt gets through.
func TestRetryChain(t *testing.T) {
	m := newMedium(t)
	submit(m, 0, apHW, 9, qosData(staIf, apIf, 200), vht7, vht3)
	s := &sink{}
	drain(m, s)
	st := s.evs[len(s.evs)-1]
	if !st.status || st.info.Flags&hwsimnl.TxStatAck == 0 ||
		st.info.Rates[0].Count != 2 || st.info.Rates[1].Count != 1 || st.info.Rates[2].Idx != -1 {
		t.Fatalf("status %+v", st)
	}
	if got := m.Stats(); got.Attempts != 3 || got.FailedAttempts != 2 || got.Unacked != 0 {
		t.Fatalf("stats %+v", got)
	}
}

// TestNoReceiver: nobody owns addr1, so every attempt fails and nothing
// is delivered.
func TestNoReceiver(t *testing.T) {
	m := newMedium(t)
	submit(m, 0, apHW, 1, qosData(ieee80211.MAC{2, 9, 9, 9, 9, 9}, apIf, 200), vht3, vht3)
	s := &sink{}
	drain(m, s)
	if len(s.evs) != 1 || !s.evs[0].status || s.evs[0].info.Flags&hwsimnl.TxStatAck != 0 ||
		s.evs[0].info.Rates[0].Count != 2 || s.evs[0].info.Rates[1].Count != 2 {
		t.Fatalf("events %+v", s.evs)
	}
	if m.Stats().Unacked != 1 {
		t.Fatalf("stats %+v", m.Stats())
	}
}

// TestGroupAddressed: a broadcast goes to every other radio once, without
// an ACK.
func TestGroupAddressed(t *testing.T) {
	m := newMedium(t)
	b := qosData(ieee80211.Broadcast, apIf, 100)
	m.Submit(0, &hwsimnl.Frame{Transmitter: apHW, Data: b, Flags: hwsimnl.TxCtlNoAck, Freq: 5180,
		Rates: [hwsimnl.MaxRates]hwsimnl.TxRate{{Idx: 0, Count: 4}, noRate, noRate, noRate}, Cookie: 5})
	s := &sink{}
	drain(m, s)
	if len(s.evs) != 2 || s.evs[0].to != staHW || !s.evs[1].status ||
		s.evs[1].info.Flags != hwsimnl.TxCtlNoAck|hwsimnl.TxStatBatchEnd || s.evs[1].info.Rates[0].Count != 1 {
		t.Fatalf("events %+v", s.evs)
	}
}

// TestNoOverlap: with both radios backlogged, exchanges follow each other
// on the channel and never overlap; the station's frames are not starved.
func TestNoOverlap(t *testing.T) {
	m := newMedium(t)
	for i := range 40 {
		submit(m, 0, apHW, uint64(i), qosData(staIf, apIf, 1534), vht3, noRate)
		submit(m, 0, staHW, uint64(i), qosData(apIf, staIf, 100), vht3, noRate)
	}
	s := &sink{}
	drain(m, s)
	var lastEnd time.Duration
	staDone := 0
	for _, e := range s.evs {
		if !e.status {
			continue
		}
		if e.at < lastEnd {
			t.Fatalf("status at %v before the previous exchange ended at %v", e.at, lastEnd)
		}
		lastEnd = e.at
		if e.info.Transmitter == staHW {
			staDone++
		}
	}
	if staDone != 40 || m.Stats().PPDUs < 2 {
		t.Fatalf("station frames done %d, stats %+v", staDone, m.Stats())
	}
}

// TestMaxPPDU: at VHT MCS 0 20 MHz an A-MPDU of 1538-octet MPDUs reaches
// 4 ms after a few subframes.
func TestMaxPPDU(t *testing.T) {
	m := newMedium(t)
	slow := hwsimnl.TxRate{Idx: 0, Count: 1, Flags: hwsimnl.RateVHTMCS}
	for i := range 20 {
		submit(m, 0, apHW, uint64(i), qosData(staIf, apIf, 1534), slow, noRate)
	}
	s := &sink{}
	drain(m, s)
	st := m.Stats()
	r, _ := Rate(slow, 5180)
	for n := 1; ; n++ {
		lens := make([]int, n+1)
		for i := range lens {
			lens[i] = 1538
		}
		if d, _ := m.b5.ppdu(r, ieee80211.ACBE, lens); d > 4000 {
			if st.AggFrames/st.AMPDUs != uint64(n) {
				t.Fatalf("%d MPDUs per A-MPDU, want %d (the most within 4 ms)", st.AggFrames/st.AMPDUs, n)
			}
			return
		}
	}
}

// TestDriverDrop: at 200 frames without a status hwsim frees the oldest
// down to 99; the medium forgets them too.
func TestDriverDrop(t *testing.T) {
	m := newMedium(t)
	m.radio(apHW).q[ieee80211.ACBE].frames = nil
	c := m.channel(5180)
	c.busy = true // hold the air so that nothing completes
	for i := range 201 {
		submit(m, 0, apHW, uint64(i), qosData(staIf, apIf, 100), vht3, noRate)
	}
	if got := m.Stats(); got.DriverDropped != 101 || m.radio(apHW).outstanding != 100 || got.MaxOutstanding != 200 {
		t.Fatalf("dropped %d outstanding %d max %d", got.DriverDropped, m.radio(apHW).outstanding, got.MaxOutstanding)
	}
	c.busy = false
	m.schedule(0, c)
	s := &sink{}
	drain(m, s)
	n := 0
	for _, e := range s.evs {
		if e.status {
			if e.info.Cookie < 101 {
				t.Fatalf("status for dropped frame %d", e.info.Cookie)
			}
			n++
		}
	}
	if n != 100 {
		t.Fatalf("%d statuses, want 100", n)
	}
}

func TestConfig(t *testing.T) {
	if _, err := New(Config{MaxSubframes: 65, MaxPPDU: 1}); err != ErrConfig {
		t.Fatalf("err = %v", err)
	}
}
