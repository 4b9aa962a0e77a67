package txq

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

type station struct {
	present, paused, slow bool
	group                 uint8
	weight                int32
}

// air is a station's airtime state on one AC: mac80211's struct airtime_info
// plus production mode's filing (prod.go).
type air struct {
	def        int64 // stored deficit, µs
	lastActive time.Duration
	active     bool // lastActive has been set
	// competing: a queue of the station's on this AC is listed or out, as
	// GroupShares last booked it (share.go).
	competing bool
	txAirtime uint64

	// Production: def is as of the filing at lap fLap; the walk's passes
	// over the station's listed queues since then have refilled it, up to
	// need passes. The walk will stop at queue kq on lap kLap, and the
	// station waits for that in heap hp (-1: none).
	fLap, need int64
	kLap       int64
	kq         int32
	hp         int8
	// hbase is the first heap of the station's group (group.hbase).
	hbase int8
	// The station's queues of this AC that are listed and checked out,
	// one bit per TID (acTIDs order).
	listed, out uint8
}

type acState struct {
	round uint64
	open  bool
	first bool // the next Next is the round's first
	// list is the kernel's list: in trace mode in the kernel's order, in
	// production mode the cycle in label order with the cursor before front
	// on lap lap.
	list  qlist
	front int32
	lap   int64
	// listed counts the queues on the list: what PHYAllows sees.
	// Checked-out queues are not counted.
	listed int
	// heaps: production's stations with a listed queue, by where the walk
	// will stop for them, for each answer of the per-station check that
	// may let them through: the stations of uncapped groups share the
	// first pair, each capped group has its own (group.go).
	heaps [numHeaps * (1 + MaxGroups)]stationHeap
	// filled has a bit for each heap with entries.
	filled uint32
	// changed has a bit for each heap written since nextShared's last
	// call, which keeps them in order.
	changed uint32
	order   topOrder
	stats   ACStats
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
	hpos   []int32 // production: each air's position in its heap
	acs    [ieee80211.NumACs]acState
	numSta int
	// listedACs has bit ac set while acs[ac].listed > 0 (ListedACs).
	listedACs uint8

	// now is the time of the Next being served, which caps are held at.
	now time.Duration

	groups  [MaxGroups]group
	capped  [MaxGroups]uint8 // the capped groups, the first ncapped
	ncapped int
	// owned is the set of groups with heaps of their own (hbase != 0);
	// members counts each group's stations.
	owned   uint8
	members [MaxGroups]int

	// shares is Config.GroupShares, read through gair (share.go);
	// sharingACs has a bit for each AC on which two or more groups compete
	// with it, kept by compete.
	shares     bool
	sharingACs uint8
	gair       GroupAirtime
	share      [ieee80211.NumACs]shareState

	fq
	clk codelClock
}

// tidSlot is a TID's bit in air.listed and air.out: its place in acTIDs.
var tidSlot = func() (s [ieee80211.NumTIDs]uint8) {
	for ac := range acTIDs {
		for i, tid := range acTIDs[ac] {
			s[tid] = uint8(i)
		}
	}
	return s
}()

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
	s := &Scheduler{cfg: cfg, air: cfg.Airtime, own: cfg.Owner, prod: cfg.Mode == Production, shares: cfg.GroupShares}
	if s.shares {
		s.gair = cfg.Airtime.(GroupAirtime) // fill checked it
		for g := range uint8(MaxGroups) {
			s.groups[g].hbase = s.hbaseOf(g)
		}
		s.owned = s.ownHeaps()
	}
	nq := (cfg.MaxStations + 1) * ieee80211.NumTIDs
	s.queues = make([]TXQ, nq)
	s.stas = make([]station, cfg.MaxStations+1)
	s.airs = make([]air, (cfg.MaxStations+1)*ieee80211.NumACs)
	s.fq.init(&cfg, nq)
	for i := range s.queues {
		q := &s.queues[i]
		q.sta, q.tid = uint16(i/ieee80211.NumTIDs), uint8(i%ieee80211.NumTIDs)
		q.ac, q.bit = ieee80211.TIDToAC(q.tid), 1<<tidSlot[q.tid]
		if q.sta == 0 {
			q.tid, q.ac = nonStationTID, ieee80211.AC(i%ieee80211.NumACs)
		}
		q.prev, q.next, q.bPrev, q.bNext = -1, -1, -1, -1
		q.newFlows, q.oldFlows = emptyList, emptyList
		q.defFlow = int32(cfg.Flows + i)
	}
	s.hpos = make([]int32, len(s.airs))
	for i := range s.airs {
		s.airs[i].hp = -1
	}
	for ac := range s.acs {
		a := &s.acs[ac]
		a.list, a.front = emptyList, -1
		if s.prod {
			for h := range numHeaps {
				a.heaps[h].init(cfg.MaxStations)
			}
		}
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
