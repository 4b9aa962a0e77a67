package ap

import (
	"encoding/binary"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/txq"
)

// HandleWired takes one 802.3 frame from the TAP of BSS bss (0 the first,
// i Config.BSSes[i-1]): it reaches that BSS's stations alone. The core
// copies what it keeps; every frame ends as sent, dropped with a reason,
// or queued.
func (a *AP) HandleWired(now time.Duration, bss int, eth []byte) {
	a.cnt[counter.WiredIn]++
	if uint(bss) < uint(len(a.radios)) {
		a.radios[bss].ops.wiredIn++
	}
	if a.disabled {
		a.cnt[counter.DownlinkIn]++
		a.cnt[counter.WiredDroppedNoStation]++
		return
	}
	if len(eth) < 14 || uint(bss) >= uint(len(a.bsses)) {
		a.cnt[counter.DownlinkIn]++
		a.cnt[counter.WiredDroppedMalformed]++
		return
	}
	da, sa := ieee80211.MAC(eth[0:6]), ieee80211.MAC(eth[6:12])
	a.enqueueEthernet(now, uint8(bss), da, sa, binary.BigEndian.Uint16(eth[12:14]), eth[14:])
	a.txLoop(now)
}

// enqueueEthernet queues an MSDU for BSS bi (its index in bsses), from its
// wired side or relayed from one of its stations: unicast into its
// station's TID queue, group-addressed into the non-station queue (sent at
// the basic rate from the BSS's BSSID). Nothing reaches another BSS's
// stations.
func (a *AP) enqueueEthernet(now time.Duration, bi uint8, da, sa ieee80211.MAC, etherType uint16, payload []byte) {
	if da.IsMulticast() && a.radios[bi].toUnicast && a.bsses[bi].Associated > 0 && toUnicast(etherType) {
		a.multicastToUnicast(now, bi, sa, etherType, payload)
		return
	}
	a.cnt[counter.DownlinkIn]++
	if len(payload)+14 > MaxWiredFrame {
		a.cnt[counter.WiredDroppedMalformed]++
		return
	}
	if etherType == etherTypeEAPOL && a.radios[bi].rsn != nil {
		// With WPA2 the authenticator is the only source of EAPOL
		// towards stations.
		a.cnt[counter.WiredDroppedUnauthorized]++
		return
	}
	var slot uint16
	tid := uint8(0)
	if !da.IsMulticast() {
		var s *station
		slot, s = a.sta.lookup(da)
		if s == nil || s.State != bss.StateAssociated || s.bssIdx != bi {
			a.cnt[counter.WiredDroppedNoStation]++
			return
		}
		if !s.Authorized && etherType != etherTypeEAPOL {
			a.cnt[counter.WiredDroppedUnauthorized]++
			return
		}
		if s.QoS {
			tid = classify(etherType, payload)
		}
	} else {
		if a.bsses[bi].Associated == 0 {
			a.cnt[counter.WiredDroppedNoStation]++
			return
		}
		slot = 0 // the group queue, sent from the BSS's BSSID
	}
	a.queueMSDU(now, slot, tid, da, sa, etherType, payload, false, bi)
}

// queueMSDU copies an MSDU into a slab and queues it on slot's TID queue
// (slot 0: the group frames of the BSS whose index group is, queueGroup);
// eapol marks the authenticator's frames.
func (a *AP) queueMSDU(now time.Duration, slot uint16, tid uint8, da, sa ieee80211.MAC, etherType uint16, payload []byte, eapol bool, group uint8) {
	h, ok := a.pool.get()
	if !ok {
		a.cnt[counter.WiredDroppedNoBuffer]++
		return
	}
	b := a.pool.slab(h)[headroom:headroom]
	b = append(b, da[:]...)
	b = append(b, sa[:]...)
	b = binary.BigEndian.AppendUint16(b, etherType)
	b = append(b, payload...)
	a.slabSlot[h], a.slabLen[h], a.slabEAPOL[h], a.slabGroup[h] = slot, uint16(len(b)), eapol, group
	a.backlog++
	if slot == 0 {
		a.queueGroup(now, group, h, len(b))
		return
	}
	if !a.sched.Enqueue(slot, tid, itemFor(h, b), now) {
		a.backlog--
		a.pool.put(h)
		a.cnt[counter.WiredDroppedNoStation]++
	}
}

