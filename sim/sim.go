package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/eventq"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// Config describes one simulated BSS.
type Config struct {
	// Seed selects the random draws (backoffs, losses); the same seed gives
	// the same run.
	Seed uint64
	// AP configures the core. Zero fields get simulator defaults: SSID
	// "airq-sim", BSSID 02:00:00:00:01:00, channel 36, WMM on.
	AP     ap.Config
	Medium MediumConfig
	// WiredLatency is the one-way delay between the TAP and a wired host;
	// default 20µs.
	WiredLatency time.Duration
	// SAEJobCost is the virtual time one SAE job takes on the AP (sae.go);
	// default SAEJobCost. A slow AP core's, or the shell's worker under its
	// budget, is larger.
	SAEJobCost time.Duration
	// Capture, when set, sees the frames of the AP's radio (capture.go).
	Capture func(at time.Duration, frame []byte)
	// Start is the virtual time the simulation starts at: 0, or where
	// the simulation of a restarted radio's predecessor stopped
	// (Play.Next), so that its clock goes on.
	Start time.Duration
}

// Sim is one simulated BSS: the core, the medium, stations and wired
// hosts, on a virtual clock. It is not safe for concurrent use.
type Sim struct {
	cfg    Config
	core   *ap.AP
	drv    driver     // the core's driver (driver.go)
	events []ap.Event // the core's station events, until DrainEvents
	rng    *rand.Rand

	now time.Duration
	q   eventq.Queue[event]
	log eventLog

	med      medium
	stations []*Station
	byMAC    map[ieee80211.MAC]*Station
	// floodOwner maps the acknowledging addresses of admission flooders
	// to their flooder (flood.go).
	floodOwner map[ieee80211.MAC]*Station
	hosts      []*Host
	hostMAC    map[ieee80211.MAC]*Host
	nextPort   uint16

	tickGen   int
	tickAt    time.Duration
	tickArmed bool
	lastTick  time.Duration

	radio   radioState
	foreign []*ForeignBSS
	sweeps  []Sweep

	free    []*packet
	scratch []byte
	stats   Stats
	pmks    map[[2]string]rsn.PMK // the stations' passphrases' PMKs, by passphrase and SSID
	keys    *rand.Rand            // the source of the handshakes' nonces and keys
}

// New builds a simulation around a new core and starts the core at
// virtual time cfg.Start.
func New(cfg Config) (*Sim, error) {
	cfg = cfg.withDefaults()
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	// Nonces and keys repeat with the seed, from a source of their own,
	// so that WPA2 leaves the medium's draws as they are.
	keys := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x5851f42d4c957f2d))
	if r := cfg.AP.RSN; r != nil && r.Rand == nil {
		c := *r
		c.Rand = rngReader{keys}
		cfg.AP.RSN = &c
	}
	cfg.AP.BSSes = slices.Clone(cfg.AP.BSSes)
	for i, b := range cfg.AP.BSSes {
		if r := b.RSN; r != nil && r.Rand == nil {
			c := *r
			c.Rand = rngReader{keys}
			cfg.AP.BSSes[i].RSN = &c
		}
	}
	core, err := ap.New(cfg.AP)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	s := &Sim{
		cfg:        cfg,
		core:       core,
		rng:        rng,
		keys:       keys,
		pmks:       map[[2]string]rsn.PMK{},
		byMAC:      map[ieee80211.MAC]*Station{},
		floodOwner: map[ieee80211.MAC]*Station{},
		hostMAC:    map[ieee80211.MAC]*Host{},
		nextPort:   20000,
		scratch:    make([]byte, 0, 4096),
		tickGen:    -1,
	}
	s.drv = driver{s: s}
	s.med.init(core.Config(), cfg.Medium)
	s.now = max(cfg.Start, 0)
	s.core.Start(s.now)
	s.drainCore()
	return s, nil
}

