package ap

import (
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/scan"
	"github.com/airq/airq/txq"
)

// poolSlabs bounds the frames the core holds: queued, in the output, or
// being built. Memory never grows with load.
const poolSlabs = 8192

// AP is one radio and the networks it serves: the radio's core (the
// scheduler, the frames in flight and their echoes, rates, retunes, scan
// trips and ACS, the TSF, the driver contract) holding its BSSes (package
// bss: what each network advertises, its stations' AIDs, its budgets). It
// is not safe for concurrent use: one goroutine (the shell's loop or the
// simulator) calls every method.
type AP struct {
	cfg      Config
	pool     *pool
	slabSlot []uint16 // station slot of a queued slab, for drop counters
	slabPoll []bool   // the slab is an inactivity poll, not an MSDU
	slabLen  []uint16 // 802.3 length of a queued MSDU
	// slabEAPOL: the MSDU is the authenticator's EAPOL frame, whose TX
	// status the handshake takes.
	slabEAPOL []bool
	// slabGroup: the index in bsses of the BSS a group-addressed MSDU
	// goes out from.
	slabGroup []uint8
	big       *pool // A-MSDU buffers
	out       output
	// bsses are the networks the radio serves, in configuration order:
	// the first made from Config's own keys (bss), then Config.BSSes.
	bsses  []*bss.BSS
	bss    *bss.BSS
	radios []*bssRadio // each BSS's view of the radio, by its index in bsses
	// shared counts every BSS's associated stations behind the
	// Capability field, the ERP element and the HT Operation element's
	// protection, which are the radio's (hostapd's hostapd_iface counts);
	// each BSS points at it.
	shared  bss.Shared
	overlap overlap // when legacy BSSes were last heard (overlap.go)
	// sta is every station of the radio by slot, the scheduler's index;
	// a station's slot is its AID in its BSS.
	sta  stationTable
	load radioLoad // the medium's busy time, for the BSSes' BSS Load elements

	sched *txq.Scheduler
	air   *aql.Tracker
	est   *aql.Estimator

	started    bool
	disabled   bool          // switched off by the operator (Disable): no BSS until Enable
	held       bool          // Config.StartDisabled until the first Enable: Start waits for it
	epoch      time.Duration // TSF 0
	nextBeacon time.Duration

	flights  [ieee80211.NumACs]flightRing
	backlog  int // MSDUs queued in the scheduler or in a BSS's group buffer
	inflight int // MSDUs handed to the radio and not completed
	polls    int // inactivity polls queued
	parked   int // group-addressed MSDUs in the BSSes' group buffers (groupbuf.go)

	beacons BeaconStats

	rx  radio.RxInfo
	txs radio.TxStatus
	txh radiotap.TxHeaders // the data frames' injection headers

	events []Event

	scan      *scanner // nil: no background scanning
	scanStats ScanStats
	retuneTo  int // a requested retune, MHz; 0 if none
	onFreq    int // where the radio is

	acs  *acsState // start-up channel selection; nil: the channel was configured
	coex coexRun   // the radio's width at run time (coex_run.go)
	// home keeps the operating channel's survey when neither background
	// scanning nor the start-up selection keeps one.
	home *scan.Table

	cnt counter.Set // the core's running totals; Counters fills in the gauges

	airtime airtimePolicy // Config.Airtime applied (airtime_policy.go)

	// rsns are the secured BSSes' RSNs in BSS order (rsn.go), so that the
	// timers of a radio without one cost a length check; saeQueued counts
	// the SAE jobs their queues hold for the next Flush.
	rsns      []*rsnState
	saeQueued int
}

