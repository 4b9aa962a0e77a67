package ap

import (
	"crypto/rand"
	"io"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/pmf"
)

// The association SA Query (802.11w 11.13), as hostapd runs it: an
// association request from a station associated and authorized with MFP
// may be forged, so it is refused with status 30 and a Timeout Interval
// element (the comeback time), and the AP asks the station, under its
// PTK, whether it still holds the keys (SA Query Requests, pmf.Query). A
// protected Response ends the procedure with the association kept; a
// station that never answers (a restarted supplicant) loses its old
// association when the procedure times out, back to authenticated, so its
// next request associates it anew. A station's own SA Query Request
// (it got a deauthentication it could not verify) gets a Response.

// saQuery returns the station's procedure, created at its first use.
func (a *AP) saQuery(s *station) *pmf.Query {
	r := s.RSN
	if r.Query == nil {
		c := a.rsnOf(s).cfg
		r.Query = pmf.NewQuery(pmf.Config{MaxTimeout: c.SAQueryMaxTimeout, RetryTimeout: c.SAQueryRetryTimeout, Rand: c.Rand})
	}
	return r.Query
}

// saQueryAssoc runs the SA Query rule for an association request from a
// station that keepsAssoc; true when the request was refused with the
// comeback time, false when the association proceeds as a new one.
func (a *AP) saQueryAssoc(now time.Duration, slot uint16, s *station, reassoc bool, class bss.ReplyClass) bool {
	status, tus, step := a.saQuery(s).Assoc(now)
	if step.TimedOut {
		a.saQueryStep(now, slot, s, step)
		return false
	}
	if status != ieee80211.StatusAssocRejectedTemp {
		return false
	}
	a.cnt[counter.AssocComeback]++
	a.sendAssocComeback(now, s.bss, reassoc, s.Addr, tus, class)
	a.saQueryStep(now, slot, s, step)
	return true
}

// saQueryStep carries out what the procedure asked.
func (a *AP) saQueryStep(now time.Duration, slot uint16, s *station, step pmf.Step) {
	switch {
	case step.Send:
		a.cnt[counter.SAQueryRequests]++
		a.rsnOf(s).saQueries++
		if s.Dozing {
			// A bufferable management frame (802.11-2020 11.2.3, as
			// mac80211 buffers Action frames): sent on the air it would
			// be lost to a sleeping station, which would then time out.
			// The TIM announces it; the station's wake or PS-Poll sends it.
			s.RSN.Held, s.RSN.QueryHeld = step.ID, true
			return
		}
		a.sendSAQuery(now, s.bss, s.Addr, pmf.ActionRequest, step.ID)
	case step.TimedOut:
		a.cnt[counter.SAQueryTimedOut]++
		a.toAuthenticated(now, slot, s, ieee80211.ReasonPrevAuthNotValid,
			"SA Query timed out: the station no longer holds its keys")
	}
}

// releaseSAQuery sends the SA Query Request held for a station that
// dozed, now it is awake or polls; it reports whether one went. A later
// Request replaced an earlier one held: the procedure knows both IDs.
func (a *AP) releaseSAQuery(now time.Duration, s *station) bool {
	r := s.RSN
	if r == nil || !r.QueryHeld {
		return false
	}
	r.QueryHeld = false
	if r.Query == nil || !r.Query.Active() {
		return false
	}
	a.sendSAQuery(now, s.bss, s.Addr, pmf.ActionRequest, r.Held)
	return true
}

// handleSAQuery takes an SA Query Action frame (decrypted) from an
// associated station.
func (a *AP) handleSAQuery(now time.Duration, s *station, body []byte) {
	q, err := pmf.ParseSAQuery(body)
	if err != nil {
		a.cnt[counter.RxMalformed]++
		return
	}
	if !s.usesMFP() {
		return // nothing to prove without keys for management frames
	}
	switch q.Action {
	case pmf.ActionRequest:
		a.cnt[counter.SAQueryAnswered]++
		a.sendSAQuery(now, s.bss, s.Addr, pmf.ActionResponse, q.ID)
	case pmf.ActionResponse:
		if p := s.RSN.Query; p != nil && p.Response(q.ID) {
			a.cnt[counter.SAQueryKept]++
		}
	}
}

