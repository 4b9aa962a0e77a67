package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// handleData takes a data frame from the air: duplicates, fragments and
// frames from strangers are dropped and counted; MSDUs from associated
// stations go to the wired side as 802.3, or straight back into the BSS when
// addressed to another station.
func (a *AP) handleData(now time.Duration, fr ieee80211.Frame) {
	b := a.bssOf(fr.Addr1())
	if !fr.ToDS() || b == nil {
		a.cnt[counter.RxNotForUs]++
		return
	}
	sa := fr.Addr2()
	slot, s := a.sta.lookup(sa)
	if fr.FromDS() {
		a.handle4Addr(now, b, sa, slot, s)
		return
	}
	if !a.admitClass3(now, b, sa, slot, s) {
		return
	}
	if sec := a.rsnOf(s); sec != nil {
		// WPA2: verified before anything of the station changes.
		var ok bool
		if fr, ok = a.unprotect(now, slot, s, sec.scratch, fr); !ok {
			return
		}
	}
	s.lastRx = now
	if a.rx.HasSignal {
		s.signal = a.rx.Signal
		s.signalAvg.add(a.rx.Signal)
	}
	a.countRxAirtime(s, fr)
	// The PM bit counts at the end of a frame exchange, retransmissions
	// included (IEEE 802.11 11.2.3.2).
	if !fr.MoreFrag() {
		a.setPM(now, slot, s, fr.PwrMgt())
	}
	if fr.IsNullData() {
		// No MSDU (a body a no-data subtype carries is not one), and not
		// data: as mac80211's ieee80211_rx_h_check_dup, its Sequence
		// Control is neither checked nor recorded, so that an unprotected
		// Null in a station's name cannot make its next frame a duplicate.
		return
	}
	if a.isDuplicate(s, fr) {
		a.cnt[counter.RxDuplicates]++
		s.RxDuplicates++
		return
	}
	s.RxPackets++
	s.RxBytes += uint64(len(fr))
	a.sawData(now, slot, s)
	if fr.MoreFrag() || fr.Frag() != 0 {
		a.cnt[counter.RxFragments]++
		return
	}
	if fr.Protected() {
		// An open network has no keys: no station that follows the
		// standard sends protected data here.
		a.cnt[counter.RxMalformed]++
		return
	}
	if fr.IsQoS() && fr.AMSDUPresent() {
		a.deaggregate(now, slot, s, fr)
		return
	}
	etherType, payload, ok := ieee80211.Decap(fr.Body())
	if !ok {
		a.cnt[counter.RxMalformed]++
		return
	}
	a.deliverUp(now, slot, s, fr.Addr3(), sa, etherType, payload)
}

// deliverUp takes one MSDU from a station, behind the controlled port:
// before the station is authorized only EAPOL passes; with WPA2 EAPOL goes
// to the authenticator and nowhere else.
func (a *AP) deliverUp(now time.Duration, slot uint16, s *station, da, sa ieee80211.MAC, etherType uint16, payload []byte) {
	if etherType == etherTypeEAPOL && a.rsnOf(s) != nil {
		a.rxEAPOL(now, s, da, payload)
		return
	}
	if !s.Authorized && etherType != etherTypeEAPOL {
		s.RxDroppedUnauthorize++
		a.cnt[counter.RxUnauthorized]++
		return
	}
	a.bridgeUp(now, slot, da, sa, etherType, payload)
}

// handle4Addr drops a 4-address data frame (airq has no WDS stations).
// One from a station associated (or associating) with BSS b is ignored, as
// hostapd ignores it without wds_sta; one from anyone else, a station of
// another BSS of the radio among them, is a class 3 frame from a stranger.
func (a *AP) handle4Addr(now time.Duration, b *bss.BSS, sa ieee80211.MAC, slot uint16, s *station) {
	a.cnt[counter.Rx4Addr]++
	if s != nil && s.bss == b && s.State >= bss.StateAssocPending {
		a.cnt[counter.Rx4AddrDropped]++
		return
	}
	a.admitClass3(now, b, sa, slot, s)
}

