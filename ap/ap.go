package ap

import (
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/txq"
)

// poolSlabs bounds the frames the core holds: queued, in the output, or
// being built. Memory never grows with load.
const poolSlabs = 8192

// AP is one BSS. It is not safe for concurrent use: one goroutine (the
// runtime's loop or the simulator) calls every method.
type AP struct {
	cfg      Config
	pool     *pool
	slabSlot []uint16 // station slot of a queued slab, for drop counters
	slabPoll []bool   // the slab is an inactivity poll, not an MSDU
	slabLen  []uint16 // 802.3 length of a queued MSDU
	big      *pool    // A-MSDU buffers
	out      output
	sta      stationTable
	assoc    int // associated stations
	rates    rateSet
	phy      phyElems

	sched *txq.Scheduler
	air   *aql.Tracker
	est   *aql.Estimator

	started    bool
	epoch      time.Duration // TSF 0
	nextBeacon time.Duration
	dtimCount  int
	mgmtSeq    uint16

	flights  [ieee80211.NumACs]flightRing
	backlog  int // MSDUs queued in the scheduler
	inflight int // MSDUs handed to the radio and not completed
	polls    int // inactivity polls queued

	dozing      int  // associated stations in power save
	mcastWindow bool // group frames may go: a DTIM beacon announced them
	timBits     ieee80211.TIMBitmap

	// replies is the airtime budget of management frames sent in answer to
	// others' frames (probe, auth and association responses, deauths to
	// strangers), so a flood cannot take the channel (replies.go).
	replies      replyBudget
	senders      senderTable // MACs heard from: their replies are in the known class
	pending      int         // stations whose association response awaits its TX status
	nonERP       int         // associated stations without OFDM rates
	longPreamble int         // associated stations without short preamble
	beacons      BeaconStats

	rx  radio.RxInfo
	txs radio.TxStatus

	events     []Event
	eventsLost uint64

	scan      *scanner // nil: no background scanning
	scanStats ScanStats
	retuneTo  int // a requested retune, MHz; 0 if none
	onFreq    int // where the radio is

	acs *acsState // start-up channel selection; nil: the channel was configured

	cnt Counters
}

