package ap

import (
	"encoding/binary"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

// HandleWired takes one 802.3 frame from the TAP. The core copies what it
// keeps; every frame ends as sent, dropped with a reason, or queued.
func (a *AP) HandleWired(now time.Duration, eth []byte) {
	a.cnt.WiredIn++
	if len(eth) < 14 {
		a.cnt.DownlinkIn++
		a.cnt.WiredDroppedMalformed++
		return
	}
	da, sa := ieee80211.MAC(eth[0:6]), ieee80211.MAC(eth[6:12])
	a.enqueueEthernet(now, da, sa, binary.BigEndian.Uint16(eth[12:14]), eth[14:])
	a.txLoop(now)
}

// enqueueEthernet queues an MSDU for the BSS: group-addressed frames go out
// at once at the basic rate, unicast ones into their station's queue.
func (a *AP) enqueueEthernet(now time.Duration, da, sa ieee80211.MAC, etherType uint16, payload []byte) {
	a.cnt.DownlinkIn++
	if len(payload)+14 > slabSize-headroom-8 {
		a.cnt.WiredDroppedMalformed++
		return
	}
	var slot uint16
	var s *station
	if !da.IsMulticast() {
		slot, s = a.sta.lookup(da)
		if s == nil || s.state != stateAssociated {
			a.cnt.WiredDroppedNoStation++
			return
		}
	} else if a.sta.count(stateAssociated) == 0 {
		a.cnt.WiredDroppedNoStation++
		return
	}
	h, ok := a.pool.get()
	if !ok {
		a.cnt.WiredDroppedNoBuffer++
		return
	}
	b := a.pool.slab(h)[headroom:headroom]
	b = append(b, da[:]...)
	b = append(b, sa[:]...)
	b = binary.BigEndian.AppendUint16(b, etherType)
	b = append(b, payload...)
	if da.IsMulticast() {
		a.sendGroup(now, h, len(b))
		return
	}
	tid := uint8(0)
	if s.qos {
		tid = classify(etherType, payload)
	}
	if !s.q.push(h, len(b), tid) {
		a.pool.put(h)
		a.cnt.WiredDroppedQueue++
		s.TxQueueDrops++
		return
	}
	a.backlog++
	a.markActive(slot)
}

// classify returns the user priority of an MSDU from its DSCP, as Linux's
// cfg80211_classify8021d does.
func classify(etherType uint16, payload []byte) uint8 {
	switch etherType {
	case 0x0800:
		if len(payload) >= 2 {
			return ieee80211.DSCPToTID(payload[1] >> 2)
		}
	case 0x86dd:
		if len(payload) >= 2 {
			tc := payload[0]<<4 | payload[1]>>4
			return ieee80211.DSCPToTID(tc >> 2)
		}
	}
	return 0
}

// buildData turns the 802.3 frame in slab h (at headroom, n bytes) into
// radiotap + 802.11 data + LLC/SNAP in place and returns the frame.
func (a *AP) buildData(h uint32, n int, p radio.TxParams, qos bool, tid uint8, seq uint16) []byte {
	slab := a.pool.slab(h)
	eth := slab[headroom : headroom+n]
	var da, sa ieee80211.MAC
	copy(da[:], eth[0:6])
	copy(sa[:], eth[6:12])
	etherType := binary.BigEndian.Uint16(eth[12:14])
	hdrLen := 24
	if qos {
		hdrLen = 26
	}
	// The SNAP header ends where the 802.3 type field ends, so the payload
	// stays where it is.
	snap := headroom + 14 - 8
	start := snap - hdrLen - radiotap.TxHeaderLen(p)
	b := radiotap.AppendTx(slab[start:start], p)
	b = ieee80211.AppendDataHeader(b, ieee80211.DataHeader{
		Flags: ieee80211.FCFromDS, Addr1: da, Addr2: a.cfg.BSSID, Addr3: sa, Seq: seq, QoS: qos, TID: tid,
	})
	b = ieee80211.AppendLLCSNAP(b, etherType)
	return slab[start : headroom+n]
}

// sendGroup transmits a group-addressed MSDU now: nobody ACKs it, so it goes
// at the lowest basic rate (multicast buffering for dozing stations comes
// with power save).
func (a *AP) sendGroup(now time.Duration, h uint32, n int) {
	p := radio.TxParams{Rate: a.rates.lowestBasic(), Flags: radio.TxNoAck}
	b := a.buildData(h, n, p, false, 0, a.nextMgmtSeq())
	fr := ieee80211.Frame(b[radiotap.TxHeaderLen(p):])
	a.register(ieee80211.ACBE, flight{addr1: fr.Addr1(), seqCtl: fr.SeqCtl(), tid: tidMgmt, sent: now, bytes: n})
	a.cnt.WiredSent++
	a.emitRadio(h, b)
}