// sendSAQuery sends an SA Query Request or Response (bss.BSS.SendSAQuery);
// protectMgmt puts it under the station's PTK.
func (a *AP) sendSAQuery(now time.Duration, b *bss.BSS, da ieee80211.MAC, action uint8, id pmf.TransactionID) {
	b.SendSAQuery(now, a.radioOf(b), da, action, id)
}

// ctlSAQuery sends the station one SA Query Request under its PTK, with a
// fresh transaction ID, as hostapd's SA_QUERY does: the station's Response
// matches no procedure and changes nothing. Only an MFP station can
// answer one.
func (a *AP) ctlSAQuery(now time.Duration, addr ieee80211.MAC) ctl.Reply {
	_, s := a.sta.lookup(addr)
	switch {
	case s == nil:
		return noStation(addr)
	case !s.usesMFP():
		return ctl.Errorf(ctl.EINVAL, "station %s: no management frame protection: an SA Query needs 802.11w", addr)
	}
	var id pmf.TransactionID
	r := a.rsnOf(s).cfg.Rand
	if r == nil {
		r = rand.Reader
	}
	if _, err := io.ReadFull(r, id[:]); err != nil {
		return ctl.Errorf(ctl.EBUSY, "sa query: transaction ID: %v", err)
	}
	a.cnt[counter.SAQueryRequests]++
	a.sendSAQuery(now, s.bss, s.Addr, pmf.ActionRequest, id)
	return ctl.Reply{}
}

// sendAssocComeback refuses an association request with status 30 and
// the Timeout Interval element of the association comeback time, as
// hostapd's send_assoc_resp.
func (a *AP) sendAssocComeback(now time.Duration, b *bss.BSS, reassoc bool, da ieee80211.MAC, tus uint32, class bss.ReplyClass) {
	resp := bss.AssocResp{Reassoc: reassoc, To: da, Status: ieee80211.StatusAssocRejectedTemp, H2EOnly: a.radioOf(b).saeH2ERequired(), Comeback: tus, Class: class}
	if b.SendAssocResp(now, a.radioOf(b), &resp) {
		a.cnt[counter.AssocResponses]++
	}
}

// querying reports whether an SA Query procedure may be running in a
// secured BSS of the radio.
func (a *AP) querying() bool {
	for _, r := range a.rsns {
		if r.saQueries > 0 {
			return true
		}
	}
	return false
}

// saQueryTick runs the retry timers that are due, and counts the
// procedures still running in each BSS.
func (a *AP) saQueryTick(now time.Duration) {
	if !a.querying() {
		return
	}
	for _, r := range a.rsns {
		r.saQueries = 0
	}
	for slot := range a.sta.used() {
		s := &a.sta.slots[slot]
		if s.RSN == nil || s.RSN.Query == nil {
			continue
		}
		q := s.RSN.Query
		if d, ok := q.Deadline(); ok && d <= now {
			a.saQueryStep(now, slot, s, q.Tick(now))
		}
		if _, ok := q.Deadline(); ok && s.RSN != nil && s.RSN.Query == q {
			a.rsnOf(s).saQueries++
		}
	}
}

// saQueryDeadline is the earliest retry timer of the procedures running.
func (a *AP) saQueryDeadline() (time.Duration, bool) {
	if !a.querying() {
		return 0, false
	}
	var (
		d  time.Duration
		ok bool
	)
	for slot := range a.sta.used() {
		if r := a.sta.slots[slot].RSN; r != nil && r.Query != nil {
			if t, armed := r.Query.Deadline(); armed && (!ok || t < d) {
				d, ok = t, true
			}
		}
	}
	return d, ok
}