// Counters are the core's running totals. Every frame that enters the
// downlink ends in exactly one of WiredSent, WiredTxFailed, WiredDropped*, or
// is still queued (Backlog) or in flight (InFlight), which Accounted checks.
type Counters struct {
	RxFrames, RxMalformed, RxBadFCS, RxNotForUs uint64
	RxMgmt, RxData, RxCtrl                      uint64
	RxFromUnknown, RxDuplicates, RxFragments    uint64
	RxToWired, RxIntraBSS, RxAMSDUSubframes     uint64
	RxUnauthorized                              uint64

	Echoes, EchoUnmatched, EchoAcked, EchoFailed uint64
	NoStatus, TimedOut                           uint64
	NotSent                                      uint64 // frames the radio refused to take

	Beacons, ProbeResponses, AuthResponses, AssocResponses uint64
	PSPolls, Rebuffered                                    uint64
	Deauths, ADDBADeclined                                 uint64
	RepliesThrottled                                       uint64 // replies not sent: airtime budget spent
	AuthEvicted                                            uint64 // authenticated-only stations dropped to make room

	WiredIn    uint64 // frames read from the TAP
	DownlinkIn uint64 // frames entering the downlink (TAP and intra-BSS)
	// WiredSent MSDUs completed by the radio (ACKed, or without status);
	// WiredTxFailed ones the station never ACKed (dropped: delivery failed).
	WiredSent, WiredTxFailed                    uint64
	WiredDroppedNoStation, WiredDroppedQueue    uint64
	WiredDroppedMalformed, WiredDroppedNoBuffer uint64
	WiredDroppedFlushed, WiredDroppedCoDel      uint64
	WiredDroppedUnauthorized                    uint64
	WiredDropped                                uint64 // output to the TAP lost (output full)
	// Frames the devices' kernel queues dropped before airq could read
	// them: host frames tun dropped (never accepted, so outside the books
	// above but reported with them), and receive-socket drops, which may
	// have been TX-status echoes.
	WiredLostInKernel, RadioLostInKernel uint64
	OutputOverflow                       uint64

	// Admission under load (mlme.go, admit.go, replies.go).
	AuthNotAcked       uint64 // authentication responses never acknowledged: the entry is dropped
	AssocAcked         uint64 // association responses acknowledged: the station is associated
	AssocNotAcked      uint64 // association responses not acknowledged: the AID is released
	AssocTimedOut      uint64 // no TX status for an association response in time: the AID is released
	AssocByFrame       uint64 // associations confirmed by the station's first frame, the response's status lost or overdue
	AssocNotSent       uint64 // accepted associations whose response the budget or the buffers held back
	AssocMalformed     uint64 // association requests refused (status 1): element chain overruns the frame, bad WMM element
	AssocRetries       uint64 // retransmitted association requests ignored (same sequence number)
	AssocEarly         uint64 // association requests ignored: the authentication response's ACK not known yet
	RxWhilePending     uint64 // class 3 frames ignored while the station's association response was pending
	PendingEvicted     uint64 // pending associations dropped to make room
	QuietEvicted       uint64 // associated stations without data since associating, removed to make room
	ThrottledKnown     uint64 // RepliesThrottled to MACs heard from before they authenticated
	ThrottledNew       uint64 // RepliesThrottled to MACs first heard in their authentication
	ThrottledStranger  uint64 // RepliesThrottled to strangers: probe responses, reason 6 and 7, Action bounces
	RateTablesBuilt    uint64 // per-station rate tables built at a station's first data frame
	RateTablesReleased uint64 // rate tables given back after Config.IdleRelease without data
	// Frames from the air dropped (uplink.go).
	RxAMSDUMalformed uint64 // A-MSDUs dropped whole: a subframe overruns the frame
	RxAMSDUInjected  uint64 // A-MSDUs dropped whole: the first subframe's DA is an RFC 1042 header
	Rx4Addr          uint64 // 4-address data frames (airq has no WDS stations)
}

// New validates cfg and returns a core that has not started beaconing.
func New(cfg Config) (*AP, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	a := &AP{
		cfg:      cfg,
		pool:     newPool(poolSlabs),
		slabSlot: make([]uint16, poolSlabs),
		slabPoll: make([]bool, poolSlabs),
		slabLen:  make([]uint16, poolSlabs),
		out:      newOutput(512),
		sta:      newStationTable(maxAID),
		rates:    newRateSet(cfg.Rates, cfg.BasicRates),
	}
	a.phy = newPHYElems(cfg, a.rates.ie)
	a.onFreq = cfg.Freq
	if cfg.acsPending() {
		// acs.go: the channel, and with it the band's rates and the
		// background scanner, come with the choice.
		if a.acs, err = newACS(cfg); err != nil {
			return nil, err
		}
		a.acs.orig, a.rates = cfg, a.acs.rates24
	} else if cfg.Scan != nil {
		if a.scan, err = newScanner(cfg); err != nil {
			return nil, err
		}
	}
	if cfg.AMSDU > 0 {
		a.big = newPoolOf(bigSlabs, bigSlabSize)
	}
	var caps [ieee80211.NumACs]uint16
	for i := range caps {
		caps[i] = uint16(cfg.InFlightPerAC)
	}
	a.air = aql.New(aql.Config{Limits: cfg.AQL, FrameCap: caps})
	a.est = aql.NewEstimator(channelTiming(cfg))
	a.sched, err = txq.New(txq.Config{
		Mode: cfg.Scheduler, LegacyRoundReset: cfg.LegacyRoundReset, MaxStations: maxAID,
		Limit: poolSlabs - 1024, QueueLimit: cfg.QueueFrames, Airtime: a.air, Owner: a,
	})
	if err != nil {
		return nil, err
	}
	for i := range a.flights {
		a.flights[i] = newFlightRing(1024)
	}
	a.replies = newReplyBudget(cfg.ReplyAirtime)
	a.senders = newSenderTable(cfg.BSSID)
	return a, nil
}

