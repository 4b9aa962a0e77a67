package txq

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// Queue states. A queue is on its AC's list (listed, waiting or blocked),
// checked out by the caller between Next and Return, or idle.
const (
	stIdle    uint8 = iota
	stListed        // trace: on the active list; production: on the ring
	stWait          // production: parked with its station in the refill wheel
	stBlocked       // production: parked on the AQL-blocked list
	stOut           // returned by Next, not yet given back with Return
)

const nonStationTID = 0xff

// TXQ is one queue: a station's TID, or the non-station queue of an AC.
// Pointers returned by Next stay valid for the Scheduler's lifetime.
type TXQ struct {
	sta   uint16
	tid   uint8
	ac    ieee80211.AC
	state uint8

	prev, next int32 // AC list links
	stamp      uint64

	newFlows, oldFlows flist
	defFlow            int32
	frames, bytes      uint32
	bPrev, bNext       int32 // backlogged-queue links, for the global fattest-flow search
	backlogged         bool
}

// Station is the queue's station slot (0 for the non-station queue).
func (q *TXQ) Station() uint16 { return q.sta }

// TID is the queue's traffic identifier; ok is false for a non-station queue.
func (q *TXQ) TID() (tid uint8, ok bool) { return q.tid, q.tid != nonStationTID }

// AC is the queue's access category.
func (q *TXQ) AC() ieee80211.AC { return q.ac }

// Len is the number of frames queued.
func (q *TXQ) Len() int { return int(q.frames) }

// Bytes is the number of bytes queued.
func (q *TXQ) Bytes() int { return int(q.bytes) }

type station struct {
	present, paused, slow bool
	weight                int32
}

// air is a station's airtime state on one AC: mac80211's struct airtime_info
// plus the production mode's refill-wheel entry.
type air struct {
	def        int64 // stored deficit, µs
	lastActive time.Duration
	active     bool // lastActive has been set
	txAirtime  uint64

	vt, t        int64 // production: virtual pass of def, pass at which it turns non-negative
	wPrev, wNext int32
	wLevel       int8 // -1: not in the wheel
	wSlot        uint8
}

type acState struct {
	round uint64
	open  bool
	first bool // the next Next is the round's first
	list  qlist
	block qlist // production: AQL-blocked queues
	// listed counts the queues on the list, parked in the wheel or blocked:
	// what PHYAllows sees. Checked-out queues are not counted.
	listed int
	wheel  wheel
	stats  ACStats
}

// Scheduler holds every queue of one radio and schedules them per AC. It is
// not safe for concurrent use: the caller serialises all calls, as mac80211
// serialises a radio's scheduling rounds.
type Scheduler struct {
	cfg  Config
	air  Airtime
	own  Owner
	prod bool

	queues []TXQ
	stas   []station
	airs   []air
	acs    [ieee80211.NumACs]acState
	numSta int

	fq
	clk codelClock
}

// acTIDs lists the two TIDs of each AC.
var acTIDs = func() (t [ieee80211.NumACs][2]uint8) {
	var n [ieee80211.NumACs]int
	for tid := uint8(0); tid < ieee80211.NumTIDs; tid++ {
		ac := ieee80211.TIDToAC(tid)
		t[ac][n[ac]] = tid
		n[ac]++
	}
	return t
}()

// New allocates every queue, flow and frame slot up front; nothing allocates
// afterwards.
func New(cfg Config) (*Scheduler, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	s := &Scheduler{cfg: cfg, air: cfg.Airtime, own: cfg.Owner, prod: cfg.Mode == Production}
	nq := (cfg.MaxStations + 1) * ieee80211.NumTIDs
	s.queues = make([]TXQ, nq)
	s.stas = make([]station, cfg.MaxStations+1)
	s.airs = make([]air, (cfg.MaxStations+1)*ieee80211.NumACs)
	s.fq.init(&cfg, nq)
	for i := range s.queues {
		q := &s.queues[i]
		q.sta, q.tid = uint16(i/ieee80211.NumTIDs), uint8(i%ieee80211.NumTIDs)
		q.ac = ieee80211.TIDToAC(q.tid)
		if q.sta == 0 {
			q.tid, q.ac = nonStationTID, ieee80211.AC(i%ieee80211.NumACs)
		}
		q.prev, q.next, q.bPrev, q.bNext = -1, -1, -1, -1
		q.newFlows, q.oldFlows = emptyList, emptyList
		q.defFlow = int32(cfg.Flows + i)
	}
	for i := range s.airs {
		s.airs[i].wLevel = -1
	}
	for ac := range s.acs {
		a := &s.acs[ac]
		a.list, a.block = emptyList, emptyList
		a.wheel.init()
	}
	return s, nil
}

