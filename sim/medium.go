package sim

import (
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/aql"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// MediumConfig sets how the simulated air behaves.
type MediumConfig struct {
	// RetryLimit is the number of attempts of a unicast frame when its
	// radiotap header does not ask for a retry count; default 7.
	RetryLimit int
	// Collisions lets contenders that pick the same slot collide (both
	// attempts fail); off, the medium serialises them.
	Collisions bool
	// EchoDelay is how long after the exchange the TX-status echo reaches
	// the core; default 30µs. EchoLoss is the probability that an echo is
	// absent; NoEchoes removes them all (a driver without TX status).
	EchoDelay time.Duration
	EchoLoss  float64
	NoEchoes  bool
	// StationQueue bounds each station's transmit queue per AC; default 256.
	StationQueue int
	// RetuneTime is how long the AP's radio is deaf and mute when it changes
	// channel; default DefaultRetuneTime.
	RetuneTime time.Duration
	// RetuneJitter adds a uniform draw in [0, RetuneJitter) to each
	// retune, as a real radio's channel change varies.
	RetuneJitter time.Duration
	// Noise is the noise floor the AP's radio reports in its channel
	// survey, in dBm; default DefaultNoise.
	Noise int8
	// SignalLoss makes a station's signal decide which rates reach it
	// (signal.go): each unicast attempt is also lost by the receiver's
	// margin over the rate's sensitivity, and a station without a Rate
	// sends at the fastest rate its signal allows with 5 dB to spare.
	SignalLoss bool
	// Unacked are BSSIDs of the radio that its hardware receives but does
	// not ACK, as when no interface of the driver holds the address:
	// stations retransmit every frame to them up to their retry limit.
	Unacked []ieee80211.MAC
}

// DefaultNoise is the simulated radio's noise floor: what mac80211_hwsim
// reports.
const DefaultNoise = -92

// DefaultRetuneTime is the simulated radio's channel change time.
const DefaultRetuneTime = 2 * time.Millisecond

func (c MediumConfig) withDefaults() MediumConfig {
	if c.RetryLimit == 0 {
		c.RetryLimit = 7
	}
	if c.EchoDelay == 0 {
		c.EchoDelay = 30 * time.Microsecond
	}
	if c.StationQueue == 0 {
		c.StationQueue = 256
	}
	if c.RetuneTime == 0 {
		c.RetuneTime = DefaultRetuneTime
	}
	if c.Noise == 0 {
		c.Noise = DefaultNoise
	}
	return c
}

// edcaParams are one AC's channel-access parameters.
type edcaParams struct {
	aifsn        int
	cwMin, cwMax int
}

// edca is what mac80211 programs for injected frames and what hostapd
// advertises to stations by default. The AP's contenders keep it; a
// station's take what its association response's WMM Parameter element
// says (useEDCA).
var edca = [ieee80211.NumACs]edcaParams{
	ieee80211.ACVO: {2, 3, 7},
	ieee80211.ACVI: {2, 7, 15},
	ieee80211.ACBE: {3, 15, 1023},
	ieee80211.ACBK: {7, 15, 1023},
}

// medium is the air: the AP (node 0), the stations and the foreign BSSs,
// each on a frequency, and one contention domain per frequency. A frame is
// heard only by the nodes on its channel while it is on the air.
type medium struct {
	cfg   MediumConfig
	freq  uint16 // the BSS's channel (home)
	bssid ieee80211.MAC
	// bssids are the radio's BSSes' addresses, the first BSS's first,
	// whose frames its radio acknowledges.
	bssids []ieee80211.MAC
	lowest radio.Rate // lowest basic rate: management and group frames
	best   radio.Rate // highest rate of the BSS: default station data rate
	nodes  []*node
	airs   []*air // airs[0] is the home channel; others are added when used

	beaconInterval time.Duration
}

// air is one channel and its contention: EDCA among the contenders of the
// nodes on it.
type air struct {
	idx        int
	freq       uint16
	est        *aql.Estimator // channel access left out: the medium plays it
	sifs, slot time.Duration
	lowest     radio.Rate // the band's lowest mandatory rate
	busy       bool
	gen        int
	active     []*contender
	txing      []*contender
	onAir      time.Duration // time something was on the air
	busyUntil  time.Duration // the end of what is on the air now
	survey     airSurvey     // what the AP's radio measured here (survey.go)
}

// node is a transmitter: the AP, a station or a foreign BSS, with one
// contender per AC.
type node struct {
	id   int
	freq uint16
	sta  *Station    // set for a station
	bss  *ForeignBSS // set for a foreign BSS; neither: the AP
	ac   [ieee80211.NumACs]contender
}

// contender is one EDCA function: a queue of frames and a backoff.
type contender struct {
	node    *node
	air     *air // where it contends while active
	ac      ieee80211.AC
	q       ring
	limit   int           // queue bound; 0 = unbounded (the AP: no backpressure)
	backoff int           // slots still to count
	cw      int           // current contention window
	readyAt time.Duration // when AIFS ends and slots start counting
	active  bool
	p       edcaParams // the AC's channel access
}

func (m *medium) init(c ap.Config, mc MediumConfig) {
	m.cfg = mc
	m.freq = uint16(c.Freq)
	m.bssid = c.BSSID
	m.bssids = []ieee80211.MAC{c.BSSID}
	for _, b := range c.BSSes {
		m.bssids = append(m.bssids, b.BSSID)
	}
	m.beaconInterval = time.Duration(c.BeaconInterval) * 1024 * time.Microsecond
	m.lowest, m.best = rateBounds(c)
	m.airOf(m.freq)
	n := m.newNode(nil)
	n.freq = m.freq
	m.nodes = append(m.nodes, n)
}

// airOf returns the channel at freq, adding it on first use.
func (m *medium) airOf(freq uint16) *air {
	for _, a := range m.airs {
		if a.freq == freq {
			return a
		}
	}
	band2 := freq < 3000
	// Zero AIFSN and CWmin leave SIFS as the only access time in Airtime,
	// which the exchange function subtracts: contention is simulated.
	a := &air{idx: len(m.airs), freq: freq, est: aql.NewEstimator(aql.Channel{Band2GHz: band2}),
		sifs: 16 * time.Microsecond, slot: 9 * time.Microsecond, lowest: radio.LegacyRate(6000)}
	if band2 {
		a.sifs, a.lowest = 10*time.Microsecond, radio.LegacyRate(1000)
	}
	if len(m.airs) == 0 {
		a.lowest = m.lowest
	}
	m.airs = append(m.airs, a)
	return a
}

func rateBounds(c ap.Config) (lowest, best radio.Rate) {
	lo, hi := 0, 0
	for _, k := range c.BasicRates {
		if lo == 0 || k < lo {
			lo = k
		}
	}
	for _, k := range c.Rates {
		hi = max(hi, k)
	}
	return radio.LegacyRate(lo), radio.LegacyRate(hi)
}

// newNode returns a node with its contenders; the caller sets its
// frequency and appends it to nodes.
func (m *medium) newNode(st *Station) *node {
	n := &node{id: len(m.nodes), sta: st, freq: m.freq}
	for ac := range n.ac {
		c := &n.ac[ac]
		c.node, c.ac, c.p = n, ieee80211.AC(ac), edca[ac]
		c.cw = c.p.cwMin
		if st != nil {
			c.limit = m.cfg.StationQueue
		}
	}
	return n
}

func (a *air) aifs(c *contender) time.Duration {
	return a.sifs + time.Duration(c.p.aifsn)*a.slot
}

// useEDCA gives the node's contenders the parameters of a WMM Parameter
// element (CW = 2^ECW - 1). TXOP limits need nothing: the simulated
// stations send one frame per access, which any limit allows.
func (n *node) useEDCA(p [ieee80211.NumACs]ieee80211.EDCA) {
	for ac := range n.ac {
		c := &n.ac[ac]
		c.p = edcaParams{aifsn: int(p[ac].AIFSN), cwMin: 1<<p[ac].ECWMin - 1, cwMax: 1<<p[ac].ECWMax - 1}
		c.cw = min(max(c.cw, c.p.cwMin), c.p.cwMax)
	}
}

// exchange returns the µs one attempt of an n-octet MPDU (FCS included)
// occupies: preamble, payload, SIFS and ACK, without channel access.
func (a *air) exchange(r radio.Rate, n int, noAck bool) uint32 {
	d := a.est.Airtime(r, ieee80211.ACBE, n)
	if d == 0 {
		r = a.lowest
		d = a.est.Airtime(r, ieee80211.ACBE, n)
	}
	d -= uint32(a.sifs / time.Microsecond)
	if noAck {
		d -= a.est.AckTime(r)
	}
	return d
}

// bssIndex returns the index of the radio's BSS whose BSSID addr is, -1 if
// none.
func (m *medium) bssIndex(addr ieee80211.MAC) int {
	for i, b := range m.bssids {
		if b == addr {
			return i
		}
	}
	return -1
}

// tbttOffset is how long after the first BSS's TBTTs the BSS whose BSSID
// addr is beacons: the core spreads its BSSes' TBTTs evenly across the
// interval.
func (m *medium) tbttOffset(addr ieee80211.MAC) time.Duration {
	i := max(m.bssIndex(addr), 0)
	return (m.beaconInterval * time.Duration(i) / time.Duration(len(m.bssids))).Truncate(time.Microsecond)
}