// channelTiming is the medium timing the radio uses for our frames: mac80211
// programs its default EDCA set on a monitor interface.
func channelTiming(cfg Config) aql.Channel {
	ch := aql.DefaultChannel()
	ch.Band2GHz = cfg.Freq < 3000
	return ch
}

// Config returns the configuration in force, defaults filled in.
func (a *AP) Config() Config { return a.cfg }

// Start begins beaconing at now; TSF 0 is now.
func (a *AP) Start(now time.Duration) {
	if a.acsStart(now) {
		return // the start-up scan first; it calls Start again once done
	}
	a.started = true
	a.epoch = now
	a.nextBeacon = now
	a.Tick(now)
}

// TSF returns the BSS's 64-bit timer in µs at now: one monotonic model for
// beacons and probe responses.
func (a *AP) TSF(now time.Duration) uint64 { return uint64((now - a.epoch) / time.Microsecond) }

func (a *AP) beaconPeriod() time.Duration {
	return time.Duration(a.cfg.BeaconInterval) * 1024 * time.Microsecond
}

// Tick runs what is due at now: the beacon, in-flight timeouts, the TX loop.
func (a *AP) Tick(now time.Duration) {
	if a.acs.active() {
		a.acsTick(now)
		return
	}
	if !a.started {
		return
	}
	// The beacon goes first so it is ahead of queued data in the output.
	if now >= a.nextBeacon {
		if a.onFreq == a.cfg.Freq && a.retuneTo == 0 {
			a.sendBeacon(now, a.nextBeacon)
		} else {
			// Only a trip the operator allowed to miss one crosses a TBTT.
			a.scanStats.MissedBeacons++
		}
		a.expireUnconfirmed(now)
		a.pollInactive(now)
		a.nextBeacon += a.beaconPeriod()
		if a.nextBeacon <= now { // late by more than a period: skip, do not burst
			missed := (now-a.nextBeacon)/a.beaconPeriod() + 1
			a.nextBeacon += missed * a.beaconPeriod()
			a.beacons.MissedIntervals += uint64(missed)
		}
		a.afterBeacon(now)
	}
	a.scanTick(now)
	a.expireFlights(now)
	a.txLoop(now)
}

// Deadline returns when Tick must next run.
func (a *AP) Deadline() time.Duration {
	if a.acs.active() && a.acs.stage != acsIdle {
		return a.acsDeadline()
	}
	d := a.nextBeacon
	if t, ok := a.scanDeadline(); ok && t < d {
		d = t
	}
	for i := range a.flights {
		if t, ok := a.flights[i].oldest(); ok && t+a.cfg.EchoTimeout < d {
			d = t + a.cfg.EchoTimeout
		}
	}
	return d
}

// Counters returns a snapshot of the core's counters.
func (a *AP) Counters() Counters { return a.cnt }

// Backlog returns the number of downlink frames queued for stations.
func (a *AP) Backlog() int { return a.backlog }

// InFlight returns the number of downlink frames handed to the radio and
// not completed yet.
func (a *AP) InFlight() int { return a.inflight }

// Accounted reports whether every frame that entered the downlink (from the
// wired side or forwarded within the BSS) is sent, dropped with a reason, or
// queued.
func (a *AP) Accounted() bool {
	c := a.cnt
	frames, _ := a.sched.Backlog()
	return frames == a.backlog+a.polls && c.DownlinkIn == c.WiredSent+c.WiredTxFailed+c.WiredDroppedNoStation+
		c.WiredDroppedQueue+c.WiredDroppedMalformed+c.WiredDroppedNoBuffer+c.WiredDroppedFlushed+
		c.WiredDroppedCoDel+c.WiredDroppedUnauthorized+uint64(a.backlog)+uint64(a.inflight)
}

func (a *AP) nextMgmtSeq() uint16 {
	s := a.mgmtSeq
	a.mgmtSeq = (a.mgmtSeq + 1) & 0xfff
	return s
}