// etherTypeEAPOL passes the controlled port before authorization: it is
// what an authenticator's key handshake runs on.
const etherTypeEAPOL = 0x888e

// toUnicast lists the EtherTypes mac80211 converts (ARP, IPv4, IPv6).
func toUnicast(etherType uint16) bool {
	return etherType == 0x0806 || etherType == 0x0800 || etherType == 0x86dd
}

// multicastToUnicast sends a group-addressed MSDU as one unicast copy per
// associated station of BSS bi (but its sender), addressed to the station as
// mac80211's multicast_to_unicast does: each copy goes at that station's
// rate and is acknowledged, instead of one copy at the lowest basic rate.
func (a *AP) multicastToUnicast(now time.Duration, bi uint8, sa ieee80211.MAC, etherType uint16, payload []byte) {
	copies := 0
	for slot := range a.sta.used() {
		s := &a.sta.slots[slot]
		if s.State == bss.StateAssociated && s.Addr != sa && s.bssIdx == bi {
			a.enqueueEthernet(now, bi, s.Addr, sa, etherType, payload)
			copies++
		}
	}
	if copies == 0 {
		a.cnt[counter.DownlinkIn]++
		a.cnt[counter.WiredDroppedNoStation]++
	}
}

// Mark is txq.Owner.Mark: ECN CE on the queued frame, if it is capable.
func (a *AP) Mark(h txq.Handle) bool {
	eth := a.pool.slab(uint32(h))[headroom:]
	return markCE(binary.BigEndian.Uint16(eth[12:14]), eth[14:])
}

// itemOf describes the 802.3 frame of n bytes in slab h for the scheduler.
func (a *AP) itemOf(h uint32, n int) txq.Item {
	return itemFor(h, a.pool.slab(h)[headroom:headroom+n])
}

// itemFor is itemOf for the 802.3 frame eth, held in slab h.
func itemFor(h uint32, eth []byte) txq.Item {
	n := len(eth)
	var hash uint32
	if n >= 14 {
		hash = flowHash(binary.BigEndian.Uint16(eth[12:14]), eth[14:])
	}
	return txq.Item{Handle: txq.Handle(h), Len: uint32(n), Hash: hash}
}

// dequeued moves a frame from the queues to the radio's hands.
func (a *AP) dequeued(h uint32) {
	if a.slabPoll[h] {
		a.polls--
		return
	}
	a.backlog--
	a.inflight++
}

// Drop is txq.Owner.Drop: a queued frame given back for good.
func (a *AP) Drop(h txq.Handle, reason txq.DropReason) {
	if a.slabPoll[h] {
		a.slabPoll[h] = false
		a.polls--
		a.sta.slots[a.slabSlot[h]].polling = false
		a.pool.put(uint32(h))
		return
	}
	a.backlog--
	a.cnt[queueDrops[reason]]++
	if slot := a.slabSlot[h]; slot == 0 {
		a.radios[a.slabGroup[h]].groupQueued--
	} else if reason != txq.DropFlush {
		a.sta.slots[slot].TxQueueDrops++
	}
	a.pool.put(uint32(h))
}

// queueDrops is the counter of each reason the queues drop a frame for.
var queueDrops = [txq.NumDropReasons]counter.ID{
	txq.DropCoDel: counter.WiredDroppedCoDel, txq.DropQueueFull: counter.WiredDroppedQueueFull,
	txq.DropOverlimit: counter.WiredDroppedOverlimit, txq.DropOvermemory: counter.WiredDroppedOvermemory,
	txq.DropFlush: counter.WiredDroppedFlushed,
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
// radiotap + 802.11 data from BSS bssid + LLC/SNAP in place and returns
// the frame; rt is radiotap.TxHeaderLen(p).
func (a *AP) buildData(h uint32, bssid ieee80211.MAC, n int, p radio.TxParams, rt int, qos bool, tid uint8, seq uint16) []byte {
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
	start := snap - hdrLen - rt
	b := a.txh.Append(slab[start:start], p)
	b = ieee80211.AppendDataHeader(b, ieee80211.DataHeader{
		Flags: ieee80211.FCFromDS, Addr1: da, Addr2: bssid, Addr3: sa, Seq: seq, QoS: qos, TID: tid,
	})
	ieee80211.AppendLLCSNAP(b, etherType) // written in place, up to the payload
	return slab[start : headroom+n]
}
