package ap

import (
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// tidMgmt keys management and non-QoS frames in the in-flight records.
const tidMgmt = 0xff

// flight is the record of one frame handed to the radio, registered before
// the write because its echo can arrive before the write returns.
//
// register writes the record's fields but leaves subs alone: only an
// A-MSDU uses it, up to nsubs, and clearing its 128 bytes for every frame
// would be most of the cost of registering one.
type flight struct {
	flightFields
	subs [maxSubframes]uint32 // an A-MSDU's MSDU slabs; the first nsubs hold
}

// flightFields is what register sets for every frame.
type flightFields struct {
	addr1  ieee80211.MAC
	seqCtl uint16
	tid    uint8
	slot   uint16 // station slot, 0 for group and management frames
	data   bool   // an MSDU from the downlink
	bytes  int    // MSDU bytes (802.3 payload and header) for the counters
	psdu   int    // 802.11 frame length, for the airtime charge
	rate   radio.Rate
	sent   time.Duration
	tok    aql.Token // pending airtime; never copied after Add
	air    uint32    // one attempt's airtime at rate (pend); 0: not estimated
	// slab holds the frame of an MSDU or poll until it completes, so a
	// frame that failed while its station dozed can be buffered again.
	slab    uint32
	hasSlab bool
	beacon  bool
	tbtt    time.Duration // a beacon's target transmission time
	// An A-MSDU's record holds a big slab and the slabs of its MSDUs.
	big   bool
	nsubs uint8
	// done marks a record completed out of order (its frame was refused):
	// it stays as a placeholder so the rest keep their send order.
	done bool
	// replyCost is the airtime of one attempt of a reply; its retries are
	// charged to its class of the reply budget when the echo tells how
	// many there were.
	replyCost   uint32
	replyClass  bss.ReplyClass
	replyPooled bool  // the shared pool paid for it: so it pays for its retries
	mlme        uint8 // an authentication or association response (admit.go)
	// from is the index in AP.bsses of the BSS that sent it (its Addr2):
	// each BSS numbers its frames itself, so an echo matches only its own
	// BSS's records, and a reply's retries are charged to that BSS's
	// budget.
	from uint8
	ref  flightRef
}

// flightRef names a record for as long as it is in its ring: its AC and
// its serial number there.
type flightRef struct {
	ac     ieee80211.AC
	serial uint64
}

// flightRing keeps one AC's records in send order; the hardware completes
// frames of a queue in order, so the echo normally matches the oldest.
type flightRing struct {
	r          []flight
	head, size int
	base       uint64 // serial of the oldest record; the others follow it
}

func newFlightRing(n int) flightRing { return flightRing{r: make([]flight, n)} }

// at is the record i after the oldest, i < len(f.r).
func (f *flightRing) at(i int) *flight {
	j := f.head + i
	if j >= len(f.r) { // head and i are below len: no division needed
		j -= len(f.r)
	}
	return &f.r[j]
}

func (f *flightRing) oldest() (time.Duration, bool) {
	if f.size == 0 {
		return 0, false
	}
	return f.r[f.head].sent, true
}

// acOf returns the hardware queue mac80211 puts a frame on: management to VO,
// QoS data by TID, other data to BE (net/mac80211/wme.c).
func acOf(fr ieee80211.Frame) (ieee80211.AC, uint8) {
	if fr.Type() != ieee80211.TypeData {
		return ieee80211.ACVO, tidMgmt
	}
	if fr.IsQoS() {
		tid := fr.TID()
		return ieee80211.TIDToAC(tid), tid
	}
	return ieee80211.ACBE, tidMgmt
}

// pend estimates one attempt of rec's frame at its rate, keeps the figure
// for the completion's charge and adds it to the station's pending
// airtime.
func (a *AP) pend(rec *flight, slot uint16, ac ieee80211.AC) {
	rec.air = a.est.Airtime(rec.rate, ac, rec.psdu)
	rec.tok = a.air.Add(slot, ac, rec.air)
}

// attemptAirtime is the airtime of one attempt of rec's frame at the rate
// its echo reports (ModeNone: none, so the rate asked for): the estimate
// pend made, unless a driver that ignored the rate asked for tells the one
// it used.
func (a *AP) attemptAirtime(rec *flight, ac ieee80211.AC, reported radio.Rate) uint32 {
	r := rec.rate
	if reported.Mode != radio.ModeNone {
		r = reported
	}
	if rec.air != 0 && (reported.Mode == radio.ModeNone || r == rec.rate) {
		return rec.air
	}
	return a.est.Airtime(r, ac, rec.psdu)
}

// register records a frame about to be written and returns the record so
// the caller can add its pending airtime. When the ring is full the oldest
// record completes as "no status" to make room.
func (a *AP) register(ac ieee80211.AC, fr ieee80211.Frame, tid uint8, slot uint16, data bool, bytes int, rate radio.Rate, now time.Duration) *flight {
	f := &a.flights[ac]
	if f.size == len(f.r) {
		if !f.at(0).done {
			a.cnt[counter.NoStatus]++
		}
		a.completeOldest(ac, nil, now)
	}
	rec := f.at(f.size)
	// Cleared in place, then set: a composite literal would be built on
	// the stack and copied.
	rec.flightFields = flightFields{}
	rec.addr1, rec.seqCtl, rec.tid, rec.slot, rec.data, rec.bytes = fr.Addr1(), fr.SeqCtl(), tid, slot, data, bytes
	rec.psdu, rec.rate, rec.sent, rec.from = len(fr), rate, now, a.senderOf(fr)
	rec.ref = flightRef{ac: ac, serial: f.base + uint64(f.size)}
	f.size++
	return rec
}

// senderOf returns the index in AP.bsses of the BSS that sends fr, one of
// the radio's own frames: the BSS whose BSSID is its transmitter.
func (a *AP) senderOf(fr ieee80211.Frame) uint8 {
	ta := fr.Addr2()
	for i, b := range a.bsses {
		if b.BSSID == ta {
			return uint8(i)
		}
	}
	return 0
}

// completeOldest completes the oldest record of ac; st is its TX status, or
// nil when none will come.
func (a *AP) completeOldest(ac ieee80211.AC, st *radio.TxStatus, now time.Duration) {
	f := &a.flights[ac]
	a.complete(ac, f.at(0), st, now)
	if f.head++; f.head == len(f.r) {
		f.head = 0
	}
	f.size--
	f.base++
}

// byRef returns the record ref names, or nil once it has left its ring.
func (a *AP) byRef(ref flightRef) *flight {
	f := &a.flights[ref.ac]
	if ref.serial < f.base || ref.serial-f.base >= uint64(f.size) {
		return nil
	}
	return f.at(int(ref.serial - f.base))
}

// complete ends a record: its pending airtime is released, the station is
// charged the airtime the exchange really used (rate x attempts; nothing is
// known of a frame without status) and its counters move.
func (a *AP) complete(ac ieee80211.AC, rec *flight, st *radio.TxStatus, now time.Duration) {
	if rec.done {
		return
	}
	a.air.Complete(&rec.tok)
	a.countTxBusy(ac, rec, st)
	if rec.beacon {
		if st != nil {
			a.beacons.echoed(now - rec.tbtt)
		}
		if int(rec.from) < len(a.radios) {
			a.radios[rec.from].dtimOnAir = false // its group frames follow (groupbuf.go)
		}
	}
	if rec.replyCost != 0 && st != nil {
		a.bsses[rec.from].Replies.Charge(rec.replyClass, rec.replyPooled, float64(rec.replyCost)*float64(st.Retries))
	}
	if rec.mlme != mlmeNone {
		a.mlmeStatus(now, rec, st)
	}
	if rec.hasSlab {
		rec.hasSlab = false
		a.completeSlab(rec, st, now)
	}
	if rec.slot == 0 || !rec.data {
		return
	}
	s := &a.sta.slots[rec.slot]
	if s.State != bss.StateAssociated || s.Addr != rec.addr1 {
		return // the station left; its slot may already be someone else's
	}
	// A driver that ignored the rate we asked for tells the one it used.
	r := rec.rate
	if st != nil && st.Rate.Mode != radio.ModeNone {
		r = st.Rate
	}
	var charge uint32
	if st != nil {
		charge = a.attemptAirtime(rec, ac, st.Rate) * (uint32(st.Retries) + 1)
		if s.rc != nil {
			s.rc.Report(r, int(st.Retries)+1, st.Acked, now)
		}
	}
	a.sched.Charge(rec.slot, ac, charge, now)
	s.TxAirtime += uint64(charge)
	switch {
	case st == nil:
		s.TxNoStatus++
	case st.Acked:
		s.TxPackets++
		s.TxBytes += uint64(rec.bytes)
		s.TxRetries += uint64(st.Retries)
	default:
		s.TxFailed++
		s.TxRetries += uint64(st.Retries)
	}
}

// completeSlab settles the frame a record held: an MSDU is sent or failed
// (or buffered again for a dozing station), a poll proves a station alive.
func (a *AP) completeSlab(rec *flight, st *radio.TxStatus, now time.Duration) {
	if rec.big {
		a.completeAMSDU(rec, st, now)
		return
	}
	h := rec.slab
	acked := st != nil && st.Acked
	if a.slabPoll[h] {
		a.slabPoll[h] = false
		a.pool.put(h)
		a.pollDone(now, rec.slot, rec.addr1, acked)
		return
	}
	a.inflight--
	if a.slabEAPOL[h] && st != nil {
		a.eapolStatus(now, rec.slot, rec.addr1, acked)
	}
	switch {
	case acked || st == nil:
		a.cnt[counter.WiredSent]++
	case a.rebuffer(rec, now):
		a.cnt[counter.Rebuffered]++
		return
	default:
		a.cnt[counter.WiredTxFailed]++
	}
	a.pool.put(h)
}

// handleEcho matches the TX-status echo of frame fr against the records of
// its AC: the oldest record with the same key completes with st, and records
// older than it complete as "no status" (their echoes were lost).
func (a *AP) handleEcho(now time.Duration, fr ieee80211.Frame, st *radio.TxStatus) {
	a.cnt[counter.Echoes]++
	ac, tid := acOf(fr)
	addr1, seqCtl, from := fr.Addr1(), fr.SeqCtl(), a.senderOf(fr)
	f := &a.flights[ac]
	for i := 0; i < f.size; i++ {
		r := f.at(i)
		if r.done || r.addr1 != addr1 || r.seqCtl != seqCtl || r.tid != tid || r.from != from {
			continue
		}
		for ; i > 0; i-- {
			if !f.at(0).done {
				a.cnt[counter.NoStatus]++
			}
			a.completeOldest(ac, nil, now)
		}
		if addr1.IsMulticast() || st.Flags&radio.TxNoAck != 0 {
			st.Acked = true // nobody ACKs these; the echo only says it went out
		}
		if st.Acked {
			a.cnt[counter.EchoAcked]++
		} else {
			a.cnt[counter.EchoFailed]++
		}
		a.completeOldest(ac, st, now)
		return
	}
	a.cnt[counter.EchoUnmatched]++
}

// expireFlights completes records older than the echo timeout. A late echo
// then finds no record and is counted as unmatched, never completing twice.
func (a *AP) expireFlights(now time.Duration) {
	for ac := range a.flights {
		f := &a.flights[ac]
		for f.size > 0 && (f.at(0).done || now-f.at(0).sent >= a.cfg.EchoTimeout) {
			if !f.at(0).done {
				a.cnt[counter.TimedOut]++
			}
			a.completeOldest(ieee80211.AC(ac), nil, now)
		}
	}
}

// notSent completes the record of radio output frame i, which the radio
// refused, at once and without status, rather than holding its airtime
// until the timeout.
func (a *AP) notSent(now time.Duration, i int) {
	a.cnt[counter.NotSent]++
	ref := a.out.refs[i]
	r := a.byRef(ref)
	if r == nil {
		return // the ring made room for newer records: it completed already
	}
	// Complete it in place: later records stay in send order.
	a.complete(ref.ac, r, nil, now)
	r.flightFields = flightFields{sent: r.sent, done: true}
}