// Mode reports the mode chosen at New.
func (s *Scheduler) Mode() Mode { return s.cfg.Mode }

func (s *Scheduler) queueIndex(sta uint16, tid uint8) int32 {
	if sta == 0 {
		return int32(ieee80211.TIDToAC(tid))
	}
	return int32(sta)*ieee80211.NumTIDs + int32(tid&7)
}

// Queue returns the queue of a station's TID, or for station 0 the
// non-station queue of the TID's AC. It returns nil for a slot out of range.
func (s *Scheduler) Queue(sta uint16, tid uint8) *TXQ {
	if int(sta) >= len(s.stas) {
		return nil
	}
	return &s.queues[s.queueIndex(sta, tid)]
}

// NonStation returns the non-station (management, multicast) queue of an AC.
func (s *Scheduler) NonStation(ac ieee80211.AC) *TXQ { return &s.queues[ac&3] }

func (s *Scheduler) airOf(sta uint16, ac ieee80211.AC) *air {
	return &s.airs[int(sta)*ieee80211.NumACs+int(ac)]
}

// effective is mac80211's ieee80211_sta_deficit: the deficit (with any
// refill the wheel owes it) minus the airtime still pending.
func (s *Scheduler) effective(sta uint16, ac ieee80211.AC, a *air) int64 {
	d := a.def
	if v := s.acs[ac].wheel.v; a.wLevel >= 0 && v > a.vt {
		d += int64(s.stas[sta].weight) * (v - a.vt)
	}
	return d - int64(s.air.StationPending(sta, ac))
}

func (a *air) recent(now time.Duration) bool {
	return a.active && now-a.lastActive <= ActiveWindow
}

// keepActive is ieee80211_txq_keep_active: an emptied station queue stays
// listed while its station owes airtime and was active in the last 100 ms,
// so that its debt is paid before others' credit is refilled without it.
func (s *Scheduler) keepActive(q *TXQ, now time.Duration) bool {
	if q.sta == 0 {
		return false
	}
	a := s.airOf(q.sta, q.ac)
	return s.effective(q.sta, q.ac, a) < 0 && a.recent(now)
}

// Schedule puts a queue back on its AC's list if it has frames, as
// ieee80211_schedule_txq. Enqueue calls it already.
func (s *Scheduler) Schedule(q *TXQ, now time.Duration) { s.schedule(q, true, now) }

// schedule is __ieee80211_schedule_txq. Under airtime fairness a station
// queue with frames goes to the head, so that only the DRR walk moves it back
// once its deficit is negative; anything else goes to the tail.
func (s *Scheduler) schedule(q *TXQ, force bool, now time.Duration) {
	if q.state != stIdle && q.state != stOut {
		return
	}
	if q.sta != 0 && (!s.stas[q.sta].present || s.stas[q.sta].paused) {
		q.state = stIdle
		return
	}
	has := force || q.frames > 0
	if !has && !s.keepActive(q, now) {
		q.state = stIdle
		return
	}
	A := &s.acs[q.ac]
	qi := s.index(q)
	if q.sta != 0 && has {
		A.list.pushHead(s.queues, qi)
		a := s.airOf(q.sta, q.ac)
		a.lastActive, a.active = now, true
	} else {
		A.list.pushTail(s.queues, qi)
	}
	q.state = stListed
	A.listed++
}

func (s *Scheduler) index(q *TXQ) int32 {
	if q.sta == 0 {
		return int32(q.ac)
	}
	return int32(q.sta)*ieee80211.NumTIDs + int32(q.tid)
}

