package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ackmiss"
	"github.com/airq/airq/internal/ieee80211"
)

// bssOps is what operators see of one of the radio's BSSes beside the
// BSS's own books (bss.Counts): its names, the traffic of its stations
// that have left (the present ones' is summed when read, so the data path
// does no more work for it) and the watch for unicast frames to its BSSID
// that nobody ACKs.
type bssOps struct {
	// name, holder and tap are its Config's (or BSSConfig's) Name, Holder
	// and TAP.
	name, holder, tap string
	left              StationCounters
	ack               *ackmiss.Watch
	// wiredIn are the frames from its wired side (HandleWired), wiredOut
	// those the core queued for it: counted where the frames already
	// carry their BSS's index.
	wiredIn, wiredOut uint64
	// warnedAt is when the last EventUnacked of the BSS went out, and
	// warned whether one has; reported the watch's Unanswered then.
	warnedAt time.Duration
	warned   bool
	reported uint64
}

// unackedEvery spaces a BSS's EventUnacked: the log says it once a
// minute at most, the counter says how often.
const unackedEvery = time.Minute

// newBSSRadio makes BSS b's view of the radio, with its counters; name,
// holder and tap are its configuration's.
func (a *AP) newBSSRadio(b *bss.BSS, maxStations int, name, holder, tap string) *bssRadio {
	r := &bssRadio{a: a, b: b, maxStations: maxStations}
	r.ops.name, r.ops.holder, r.ops.tap = name, holder, tap
	r.ops.ack = ackmiss.New(ackmiss.Threshold, bss.BSSIDSeed(b.BSSID))
	return r
}

// watchAck feeds a unicast management or data frame from the air to the
// watch of the BSS it is addressed to, before anything drops it as a
// duplicate: a station that never hears an ACK sends the same frame again
// and again, Retry set.
func (a *AP) watchAck(now time.Duration, fr ieee80211.Frame) {
	to := fr.Addr1()
	for i, b := range a.bsses {
		if b.BSSID != to {
			continue
		}
		st := &a.radios[i].ops
		if st.ack.Frame(fr.Addr2(), fr.SeqCtl(), fr.Retry()) {
			a.unanswered(now, i, st)
		}
		return
	}
}

// unanswered reports a BSS whose frames go unacknowledged, at most once
// per unackedEvery: the sign of hardware that does not ACK its BSSID.
func (a *AP) unanswered(now time.Duration, i int, st *bssOps) {
	if st.warned && now-st.warnedAt < unackedEvery {
		return
	}
	n := st.ack.Counts().Unanswered
	st.warned, st.warnedAt = true, now
	a.event(Event{At: now, Kind: EventUnacked, Addr: a.bsses[i].BSSID, BSS: a.bssName(i), Count: n - st.reported})
	st.reported = n
}

// stationLeft adds the counters of a station that leaves the table to its
// BSS's.
func (a *AP) stationLeft(s *station) {
	a.radioOf(s.bss).ops.left.add(&s.StationCounters)
}

func (c *StationCounters) add(o *StationCounters) {
	c.RxBytes += o.RxBytes
	c.RxPackets += o.RxPackets
	c.TxBytes += o.TxBytes
	c.TxPackets += o.TxPackets
	c.TxRetries += o.TxRetries
	c.TxFailed += o.TxFailed
	c.TxNoStatus += o.TxNoStatus
	c.RxDuplicates += o.RxDuplicates
	c.TxQueueDrops += o.TxQueueDrops
	c.TxAirtime += o.TxAirtime
	c.RxAirtime += o.RxAirtime
	c.AMSDUs += o.AMSDUs
	c.AMSDUSubframes += o.AMSDUSubframes
	c.AMSDUBytes += o.AMSDUBytes
	c.RxDroppedUnauthorize += o.RxDroppedUnauthorize
}

// bssTraffic is what BSS i's stations sent and received since the radio
// started: those that left, and those in the table now.
func (a *AP) bssTraffic(i int) StationCounters {
	c := a.radios[i].ops.left
	b := a.bsses[i]
	for slot := range a.sta.used() {
		if s := &a.sta.slots[slot]; s.bss == b {
			c.add(&s.StationCounters)
		}
	}
	return c
}

// bssName is BSS i's name ("" when the configuration gave none).
func (a *AP) bssName(i int) string { return a.radios[i].ops.name }

// bssNamed is the index of the BSS named name.
func (a *AP) bssNamed(name string) (int, bool) {
	for i := range a.bsses {
		if a.bssName(i) == name {
			return i, true
		}
	}
	return 0, false
}

// stationBSS is the name of the BSS of the station addr ("" when it has
// none in the table, or its BSS no name).
func (a *AP) stationBSS(addr ieee80211.MAC) string {
	if _, s := a.sta.lookup(addr); s != nil {
		return a.bssName(int(a.indexOf(s.bss)))
	}
	return ""
}