// deaggregate takes an A-MSDU from a station apart. Its structure is
// checked first: a subframe that overruns the frame, or a first subframe
// whose DA is an RFC 1042 header (a plain MSDU with the A-MSDU bit flipped,
// CVE-2020-24588), drops the whole A-MSDU, counted, as cfg80211's
// ieee80211_amsdu_to_8023s purges it. Then each MSDU is bridged on its own;
// one that claims another source (a station only sends its own MSDUs: a
// sign of injection) or does not decapsulate is dropped alone, as
// cfg80211 skips a subframe whose SA is not the transmitter's.
func (a *AP) deaggregate(now time.Duration, slot uint16, s *station, fr ieee80211.Frame) {
	it := ieee80211.AMSDUSubframes(fr.Body())
	for it.Next() {
	}
	switch it.Err() {
	case nil:
	case ieee80211.ErrAMSDUInjection:
		a.cnt[counter.RxAMSDUInjected]++
		return
	default:
		a.cnt[counter.RxAMSDUMalformed]++
		return
	}
	it = ieee80211.AMSDUSubframes(fr.Body())
	for it.Next() {
		etherType, payload, ok := ieee80211.Decap(it.Payload())
		if !ok || it.SA() != fr.Addr2() {
			a.cnt[counter.RxMalformed]++
			continue
		}
		a.cnt[counter.RxAMSDUSubframes]++
		a.deliverUp(now, slot, s, it.DA(), it.SA(), etherType, payload)
	}
}

// isDuplicate drops a retransmission of the last frame seen on its TID.
func (a *AP) isDuplicate(s *station, fr ieee80211.Frame) bool {
	i := ieee80211.NumTIDs
	if fr.IsQoS() {
		i = int(fr.TID() & 7)
	}
	sc := fr.SeqCtl()
	if fr.Retry() && s.rxValid[i] && s.rxSeq[i] == sc {
		return true
	}
	s.rxSeq[i], s.rxValid[i] = sc, true
	return false
}

// bridgeUp builds the 802.3 frame da|sa|type|payload and sends it where it
// belongs: another station of the sender's BSS, the BSS's wired side, or
// both for group addresses.
func (a *AP) bridgeUp(now time.Duration, from uint16, da, sa ieee80211.MAC, etherType uint16, payload []byte) {
	if len(payload)+14 > slabSize-headroom {
		a.cnt[counter.RxMalformed]++
		return
	}
	// Within the BSS the AP relays frames itself, unless the BSS isolates
	// its stations from each other (its ap_isolate): then everything goes
	// to its wired side. Nothing crosses from one BSS to another over the
	// air: a frame to a station of another BSS goes to the sender's BSS's
	// wired side, and a group frame is relayed within the sender's BSS
	// alone. A station's frame to itself is not reflected back (mac80211's
	// ieee80211_deliver_skb).
	src := a.sta.slots[from].bssIdx
	if !a.radios[src].isolate {
		if !da.IsMulticast() {
			if _, dst := a.sta.lookup(da); dst != nil && da != sa && dst.State == bss.StateAssociated && dst.bssIdx == src {
				a.cnt[counter.RxIntraBSS]++
				a.enqueueEthernet(now, src, da, sa, etherType, payload)
				return
			}
		} else if a.bsses[src].Associated > 1 {
			a.enqueueEthernet(now, src, da, sa, etherType, payload)
		}
	}
	h, ok := a.pool.get()
	if !ok {
		a.cnt[counter.RxToWiredDropped]++
		return
	}
	b := a.pool.slab(h)[:0]
	b = append(b, da[:]...)
	b = append(b, sa[:]...)
	b = append(b, byte(etherType>>8), byte(etherType))
	b = append(b, payload...)
	a.cnt[counter.RxToWired]++
	if src == 0 {
		a.emitWired(h, b)
	} else {
		a.emitWiredTo(src, h, b)
	}
}

// countRxAirtime charges the medium time a station's frame took, as
// mac80211 estimates "rx duration" when the driver reports none: every
// received frame used the air, duplicates included.
func (a *AP) countRxAirtime(s *station, fr ieee80211.Frame) {
	r := a.rx.Rate
	if r == (radio.Rate{}) {
		return // radiotap named no rate: nothing to estimate from
	}
	s.rxRate = r
	ac := ieee80211.ACBE
	if fr.IsQoS() {
		ac = ieee80211.TIDToAC(fr.TID())
	}
	s.RxAirtime += uint64(a.est.Airtime(r, ac, len(fr)+4)) // +4: the FCS
}