// New validates cfg and returns a core that has not started beaconing.
func New(cfg Config) (*AP, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	b := &bss.BSS{BSSID: cfg.BSSID, ACL: cfg.ACL, Stations: bss.NewTable(maxAID), Rates: bss.NewRateSet(cfg.Rates, cfg.BasicRates)}
	a := &AP{
		cfg:       cfg,
		bsses:     []*bss.BSS{b},
		bss:       b,
		held:      cfg.StartDisabled,
		pool:      newPool(poolSlabs),
		slabSlot:  make([]uint16, poolSlabs),
		slabPoll:  make([]bool, poolSlabs),
		slabLen:   make([]uint16, poolSlabs),
		slabEAPOL: make([]bool, poolSlabs),
		slabGroup: make([]uint8, poolSlabs),
		out:       newOutput(512),
		sta:       newStationTable(maxAID, &b.Stations),
	}
	a.bss.PHY = bss.NewPHYElems(cfg.BSSPHY(0), cfg.Channel, cfg.Freq, a.bss.Rates.IE)
	a.shared.ERP.ShortPreamble = cfg.ShortPreamble
	a.bss.Shared = &a.shared
	a.bss.ExtCap = cfg.Advert.ExtCapElem()
	if cfg.PHY.OBSSInterval != 0 { // as hostapd, whatever the HT
		a.bss.ExtCap = bss.WithCoexMgmt(a.bss.ExtCap)
	}
	b.Profile = bss.Profile{
		SSID: cfg.SSID, Hidden: cfg.HideSSID, BeaconInterval: cfg.BeaconInterval, DTIMPeriod: cfg.DTIMPeriod,
		WMM: cfg.WMM, WMMParams: cfg.WMMParams, Advert: cfg.Advert,
	}
	if a.airtime, err = newAirtimePolicy(cfg.Airtime, cfg.AirtimeWeight); err != nil {
		return nil, err
	}
	r := a.newBSSRadio(b, cfg.MaxStations, cfg.Name, cfg.Holder, cfg.TAP)
	r.isolate, r.toUnicast = cfg.APIsolate, cfg.MulticastToUnicast
	r.timers = bssTimers{inactivity: cfg.InactivityTimeout, auth: cfg.AuthTimeout, assocResp: cfg.AssocResponseTimeout}
	a.radios = []*bssRadio{r}
	a.sta.departed = a.stationLeft
	a.onFreq = cfg.Freq
	if cfg.acsPending() {
		// acs.go: the channel, and with it the band's rates and the
		// background scanner, come with the choice.
		if a.acs, err = newACS(cfg); err != nil {
			return nil, err
		}
		a.acs.orig, a.bss.Rates = cfg, a.acs.rates24
		if cfg.Coex != nil {
			// The chosen pair may be checked (coex.go).
			if _, err := cfg.coexDwell(); err != nil {
				return nil, err
			}
		}
	} else if cfg.Scan != nil {
		if a.scan, err = newScanner(cfg); err != nil {
			return nil, err
		}
	} else {
		a.home = scan.NewTable(scan.TableConfig{MaxBSS: 1, Freqs: []int{cfg.Freq}})
		a.home.SetInUse(cfg.Freq)
	}
	if cfg.coexPending() {
		// coex.go: the width comes with the check's outcome.
		if a.acs, err = newCoexScan(cfg); err != nil {
			return nil, err
		}
		a.acs.orig = cfg
		a.acs.rates24, a.acs.rates5 = a.bss.Rates, a.bss.Rates
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
		// Several BSSes: each holds no more than its share of what is in
		// flight, so that the radio's queue carries each its share.
		GroupShares: len(cfg.BSSes) > 0,
	})
	if err != nil {
		return nil, err
	}
	for i := range a.flights {
		a.flights[i] = newFlightRing(1024)
	}
	a.bss.Replies = bss.NewReplyBudget(replyShare(cfg))
	a.bss.Senders = bss.NewSenders(cfg.BSSID)
	a.bss.Answered = newAnswered(cfg, a.est)
	for _, x := range cfg.BSSes {
		a.addBSS(x, b)
	}
	a.load.on = a.anyBSSLoad()
	if err := a.secureBSSes(cfg); err != nil {
		return nil, err
	}
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
	if a.held {
		a.disabled = true // Enable starts it
		return
	}
	if a.acsStart(now) {
		return // the start-up scan first; it calls Start again once done
	}
	a.started = true
	a.coexStart()
	a.rsnStart(now)
	a.airtimeStart(now)
	a.epoch = now
	a.staggerBeacons(now)
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
	a.forgetOverlap(now)
	if a.coex.restoring {
		a.coexTick(now) // before the beacon, which announces the width
	}
	if now >= a.nextBeacon && a.beaconDue(now) {
		a.expireUnconfirmed(now)
		a.pollInactive(now)
		a.afterBeacon(now)
	}
	a.scanTick(now)
	a.expireFlights(now)
	a.passDTIMs(now)
	a.rsnTick(now)
	if a.airtime.timed {
		a.airtimeTick(now)
	}
	a.txLoop(now)
}

// never is a Deadline with nothing due.
const never = time.Duration(1<<63 - 1)

// Deadline returns when Tick must next run.
func (a *AP) Deadline() time.Duration {
	if a.acs.active() && a.acs.stage != acsIdle {
		return a.acsDeadline()
	}
	if !a.started {
		// Switched off, or held at start: Tick has nothing to do until
		// Enable, so a passed beacon time must not keep the loop waking.
		return never
	}
	d := a.nextBeacon
	if t, ok := a.scanDeadline(); ok && t < d {
		d = t
	}
	if t, ok := a.rsnDeadline(); ok && t < d {
		d = t
	}
	if t, ok := a.airtimeDeadline(); ok && t < d {
		d = t
	}
	if t, ok := a.dtimDeadline(); ok && t < d {
		d = t
	}
	if t, ok := a.coexDeadline(); ok && t < d {
		d = t
	}
	for i := range a.flights {
		if t, ok := a.flights[i].oldest(); ok && t+a.cfg.EchoTimeout < d {
			d = t + a.cfg.EchoTimeout
		}
	}
	return d
}

// Counters returns a snapshot of the core's counters, the gauges of the
// station table and the queues included.
func (a *AP) Counters() counter.Set {
	c := a.cnt
	frames, _ := a.sched.Backlog()
	var assoc, pending int
	for _, b := range a.bsses {
		assoc, pending = assoc+b.Associated, pending+b.Pending
	}
	c[counter.Associated] = uint64(assoc)
	c[counter.Pending] = uint64(pending)
	c[counter.Authenticated] = uint64(a.sta.ids.Len() - assoc - pending)
	c[counter.Backlog] = uint64(frames)
	a.rsnCounters(&c)
	return c
}

// Backlog returns the number of downlink frames queued for stations.
func (a *AP) Backlog() int { return a.backlog }

// InFlight returns the number of downlink frames handed to the radio and
// not completed yet.
func (a *AP) InFlight() int { return a.inflight }

// Accounted reports whether every frame that entered the downlink (from the
// wired side or forwarded within the BSS) is sent, dropped with a reason, or
// queued: counter.DownlinkIn is the sum of counter.WiredSent, the members of
// the downlink's drop family, the backlog and the frames in flight.
func (a *AP) Accounted() bool {
	frames, _ := a.sched.Backlog()
	ended := a.cnt[counter.WiredSent] + a.cnt.Sum(counter.WiredTxFailed.Family())
	return frames+a.parked == a.backlog+a.polls && a.cnt[counter.DownlinkIn] == ended+uint64(a.backlog)+uint64(a.inflight)
}
