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
}

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
	return c
}

// edcaParams are one AC's channel-access parameters.
type edcaParams struct {
	aifsn        int
	cwMin, cwMax int
}

// edca is what mac80211 programs for injected frames and what hostapd
// advertises to stations by default: the same table on both sides.
var edca = [ieee80211.NumACs]edcaParams{
	ieee80211.ACVO: {2, 3, 7},
	ieee80211.ACVI: {2, 7, 15},
	ieee80211.ACBE: {3, 15, 1023},
	ieee80211.ACBK: {7, 15, 1023},
}

// medium is one channel shared by the AP (node 0) and the stations.
type medium struct {
	cfg    MediumConfig
	est    *aql.Estimator // channel access left out: the medium plays it
	sifs   time.Duration
	slot   time.Duration
	freq   uint16
	bssid  ieee80211.MAC
	lowest radio.Rate // lowest basic rate: management and group frames
	best   radio.Rate // highest rate of the BSS: default station data rate
	busy   bool
	gen    int
	nodes  []*node
	active []*contender
	txing  []*contender
}

// node is a transmitter: the AP or a station, with one contender per AC.
type node struct {
	id  int
	sta *Station // nil for the AP
	ac  [ieee80211.NumACs]contender
}

// contender is one EDCA function: a queue of frames and a backoff.
type contender struct {
	node    *node
	ac      ieee80211.AC
	q       ring
	limit   int           // queue bound; 0 = unbounded (the AP: no backpressure)
	backoff int           // slots still to count
	cw      int           // current contention window
	readyAt time.Duration // when AIFS ends and slots start counting
	active  bool
}

func (m *medium) init(c ap.Config, mc MediumConfig) {
	band2 := c.Freq < 3000
	// Zero AIFSN and CWmin leave SIFS as the only access time in Airtime,
	// which the exchange function subtracts: contention is simulated.
	m.est = aql.NewEstimator(aql.Channel{Band2GHz: band2})
	m.cfg = mc
	m.sifs, m.slot = 16*time.Microsecond, 9*time.Microsecond
	if band2 {
		m.sifs = 10 * time.Microsecond
	}
	m.freq = uint16(c.Freq)
	m.bssid = c.BSSID
	m.lowest, m.best = rateBounds(c)
	m.nodes = append(m.nodes, m.newNode(nil))
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

func (m *medium) newNode(st *Station) *node {
	n := &node{id: len(m.nodes), sta: st}
	for ac := range n.ac {
		c := &n.ac[ac]
		c.node, c.ac = n, ieee80211.AC(ac)
		c.cw = edca[ac].cwMin
		if st != nil {
			c.limit = m.cfg.StationQueue
		}
	}
	return n
}

func (m *medium) aifs(ac ieee80211.AC) time.Duration {
	return m.sifs + time.Duration(edca[ac].aifsn)*m.slot
}

// exchange returns the µs one attempt of an n-octet MPDU (FCS included)
// occupies: preamble, payload, SIFS and ACK, without channel access.
func (m *medium) exchange(r radio.Rate, n int, noAck bool) uint32 {
	d := m.est.Airtime(r, ieee80211.ACBE, n)
	if d == 0 {
		r = m.lowest
		d = m.est.Airtime(r, ieee80211.ACBE, n)
	}
	d -= uint32(m.sifs / time.Microsecond)
	if noAck {
		d -= m.est.AckTime(r)
	}
	return d
}
