package sim

import (
	"fmt"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// ForeignBSSConfig describes another BSS on some channel: a beacon
// generator that answers probe requests, for the AP's scanning to find.
type ForeignBSSConfig struct {
	Freq  int           // MHz; required
	BSSID ieee80211.MAC // default 02:00:00:00:30:NN
	SSID  string        // default "foreign-NN"
	// BeaconInterval defaults to 100 TU (102.4 ms).
	BeaconInterval time.Duration
	// Phase is when the first TBTT falls after virtual time 0, in
	// [0, BeaconInterval). Zero draws it from the seed; for a phase of
	// exactly zero pass BeaconInterval.
	Phase time.Duration
	// Passive BSSs never answer probe requests. Active ones answer a
	// wildcard or matching probe request heard on their channel after
	// ResponseDelay; responses to broadcast wildcard probes go without
	// waiting for an ACK, as hostapd sends them.
	Passive bool
	// ResponseDelay defaults to a draw in [0.5, 2.5) ms per BSS.
	ResponseDelay time.Duration
	Signal        int8 // dBm as the AP hears it; default -70
	// HT makes the BSS announce HT Capabilities and Operation: a 40 MHz
	// BSS with its secondary channel above (Secondary 1) or below (-1), a
	// 20 MHz one with Secondary 0. Intolerant40 sets 40 MHz Intolerant
	// in its HT Capabilities. Without HT the BSS is legacy.
	HT           bool
	Secondary    int
	Intolerant40 bool
}

// ForeignBSSStats are a foreign BSS's counters.
type ForeignBSSStats struct {
	Beacons      uint64 // sent
	ProbesHeard  uint64 // probe requests it heard (answered or not)
	ProbeResps   uint64 // sent
	ProbeRespsOK uint64 // of ProbeResps, delivered to the AP
	HeardByAP    uint64 // frames the AP's radio received
}

// ForeignBSS is another BSS on the air.
type ForeignBSS struct {
	sim     *Sim
	cfg     ForeignBSSConfig
	node    *node
	seq     uint16
	tbtt    time.Duration
	pending []probeReq      // requesters waiting for a probe response
	heard   []time.Duration // when the AP's radio received its frames
	stats   ForeignBSSStats
}

// probeReq is a probe request waiting for its answer.
type probeReq struct {
	from     ieee80211.MAC
	wildcard bool
}

// Timer arguments of a foreign BSS.
const (
	foreignBeacon = iota
	foreignRespond
)

// AddForeignBSS puts another BSS on the air of cfg.Freq; it beacons from
// its first TBTT on.
func (s *Sim) AddForeignBSS(cfg ForeignBSSConfig) *ForeignBSS {
	n := len(s.foreign) + 1
	if cfg.BSSID.IsZero() {
		cfg.BSSID = ieee80211.MAC{0x02, 0, 0, 0, 0x30 + byte(n>>8), byte(n)}
	}
	if cfg.SSID == "" {
		cfg.SSID = fmt.Sprintf("foreign-%02d", n)
	}
	if cfg.BeaconInterval == 0 {
		cfg.BeaconInterval = 100 * 1024 * time.Microsecond
	}
	if cfg.Phase == 0 {
		cfg.Phase = time.Duration(s.rng.Int64N(int64(cfg.BeaconInterval/time.Microsecond))) * time.Microsecond
	}
	cfg.Phase %= cfg.BeaconInterval
	if cfg.ResponseDelay == 0 {
		cfg.ResponseDelay = 500*time.Microsecond + time.Duration(s.rng.Int64N(2000))*time.Microsecond
	}
	if cfg.Signal == 0 {
		cfg.Signal = -70
	}
	b := &ForeignBSS{sim: s, cfg: cfg}
	b.node = s.med.newNode(nil)
	b.node.bss, b.node.freq = b, uint16(cfg.Freq)
	for i := range b.node.ac {
		b.node.ac[i].limit = s.cfg.Medium.StationQueue
	}
	s.med.nodes = append(s.med.nodes, b.node)
	s.foreign = append(s.foreign, b)
	b.tbtt = cfg.Phase
	for b.tbtt < s.now {
		b.tbtt += cfg.BeaconInterval
	}
	s.schedule(b.tbtt, evTimer, foreignBeacon, nil, b)
	return b
}

// ForeignBSSs returns the foreign BSSs in the order they were added.
func (s *Sim) ForeignBSSs() []*ForeignBSS { return s.foreign }

// Config returns the BSS's configuration, defaults filled in.
func (b *ForeignBSS) Config() ForeignBSSConfig { return b.cfg }

// Stats returns the BSS's counters.
func (b *ForeignBSS) Stats() ForeignBSSStats { return b.stats }

// HeardBetween reports whether the AP's radio received a frame of the BSS
// in [from, to].
func (b *ForeignBSS) HeardBetween(from, to time.Duration) bool {
	for _, t := range b.heard {
		if t >= from && t <= to {
			return true
		}
	}
	return false
}

func (b *ForeignBSS) fire(now time.Duration, arg int) {
	switch arg {
	case foreignBeacon:
		b.sendBeacon(now)
		b.tbtt += b.cfg.BeaconInterval
		b.sim.schedule(b.tbtt, evTimer, foreignBeacon, nil, b)
	case foreignRespond:
		if len(b.pending) > 0 {
			r := b.pending[0]
			b.pending = append(b.pending[:0], b.pending[1:]...)
			b.sendProbeResp(now, r)
		}
	}
}

func (b *ForeignBSS) nextSeq() uint16 {
	s := b.seq
	b.seq = (s + 1) & 0xfff
	return s
}

// appendBody appends the body of a beacon or probe response.
func (b *ForeignBSS) appendBody(dst []byte, now time.Duration) []byte {
	freq := uint16(b.cfg.Freq)
	dst = ieee80211.AppendBeaconFixed(dst, uint64(now/time.Microsecond), uint16(b.cfg.BeaconInterval/(1024*time.Microsecond)),
		ieee80211.CapESS|ieee80211.CapShortSlotTime)
	dst = ieee80211.AppendSSID(dst, b.cfg.SSID)
	dst = ieee80211.AppendRates(dst, probeRates(freq))
	ch := uint8(ieee80211.FreqToChannel(b.cfg.Freq))
	if freq < 3000 {
		dst = ieee80211.AppendDSParams(dst, ch)
	}
	if b.cfg.HT {
		sec := uint8(ieee80211.HTOperSecondaryNone)
		switch b.cfg.Secondary {
		case 1:
			sec = ieee80211.HTOperSecondaryAbove
		case -1:
			sec = ieee80211.HTOperSecondaryBelow
		}
		p := ieee80211.HTPHY{Streams: 1, Width40: sec != ieee80211.HTOperSecondaryNone, Intolerant: b.cfg.Intolerant40}
		dst = ieee80211.AppendHTCap(dst, p.Cap())
		dst = ieee80211.AppendHTOper(dst, ieee80211.NewHTOper(ch, sec))
	}
	return dst
}

func (b *ForeignBSS) sendBeacon(now time.Duration) {
	s := b.sim
	p := s.newPacket()
	p.b = ieee80211.AppendMgmtHeader(p.b[:0], ieee80211.SubtypeBeacon, ieee80211.Broadcast, b.cfg.BSSID, b.cfg.BSSID, b.nextSeq())
	p.b = b.appendBody(p.b, now)
	if s.sendFrom(b.node, p, ieee80211.ACVO, s.med.airOf(b.node.freq).lowest) {
		b.stats.Beacons++
	}
}

func (b *ForeignBSS) sendProbeResp(now time.Duration, r probeReq) {
	s := b.sim
	p := s.newPacket()
	p.b = ieee80211.AppendMgmtHeader(p.b[:0], ieee80211.SubtypeProbeResp, r.from, b.cfg.BSSID, b.cfg.BSSID, b.nextSeq())
	p.b = b.appendBody(p.b, now)
	p.noAck = r.wildcard
	if s.sendFrom(b.node, p, ieee80211.ACVO, s.med.airOf(b.node.freq).lowest) {
		b.stats.ProbeResps++
	}
}

// hear takes a group frame on the BSS's channel: a probe request for it
// is answered after the response delay.
func (b *ForeignBSS) hear(fr ieee80211.Frame) {
	if !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeReq) {
		return
	}
	b.stats.ProbesHeard++
	if b.cfg.Passive || len(b.pending) >= 16 {
		return
	}
	req, err := ieee80211.ParseProbeReq(fr.Body())
	if err != nil {
		return
	}
	ssid, ok := req.Elements().Find(ieee80211.ElemSSID)
	if !ok || (len(ssid) > 0 && string(ssid) != b.cfg.SSID) {
		return
	}
	b.pending = append(b.pending, probeReq{from: fr.Addr2(), wildcard: len(ssid) == 0 && fr.Addr1().IsBroadcast()})
	b.sim.schedule(b.sim.now+b.cfg.ResponseDelay, evTimer, foreignRespond, nil, b)
}

// AddACSNeighbours crowds the simulated US plan a little for a start-up
// channel selection: two more networks on channel 1, one each on 40 and
// 44, so the choice has something to avoid.
func (s *Sim) AddACSNeighbours() {
	for i, f := range []int{2412, 2412, 5200, 5220} {
		s.AddForeignBSS(ForeignBSSConfig{Freq: f, SSID: fmt.Sprintf("acs-neighbour-%d", i+1), Signal: -60})
	}
}
