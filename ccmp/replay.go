package ccmp

import "github.com/airq/airq/internal/ieee80211"

// NumCounters is the number of receive replay counters of one key: the
// 16 values of the 4-bit TID field and management frames.
const NumCounters = 17

// MgmtCounter is the counter index of robust management frames.
const MgmtCounter = 16

// Replay holds the receive replay counters of one temporal key: the last
// PN accepted per TID for QoS data, TID 0 for non-QoS data, and one for
// management frames, as mac80211 keeps them. The zero value accepts any PN
// from 1 on.
type Replay struct {
	last [NumCounters]uint64
}

// CounterIndex returns the replay counter a frame is checked against.
func CounterIndex(f ieee80211.Frame) int {
	switch {
	case f.Type() == ieee80211.TypeMgmt:
		return MgmtCounter
	case f.IsQoS():
		return int(f.TID())
	}
	return 0
}

// Fresh reports whether pn is newer than the last PN accepted on counter i.
func (r *Replay) Fresh(i int, pn uint64) bool { return pn > r.last[i] }

// Accept records pn on counter i; call it only once the frame decrypted.
func (r *Replay) Accept(i int, pn uint64) {
	if pn > r.last[i] {
		r.last[i] = pn
	}
}

// Reset sets every counter to rsc, the last PN the key's sender used (a
// GTK's Key RSC from the key handshake, which mac80211 and hostapd fill with
// the last PN sent; 0 for a new pairwise key).
func (r *Replay) Reset(rsc uint64) {
	for i := range r.last {
		r.last[i] = rsc
	}
}

// FragmentFollows reports whether pn may be the PN of the fragment that
// follows a fragment with PN prev in the same MSDU. 802.11-2020
// 12.5.3.4.4 wants the PNs of an MSDU's fragments consecutive, and
// mac80211 drops a fragment that breaks the run: without the check a
// fragment sent under one key or one PN run could be reassembled with
// fragments of another MSDU (the mixed-key and fragment-cache attacks).
//
// airq does not reassemble today: its uplink counts fragments and drops
// them. A datapath that reassembles decrypts every fragment under the same
// key, checks the first against the replay counter, each later one with
// FragmentFollows against the one before, and Accepts the last PN once the
// MSDU is whole.
func FragmentFollows(prev, pn uint64) bool { return prev < MaxPN && pn == prev+1 }