// unlist takes a queue off whatever AC structure holds it.
func (s *Scheduler) unlist(q *TXQ) {
	A := &s.acs[q.ac]
	switch q.state {
	case stListed:
		A.list.remove(s.queues, s.index(q))
	case stBlocked:
		A.block.remove(s.queues, s.index(q))
	case stWait:
		// The station's wheel entry may outlive it; a release skips
		// queues that are no longer waiting.
	default:
		q.state = stIdle
		return
	}
	q.state = stIdle
	A.listed--
}

// StartRound is ieee80211_txq_schedule_start: it asks Airtime.PHYAllows
// whether the AC may be served and opens a round if so. A closed round leaves
// the round number alone unless LegacyRoundReset is set.
func (s *Scheduler) StartRound(ac ieee80211.AC, now time.Duration) {
	A := &s.acs[ac&3]
	if s.prod {
		s.recheckBlocked(ac & 3)
	}
	ok := s.air.PHYAllows(ac&3, A.listed)
	switch {
	case s.cfg.LegacyRoundReset && !ok:
		A.round = 0
	case ok && s.prod:
		A.round++
	case ok:
		// u16 with 0 reserved, as schedule_round[ac].
		A.round = uint64(uint16(A.round + 1))
		if A.round == 0 {
			A.round = 1
		}
	}
	A.open, A.first = ok, ok
	if ok {
		A.stats.RoundsOpened++
	} else {
		A.stats.RoundsClosed++
	}
}

// Next is ieee80211_next_txq: the next queue to serve in the current round,
// or false when the round is closed or over. The caller dequeues from it and
// must then call Return.
func (s *Scheduler) Next(ac ieee80211.AC, now time.Duration) (*TXQ, bool) {
	A := &s.acs[ac&3]
	var q *TXQ
	if A.open {
		if s.prod {
			q = s.prodNext(ac & 3)
		} else {
			q = s.traceNext(ac & 3)
		}
	}
	A.first = false
	if q == nil {
		return nil, false
	}
	A.stats.Selections++
	if q.frames == 0 {
		A.stats.IdleSelections++
	}
	return q, true
}

// checkout hands a listed queue to the caller, stamped with the round.
func (s *Scheduler) checkout(A *acState, q *TXQ) *TXQ {
	A.list.remove(s.queues, s.index(q))
	A.listed--
	q.state, q.stamp = stOut, A.round
	return q
}

// roundEnd is reached when the first eligible queue was already served in
// this round. On a round's first Next that can only be a stale stamp.
func (s *Scheduler) roundEnd(A *acState, q *TXQ) {
	if A.first && (q.frames > 0 || s.eligibleBacklogged(q.ac)) {
		A.stats.Skipped++
		A.stats.SkippedStale++
	}
}

// Return is ieee80211_return_txq: it gives back a queue obtained from Next.
// force says the caller still holds frames of this queue (the queue is kept
// listed even if empty).
func (s *Scheduler) Return(q *TXQ, force bool, now time.Duration) {
	if q.state != stOut {
		return
	}
	q.state = stIdle
	s.schedule(q, force, now)
}

// EndRound is ieee80211_txq_schedule_end; it only ends the bookkeeping of
// the round's first Next.
func (s *Scheduler) EndRound(ac ieee80211.AC) { s.acs[ac&3].first = false }

// Charge is ieee80211_sta_register_airtime: at a frame's completion the
// station is charged the airtime actually used, but only if it was active in
// the last 100 ms, so idle stations do not build up debt. Call it for every
// completion of a station's frame (airtime 0 for an echo-less completion):
// production mode also re-checks an AQL-blocked station here.
func (s *Scheduler) Charge(sta uint16, ac ieee80211.AC, airtimeUS uint32, now time.Duration) {
	if sta == 0 || int(sta) >= len(s.stas) || !s.stas[sta].present {
		return
	}
	ac &= 3
	a := s.airOf(sta, ac)
	a.txAirtime += uint64(airtimeUS)
	s.acs[ac].stats.Airtime += uint64(airtimeUS)
	if a.recent(now) {
		if s.prod {
			s.realize(sta, ac, a)
			a.def -= int64(airtimeUS)
		} else {
			a.def = int64(int32(a.def) - int32(airtimeUS))
		}
	}
	if s.prod {
		s.prodCharged(sta, ac, a)
	}
}
