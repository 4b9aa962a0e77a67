package bss

import "time"

// The BSS's books of its stations' admission, as hostapd's sta_info
// flags and counts: how far each station has come, when, which eviction
// list it is on, and how many are pending, associated and dozing, with
// the ERP counts behind its Capability field. The radio does its part
// beside each step (the station's queues, rates and frames in flight),
// and the handshake's frames go through Radio.

// Authenticate records that s, holding aid, authenticated at now; known:
// it was heard from before, so replies to it are in the known class.
func (b *BSS) Authenticate(now time.Duration, aid uint16, s *Station, known bool) {
	s.State, s.AuthAt, s.Known = StateAuthenticated, now, known
	b.Stations.Enlist(aid, ListAuth)
}

// Reserve makes s, whose association was accepted, pending: its AID is
// reserved until the response's TX status decides. An associated station
// asking again starts a new session once the new response is
// acknowledged; the radio has let go of its old one (Unassociate).
func (b *BSS) Reserve(now time.Duration, aid uint16, s *Station, wasAssociated bool) {
	if wasAssociated {
		s.Reassoc = true
	}
	if wasAssociated || s.State == StateAuthenticated {
		b.Pending++
	}
	s.State = StateAssocPending
	s.PendingAt, s.RespLost = now, false
	b.Stations.Enlist(aid, ListPending)
}

// Confirm makes a pending station associated at now: its response was
// acknowledged (or a frame of it showed it had the response).
func (b *BSS) Confirm(now time.Duration, aid uint16, s *Station) {
	b.Pending--
	b.Associated++
	b.Counts.Associations++
	s.State = StateAssociated
	b.shared().join(s, 1)
	s.AssocAt, s.HadData, s.AuthOK = now, false, true
	b.Stations.Enlist(aid, ListQuiet)
	s.Reassoc = false
}

// Release gives a pending station's AID back: it stays authenticated,
// from now.
func (b *BSS) Release(now time.Duration, aid uint16, s *Station) {
	b.Pending--
	b.Deassociate(now, aid, s)
}

// Deassociate makes s, no longer associated or pending, authenticated
// from now: on the authentication list again.
func (b *BSS) Deassociate(now time.Duration, aid uint16, s *Station) {
	s.State, s.AuthAt = StateAuthenticated, now
	b.Stations.Enlist(aid, ListAuth)
}

// Unassociate takes an associated station out of the counts: associated,
// dozing, and the radio's ERP and HT counts. The caller sets its new state.
func (b *BSS) Unassociate(s *Station) {
	b.Doze(s, false)
	b.Associated--
	b.shared().join(s, -1)
}

// Leave takes a station that goes away out of the books: the counts of
// its state, what the answer to its authentication allowed, and, if it
// sent data, its address is known should it come back soon.
func (b *BSS) Leave(now time.Duration, s *Station) {
	switch s.State {
	case StateAssociated:
		b.Associated--
		b.shared().join(s, -1)
	case StateAssocPending:
		b.Pending--
	}
	b.Answered.Forget(now, s.Addr)
	if s.HadData {
		b.Senders.Heard(now, s.Addr)
	}
}

// FollowPM follows an associated station's Power Management bit; it
// reports whether the station went to sleep or woke.
func (b *BSS) FollowPM(s *Station, pm bool) bool {
	if pm == s.Dozing || s.State != StateAssociated {
		return false
	}
	b.Doze(s, pm)
	return true
}

// Doze marks s dozing or awake, counted.
func (b *BSS) Doze(s *Station, pm bool) {
	if pm == s.Dozing {
		return
	}
	s.Dozing = pm
	if pm {
		b.Dozing++
	} else {
		b.Dozing--
	}
}

// join counts associated station s in (n 1) or out of (n -1).
func (c *Shared) join(s *Station, n int) {
	c.ERP.add(s.ERPClass(), n)
	c.HT.add(s.HTClass(), n)
}