func (c Config) withDefaults() Config {
	if c.AP.SSID == "" {
		c.AP.SSID = "airq-sim"
	}
	if c.AP.BSSID.IsZero() {
		c.AP.BSSID = ieee80211.MAC{0x02, 0, 0, 0, 0x01, 0}
	}
	if c.AP.Channel == 0 && c.AP.Freq == 0 {
		if c.AP.ACS == nil { // with ACS the core picks it (acs.go)
			c.AP.Channel = 36
		}
		c.AP.WMM = true
	}
	if c.SAEJobCost == 0 {
		c.SAEJobCost = SAEJobCost
	}
	if c.WiredLatency == 0 {
		c.WiredLatency = 20 * time.Microsecond
	}
	c.Medium = c.Medium.withDefaults()
	return c
}

// Core returns the access point under test.
func (s *Sim) Core() *ap.AP { return s.core }

// Now returns the virtual time.
func (s *Sim) Now() time.Duration { return s.now }

// Hash returns the running hash of the event log: every event run and every
// frame put on the air or the wire.
func (s *Sim) Hash() uint64 { return s.log.h }

// Stations returns the stations in the order they were added.
func (s *Sim) Stations() []*Station { return s.stations }

// schedule queues an event at at (never before now).
func (s *Sim) schedule(at time.Duration, kind evKind, arg int, p *packet, t timerTarget) {
	if at < s.now {
		at = s.now
	}
	s.q.Push(at, event{kind: kind, arg: arg, pkt: p, tgt: t})
}

// scheduleOn queues a medium event of the channel with index ch.
func (s *Sim) scheduleOn(at time.Duration, kind evKind, arg, ch int) {
	if at < s.now {
		at = s.now
	}
	s.q.Push(at, event{kind: kind, arg: arg, ch: ch})
}

// Next returns when the next event is due.
func (s *Sim) Next() (time.Duration, bool) {
	return s.q.Next()
}

// Run advances the simulation by d.
func (s *Sim) Run(d time.Duration) { s.RunUntil(s.now + d) }

// RunUntil runs every event due at or before t, then sets the clock to t.
func (s *Sim) RunUntil(t time.Duration) {
	for at, ok := s.q.Next(); ok && at <= t; at, ok = s.q.Next() {
		s.step()
	}
	if t > s.now {
		s.now = t
	}
}

func (s *Sim) step() {
	at, e := s.q.Pop()
	s.now = at
	s.stats.Events++
	s.log.note(at, e.kind, e.arg, e.ch)
	switch e.kind {
	case evTick:
		s.onTick(e.arg)
	case evAccess:
		s.onAccess(s.med.airs[e.ch], e.arg)
	case evTxEnd:
		s.onTxEnd(s.med.airs[e.ch])
	case evRetuned:
		s.onRetuned()
	case evEcho:
		s.toCoreRaw(e.pkt.b)
		s.freePacket(e.pkt)
	case evWiredIn:
		s.log.bytes(e.pkt.b)
		s.core.HandleWired(s.now, e.arg, e.pkt.b)
		s.freePacket(e.pkt)
		s.drainCore()
	case evWiredOut:
		s.toHosts(e.arg, e.pkt)
		s.freePacket(e.pkt)
	case evTimer:
		e.tgt.fire(s.now, e.arg)
	}
}

// InjectRadio hands b (radiotap + 802.11) to the core now, as if the
// monitor interface had read it, and routes the core's reaction.
func (s *Sim) InjectRadio(b []byte) {
	s.log.bytes(b)
	s.toCoreRaw(b)
}

func (s *Sim) toCoreRaw(b []byte) {
	s.captured(b)
	s.core.HandleRadio(s.now, b)
	s.drainCore()
}

// armTick keeps exactly one live tick event at the core's deadline; older
// ones are recognised by their generation and ignored.
func (s *Sim) armTick() {
	at := s.core.Deadline()
	if at <= s.lastTick {
		at = s.lastTick + time.Microsecond // never spin at one instant
	}
	if at < s.now {
		at = s.now
	}
	if s.tickArmed && at == s.tickAt {
		return
	}
	s.tickGen++
	s.tickAt, s.tickArmed = at, true
	s.schedule(at, evTick, s.tickGen, nil, nil)
}

func (s *Sim) onTick(gen int) {
	if gen != s.tickGen {
		return
	}
	s.tickArmed = false
	s.lastTick = s.now
	s.core.Tick(s.now)
	s.drainCore()
}
