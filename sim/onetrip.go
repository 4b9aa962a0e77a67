package sim

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/scan"
)

// mac80211's software scan timing (net/mac80211/scan.c, HZ=1000).
const (
	kernelProbeDelay  = 30 * time.Millisecond  // IEEE80211_PROBE_DELAY: tuned to probe
	kernelChannelTime = 30 * time.Millisecond  // IEEE80211_CHANNEL_TIME: after the probe
	kernelPassiveTime = 111 * time.Millisecond // IEEE80211_PASSIVE_CHANNEL_TIME
)

// oneTrip is a software scan as mac80211 runs it for a beaconing AP (iw
// scan ap-force): the radio leaves for the whole channel list in one trip,
// with the queues stopped and beacons off, and hears nothing on the home
// channel until it is back. The core is not told: it sees its frames go
// out late and its beacons missing, as airq on such a kernel would.
type oneTrip struct {
	sim   *Sim
	chans []scan.Channel
	i     int // visit in progress
	gen   int
	start time.Duration
}

// Timer arguments of a oneTrip visit.
const (
	oneTripProbe = iota + 1
	oneTripLeave
)

// OneTripScan starts mac80211's AP scan of chans now (the home channel is
// skipped): 30 ms then a wildcard probe request and 30 ms more on each
// active channel, 111 ms on each passive one, one retune per channel, and
// home after the last. It reports false if a scan is in progress or there
// is nothing to scan. Do not use it with a core that scans itself.
func (s *Sim) OneTripScan(chans []scan.Channel) bool {
	if s.radio.scan != nil {
		return false
	}
	t := &oneTrip{sim: s, start: s.now}
	for _, c := range chans {
		if !c.Disabled && c.Freq != int(s.med.freq) {
			t.chans = append(t.chans, c)
		}
	}
	if len(t.chans) == 0 {
		return false
	}
	s.radio.scan = t
	s.beginRetune(uint16(t.chans[0].Freq), false)
	return true
}

// arrived runs when the radio is on the next channel of the list, or home.
func (t *oneTrip) arrived() {
	s := t.sim
	if s.med.nodes[0].freq == s.med.freq {
		s.radio.scan = nil
		s.sweeps = append(s.sweeps, Sweep{Start: t.start, End: s.now})
		s.release()
		return
	}
	c := t.chans[t.i]
	t.gen++
	if c.Passive {
		s.schedule(s.now+kernelPassiveTime, evTimer, t.gen<<2|oneTripLeave, nil, t)
		return
	}
	s.schedule(s.now+kernelProbeDelay, evTimer, t.gen<<2|oneTripProbe, nil, t)
}

func (t *oneTrip) fire(now time.Duration, arg int) {
	s := t.sim
	if arg>>2 != t.gen || s.radio.scan != t {
		return
	}
	switch arg & 3 {
	case oneTripProbe:
		apn := s.med.nodes[0]
		a := s.med.airOf(apn.freq)
		p := s.newPacket()
		p.b = ieee80211.AppendProbeReq(p.b[:0], s.med.bssid, "", probeRates(apn.freq), 0)
		p.own = true
		p.group, p.noAck, p.limit = true, true, 1
		p.ac, p.rate = ieee80211.ACVO, a.lowest
		p.airtime = a.exchange(p.rate, len(p.frame())+4, true)
		s.enqueue(apn, p)
		s.schedule(now+kernelChannelTime, evTimer, t.gen<<2|oneTripLeave, nil, t)
	case oneTripLeave:
		t.i++
		next := s.med.freq
		if t.i < len(t.chans) {
			next = uint16(t.chans[t.i].Freq)
		}
		s.beginRetune(next, false)
	}
}

// probeRates are the Supported Rates of a probe request or a foreign BSS on
// freq, in 500 kbit/s units, basic rates flagged.
func probeRates(freq uint16) []byte {
	if freq < 3000 {
		return rates2GHz
	}
	return rates5GHz
}

var (
	rates2GHz = []byte{0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24}
	rates5GHz = []byte{0x8c, 0x12, 0x98, 0x24, 0xb0, 0x48, 0x60, 0x6c}
)
