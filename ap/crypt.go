package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/ccmp"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn/handshake"
)

// CCMP on the datapath. Downlink frames are encrypted at the last moment,
// when the TX loop builds their 802.11 header: the PN is taken then, so a
// frame buffered again for a dozing station, rebuilt later, gets a new
// one, and no (key, PN) pair is ever used for two frames. The ciphertext
// goes into a slab of its own that returns to the pool once written, so
// the queued MSDU stays plaintext for that rebuild. Uplink frames are
// checked and decrypted before anything of their station changes
// (unprotect): a forged or replayed frame is counted and dropped and
// leaves the station as it was.

// noSlab marks "no slab" where a slab index is optional.
const noSlab = ^uint32(0)

// installPTK installs a station's pairwise key; its PN and its replay
// counters start from zero, a new key.
func (a *AP) installPTK(s *station, act handshake.Action) {
	if act.KeyID < 0 || act.KeyID >= len(s.RSN.Keys) {
		return
	}
	k, err := ccmp.New(act.Key[:], uint8(act.KeyID))
	if err != nil {
		return
	}
	s.RSN.Keys[act.KeyID] = bss.PairKey{K: k}
	if !act.RXOnly {
		s.RSN.TX = int8(act.KeyID)
	}
}

// installGTK makes a group key the one BSS r's group frames go under,
// from PN 1: every station of the BSS already has it (the authenticator
// installs it last).
func (a *AP) installGTK(r *rsnState, act handshake.Action) {
	k, err := ccmp.New(act.Key[:], uint8(act.KeyID))
	if err != nil {
		return
	}
	r.gtk = k
	a.cnt[counter.GTKInstalled]++
}

// txKey returns the key frames to slot go under (for slot 0, the group
// frames, BSS r's GTK); nil while there is none, or once its PNs are
// spent (nothing more goes under it until a rekey).
func (a *AP) txKey(r *rsnState, slot uint16) *ccmp.Key {
	k := r.gtk
	if slot != 0 {
		r := a.sta.slots[slot].RSN
		if r == nil || r.TX < 0 {
			return nil
		}
		k = r.Keys[r.TX].K
	}
	if k == nil || k.LastPN() >= ccmp.MaxPN {
		return nil
	}
	return k
}

// protect returns frame b (radiotap header of rt bytes, then the 802.11
// frame) of secured BSS r encrypted under slot's key with the next PN, in
// a new slab the output holds. Before a station has a key only EAPOL
// goes, as it is. A nil frame must not go, for the reason returned: no
// key, or no slab for the ciphertext.
func (a *AP) protect(r *rsnState, slot uint16, h uint32, b []byte, rt int) ([]byte, uint32, counter.ID) {
	key := a.txKey(r, slot)
	if key == nil {
		if slot != 0 && a.slabEAPOL[h] {
			return b, noSlab, 0
		}
		return nil, noSlab, counter.WiredDroppedUnauthorized
	}
	c, ok := a.pool.get()
	if !ok {
		return nil, noSlab, counter.WiredDroppedNoBuffer
	}
	hl := ieee80211.Frame(b[rt:]).HeaderLen()
	buf := a.pool.slab(c)
	copy(buf, b[:rt+hl])
	n := copy(buf[rt+hl+ccmp.HeaderLen:], b[rt+hl:])
	_, out, err := key.Seal(buf[rt : rt+hl+ccmp.HeaderLen+n])
	if err != nil {
		panic(err) // the slab holds the gap and the MIC; txKey checked the PNs
	}
	return buf[:rt+len(out)], c, 0
}

// protectInPlace encrypts an A-MSDU built with the CCMP header's gap
// after its MAC header, in its own big slab.
func (a *AP) protectInPlace(r *rsnState, slot uint16, b []byte, rt int) []byte {
	_, out, err := a.txKey(r, slot).Seal(b[rt:])
	if err != nil {
		panic(err) // sendAMSDU checked the key, the gap and the room
	}
	return b[:rt+len(out)]
}

// zeroGap is what an A-MSDU's CCMP header holds until it is encrypted.
var zeroGap [ccmp.HeaderLen]byte

// unprotect decides a data frame from an associated station of a secured
// BSS before anything of the station changes. It returns the frame to go
// on with: fr itself when unprotected and allowed (before the station has
// a key; Null frames, which have no body to protect), or the decrypted
// frame, in scratch (the RSN's receive buffer). EAPOL sent unprotected after the
// key (a supplicant may) goes to the authenticator, which checks its MIC,
// and touches nothing else. Everything else is counted and dropped.
func (a *AP) unprotect(now time.Duration, slot uint16, s *station, scratch []byte, fr ieee80211.Frame) (ieee80211.Frame, bool) {
	r := s.RSN
	if !fr.Protected() {
		if r == nil || !r.HasKey() || fr.IsNull() {
			return fr, true
		}
		if et, payload, ok := ieee80211.Decap(fr.Body()); ok && et == etherTypeEAPOL && plainMSDU(fr) {
			a.rxEAPOL(now, s, fr.Addr3(), payload)
			return nil, false
		}
		a.cnt[counter.RxUnprotected]++
		return nil, false
	}
	pn, id, err := ccmp.ParseHeader(fr)
	if err != nil || len(fr) > len(scratch) || r == nil || int(id) >= len(r.Keys) || r.Keys[id].K == nil {
		a.cnt[counter.RxUndecryptable]++
		return nil, false
	}
	k := &r.Keys[id]
	i := ccmp.CounterIndex(fr)
	if !k.RX.Fresh(i, pn) {
		if a.isRetransmission(s, fr) {
			// Its first copy came through; its ACK was lost.
			a.cnt[counter.RxDuplicates]++
			s.RxDuplicates++
		} else {
			a.cnt[counter.RxReplayed]++
		}
		return nil, false
	}
	buf := scratch[:len(fr)]
	copy(buf, fr)
	body, err := k.K.Decrypt(buf)
	if err != nil {
		a.cnt[counter.RxMICFailure]++
		return nil, false
	}
	k.RX.Accept(i, pn)
	return ccmp.Plain(buf, body), true
}

// plainMSDU reports whether fr carries one whole MSDU: not a fragment,
// not an A-MSDU.
func plainMSDU(fr ieee80211.Frame) bool {
	return !fr.MoreFrag() && fr.Frag() == 0 && !(fr.IsQoS() && fr.AMSDUPresent())
}

// hasKey reports whether a pairwise key is installed: from then on data
// must come protected.

// isRetransmission reports, without recording anything, whether fr
// repeats the last frame accepted on its TID.
func (a *AP) isRetransmission(s *station, fr ieee80211.Frame) bool {
	i := ieee80211.NumTIDs
	if fr.IsQoS() {
		i = int(fr.TID() & 7)
	}
	return fr.Retry() && s.rxValid[i] && s.rxSeq[i] == fr.SeqCtl()
}
