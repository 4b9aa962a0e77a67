package policy

import (
	"errors"
	"time"
)

// Mode is hostapd's airtime_mode.
type Mode uint8

const (
	Off     Mode = iota // 0: the scheduler's default weights
	Static              // 1: airtime_sta_weight, else airtime_bss_weight
	Dynamic             // 2: each BSS's share follows its weight
	Limit               // 3: as Dynamic, only when a limited BSS would exceed its share
)

var modeNames = [...]string{"off", "static", "dynamic", "limit"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "mode?"
}

const (
	// DefaultInterval is airtime_update_interval's default
	// (AIRTIME_DEFAULT_UPDATE_INTERVAL).
	DefaultInterval = 200 * time.Millisecond
	// DefaultWeight is the kernel's IEEE80211_DEFAULT_AIRTIME_WEIGHT.
	DefaultWeight = 256
	// MaxBSS is the number of BSSes (the scheduler's groups).
	MaxBSS = 8
	// backlogIntervals is twice the number of intervals a station counts
	// as backlogged after it was last seen with frames queued: 2.5, as
	// AIRTIME_BACKLOG_EXPIRY_FACTOR.
	backlogIntervals = 5
)

// The scaling of Dynamic and Limit weights, hostapd's AIRTIME_QUANTUM_*:
// the largest station weight aims at quantumTarget µs, the smallest stays
// between quantumMin and quantumMax.
const (
	quantumMin    = 8
	quantumMax    = 256
	quantumTarget = 1024
)

// BSS is one BSS's airtime keys.
type BSS struct {
	// Weight is airtime_bss_weight. In Static mode it is the weight of the
	// BSS's stations without an airtime_sta_weight; in Dynamic and Limit
	// mode the ratios between BSSes' weights are their shares. 0 leaves the
	// BSS's stations at the default weight (Static) or out of the policy
	// (Dynamic, Limit), as in hostapd.
	Weight uint16
	// Limit is airtime_bss_limit: in Limit mode, the weights are scaled
	// only when a limited BSS would take more than its share.
	Limit bool
}

// Config is read once by New.
type Config struct {
	Mode Mode
	// Interval is airtime_update_interval (DefaultInterval if 0).
	Interval time.Duration
	// MaxStations is the highest station slot (the scheduler's).
	MaxStations int
	// Default is the weight of a station the policy gives none of its
	// own (the kernel's default for hostapd; airq's airtime_weight):
	// DefaultWeight if 0.
	Default uint16
}

// Scheduler is what the policy reads and sets: *txq.Scheduler.
type Scheduler interface {
	// StationBacklog is what the station has queued: hostapd's
	// backlog_bytes.
	StationBacklog(sta uint16) (frames, bytes int)
	SetWeight(sta uint16, weight uint16)
}

type station struct {
	present bool
	bss     uint8
	// own is the station's airtime_sta_weight (0: none).
	own uint16
	// weight is what the policy last set; 0 before AddStation sets the
	// first, which therefore always reaches the scheduler.
	weight uint16
	// backlogged is when the station stops counting as backlogged.
	backlogged time.Duration
}

// Policy sets stations' airtime weights after one of hostapd's airtime
// modes. It is pure and allocates nothing after New; the caller serialises
// its calls with the scheduler's.
type Policy struct {
	mode     Mode
	interval time.Duration
	dflt     uint16
	bss      [MaxBSS]BSS
	stas     []station
	// Per BSS, for Update: backlogged stations and the weight given to
	// its stations.
	count  [MaxBSS]int
	weight [MaxBSS]uint16
}

// New checks the configuration. MaxStations must be given.
func New(cfg Config) (*Policy, error) {
	if cfg.Mode > Limit {
		return nil, errors.New("policy: airtime_mode is 0, 1, 2 or 3")
	}
	if cfg.Interval < 0 || cfg.Interval > 0 && cfg.Interval < time.Millisecond {
		return nil, errors.New("policy: airtime_update_interval is at least 1 ms")
	}
	if cfg.MaxStations <= 0 || cfg.MaxStations > 4095 {
		return nil, errors.New("policy: MaxStations is 1 to 4095")
	}
	if cfg.Interval == 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Default == 0 {
		cfg.Default = DefaultWeight
	}
	return &Policy{mode: cfg.Mode, interval: cfg.Interval, dflt: cfg.Default, stas: make([]station, cfg.MaxStations+1)}, nil
}

// SetDefault changes Config.Default for the stations added from now on.
func (p *Policy) SetDefault(w uint16) {
	if w == 0 {
		w = DefaultWeight
	}
	p.dflt = w
}

// Mode reports the policy's mode.
func (p *Policy) Mode() Mode { return p.mode }

// SetBSS sets a BSS's keys, live. In Static mode its stations' weights
// follow at once; in Dynamic and Limit mode at the next Update.
func (p *Policy) SetBSS(b uint8, bss BSS, s Scheduler) {
	if int(b) >= MaxBSS {
		return
	}
	p.bss[b] = bss
	if p.mode != Static {
		return
	}
	for sta := range p.stas {
		if st := &p.stas[sta]; st.present && st.bss == b {
			p.set(uint16(sta), p.static(st), s)
		}
	}
}

// AddStation enters a station of BSS b with its airtime_sta_weight (0:
// none), as hostapd's airtime_policy_new_sta: in Static mode it gets its
// weight at once, in the other modes the default until an Update gives it
// another. Adding a present station moves it (a reassociation).
func (p *Policy) AddStation(sta uint16, b uint8, own uint16, s Scheduler) {
	if sta == 0 || int(sta) >= len(p.stas) || int(b) >= MaxBSS {
		return
	}
	st := &p.stas[sta]
	*st = station{present: true, bss: b, own: own}
	w := p.dflt
	if p.mode == Static {
		w = p.static(st)
	}
	p.set(sta, w, s)
}

// RemoveStation forgets a station.
func (p *Policy) RemoveStation(sta uint16) {
	if sta != 0 && int(sta) < len(p.stas) {
		p.stas[sta] = station{}
	}
}

// Weight is the weight the policy gave the station (0: not present).
func (p *Policy) Weight(sta uint16) uint16 {
	if sta == 0 || int(sta) >= len(p.stas) || !p.stas[sta].present {
		return 0
	}
	return p.stas[sta].weight
}

// Backlogged is the number of stations of BSS b counted as backlogged at
// the last Update.
func (p *Policy) Backlogged(b uint8) int {
	if int(b) >= MaxBSS {
		return 0
	}
	return p.count[b]
}

// static is a station's weight in Static mode.
func (p *Policy) static(st *station) uint16 {
	switch {
	case st.own != 0:
		return st.own
	case p.bss[st.bss].Weight != 0:
		return p.bss[st.bss].Weight
	}
	return p.dflt
}

// set gives a station a weight, telling the scheduler only of a change.
func (p *Policy) set(sta uint16, w uint16, s Scheduler) {
	if st := &p.stas[sta]; st.weight != w {
		st.weight = w
		s.SetWeight(sta, w)
	}
}
