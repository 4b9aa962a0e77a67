package ap

import (
	"crypto/rand"
	"io"
	"slices"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

// WPA3-Personal in the core, as hostapd's handle_auth_sae: every
// Commit of algorithm 3, and a Confirm from a peer with a frame queued,
// waits in the BSS's queue of received frames (sae.Queue, hostapd's
// sae_commit_queue) before any work, even the anti-clogging check; the
// core works the queue one frame at a time on its timers (Deadline,
// Tick): a lone frame at once, the next 10 ms per frame still queued
// later, so a flood gets a few frames worked a second and no reply to
// the rest. A frame worked, and a Confirm not queued, goes to the BSS's
// sae.Authenticator; its replies leave through the reply airtime budget
// like any other authentication response; its elliptic-curve work (a
// sae.Job) leaves the core through Flush to a driver that runs it off
// the loop (SAEWorker) and comes back through HandleSAEDone. An accepted
// exchange makes the station authenticated with its PMK, and adds a
// PMKSA: a station that (re)associates naming that PMKID skips SAE (Open
// System authentication, then the association), one naming an unknown
// PMKID gets status 53. A BSS at max_num_sta answers a new peer with
// status 17 before any work, and holds at most max_num_sta exchanges.
//
// The glue stays in ap/sae*.go so that it moves whole with a BSS.

const authSAE = bss.AuthSAE

// saeEpoch turns the core's durations into the times sae takes.
var saeEpoch = time.Unix(0, 0)

// saeState is a BSS's SAE: the queue of received frames, the
// authenticator, the PMKSA cache, and the jobs for the driver.
type saeState struct {
	frames sae.Queue
	auth   *sae.Authenticator
	pmksa  rsn.PMKSACache
	rng    io.Reader
	// queue holds the jobs for the driver at the next Flush: at most one
	// for each frame worked since the last, which the frame queue paces.
	queue []*sae.Job
	// live are the jobs out (queued, or with the driver); retired those
	// out when a reload replaced the authenticator, which retiredAuth
	// takes back. Both are bounded by the queue and the driver's.
	live        map[*sae.Job]bool
	retired     map[*sae.Job]bool
	retiredAuth *sae.Authenticator
}

// SAEWorker is a Driver that runs SAE jobs off the core's loop: the shell
// under its CPU budget, the simulator in virtual time. Each job handed to
// RunSAE must come back through HandleSAEDone, run or not (a job the
// worker cannot take is given back with Cancel first), so that the
// exchanges in work stay counted.
type SAEWorker interface {
	RunSAE(jobs []*sae.Job)
}

// newSAE builds the SAE side of the BSS at bssid around auth, its
// authenticator (newSAEAuthenticator: its PTs derived from its SSID),
// whose instances the BSS's max_num_sta bounds; nil without one.
func newSAE(c *RSNConfig, auth *sae.Authenticator, bssid ieee80211.MAC, maxStations int) *saeState {
	if auth == nil {
		return nil
	}
	auth.SetBSSID(sae.MAC(bssid))
	auth.SetMaxPeers(maxStations)
	rng := c.Rand
	if rng == nil {
		rng = rand.Reader
	}
	st := &saeState{auth: auth, rng: rng, live: map[*sae.Job]bool{}, retired: map[*sae.Job]bool{}}
	auth.SetQueue(&st.frames)
	return st
}

// newSAEAuthenticator builds the authenticator of c's SAE settings, its
// PTs derived (the costly part: at start, and off the loop on a reload);
// nil without AKM SAE. The core sets the BSSID (SetBSSID), which the PTs
// do not depend on.
func newSAEAuthenticator(c *RSNConfig, ssid string) (*sae.Authenticator, error) {
	if c == nil || !slices.Contains(c.AKMs, rsn.AKMSAE) {
		return nil, nil
	}
	sc := c.SAE
	if sc == nil {
		sc = &SAEConfig{Sync: 3, AntiCloggingThreshold: 5}
	}
	return sae.NewAuthenticator(sae.Config{SSID: []byte(ssid), Groups: sc.Groups,
		PWE: sc.PWE, ConfirmImmediate: sc.ConfirmImmediate, Sync: sc.Sync, AntiCloggingThreshold: sc.AntiCloggingThreshold,
		Passwords: c.saePasswords()})
}

// sameSAEPasswords reports whether c and o hold the same SAE passwords in
// the same order.
func sameSAEPasswords(c, o *RSNConfig) bool {
	x, y := c.saePasswords(), o.saePasswords()
	return slices.EqualFunc(x, y, func(p, q sae.Password) bool {
		return string(p.Password) == string(q.Password) && string(p.Identifier) == string(q.Identifier) &&
			p.Peer == q.Peer && p.AnyPeer == q.AnyPeer
	})
}

// setSAE switches BSS r to a reload's authenticator: exchanges start
// over under the new passwords, and the PMKSA cache, whose PMKs came from
// the old ones, is flushed (associations keep their PTKs). Jobs still out
// for the old authenticator go back to it.
func (a *AP) setSAE(r *bssRadio, auth *sae.Authenticator) {
	st := r.sae()
	if st == nil || auth == nil {
		return
	}
	for j := range st.live {
		st.retired[j] = true
	}
	clear(st.live)
	if len(st.retired) > 0 {
		st.retiredAuth = st.auth
	}
	auth.SetBSSID(sae.MAC(r.b.BSSID))
	auth.SetMaxPeers(r.maxStations)
	auth.SetQueue(&st.frames) // frames queued are worked under the new passwords
	st.auth = auth
	st.pmksa.Flush()
}

// sae returns the BSS's SAE side, nil without it.
func (r *bssRadio) sae() *saeState {
	if r.rsn == nil {
		return nil
	}
	return r.rsn.sae
}

// saeOf returns BSS b's SAE side, nil without it.
func (a *AP) saeOf(b *bss.BSS) *saeState { return a.radioOf(b).sae() }

// handleSAEAuth takes an Authentication frame of algorithm 3 to BSS b,
// for b's authenticator: each BSS runs SAE with its own passwords, PTs
// (which depend on its SSID), tokens, queue and PMKSA cache. As in
// hostapd's handle_auth, the access lists are checked first; then a
// frame the queue takes waits there (workSAEQueue), dropped and counted
// when it is full, as hostapd drops it, silently.
func (a *AP) handleSAEAuth(now time.Duration, b *bss.BSS, sa ieee80211.MAC, auth ieee80211.Auth, class bss.ReplyClass) {
	st := a.saeOf(b)
	f := sae.Frame{Transaction: auth.Transaction(), Status: auth.Status(), Body: auth[6:]}
	if a.saeRefused(now, b, sa, f.Transaction, class) {
		return
	}
	if !st.frames.Queues(sae.MAC(sa), f.Transaction) {
		a.workSAE(now, b, st, sa, f, class)
		return
	}
	switch {
	case len(f.Body) > sae.MaxQueuedBody:
		a.cnt[counter.RxMalformed]++ // longer than any MMPDU
	case !st.frames.Add(saeEpoch.Add(now), sae.MAC(sa), f):
		a.cnt[counter.SAEQueueFull]++
	}
}

// SAEFloodSigns returns the running total of the signs of an SAE flood:
// frames dropped as a BSS's queue of received frames was full, and
// Commits answered with an anti-clogging token request. It rises only
// when SAE frames come faster than the core works them or the exchanges
// in work and frames queued reach anti_clogging_threshold: a flood (or a
// crowd joining at once). The shell reads it to tell when a flood is
// over, and give its garbage back, however few jobs the flood's paced
// frames made.
func (a *AP) SAEFloodSigns() uint64 {
	return a.cnt[counter.SAEQueueFull] + a.cnt[counter.SAETokenRequested]
}

// saeRefused answers an SAE frame from sa that BSS b's access lists
// refuse, and reports whether they did.
func (a *AP) saeRefused(now time.Duration, b *bss.BSS, sa ieee80211.MAC, trans uint16, class bss.ReplyClass) bool {
	if !a.aclRefuses(now, b, sa, "authentication") {
		return false
	}
	if slot, s := a.sta.lookup(sa); s != nil && s.bss == b { // another BSS's station is not b's to end
		a.disconnect(now, slot, ieee80211.ReasonPrevAuthNotValid, "refused by the access lists", false)
	}
	a.sendSAEAuth(now, b, sa, sae.Frame{Transaction: trans, Status: ieee80211.StatusUnspecified}, class)
	return true
}

// workSAE hands frame f from sa to BSS b's authenticator, its SAE side
// st.
func (a *AP) workSAE(now time.Duration, b *bss.BSS, st *saeState, sa ieee80211.MAC, f sae.Frame, class bss.ReplyClass) {
	if a.saeFull(b, st, sa) {
		// hostapd's handle_auth: ap_sta_add finds max_num_sta reached
		// and the frame gets status 17, in its own transaction, before
		// any SAE work.
		a.sendSAEAuth(now, b, sa, sae.Frame{Transaction: f.Transaction, Status: ieee80211.StatusAPUnableToHandleNewSta}, class)
		return
	}
	r := st.auth.Handle(saeEpoch.Add(now), st.rng, sae.MAC(sa), f)
	a.saeResult(now, b, sa, r, class)
}

// workSAEQueue works each SAE BSS's queued frame that is due, as
// hostapd's auth_sae_process_commit runs handle_auth on it from the
// start: the access lists (they may have changed), then the
// authenticator, with the reply class of now.
func (a *AP) workSAEQueue(now time.Duration) {
	for _, r := range a.radios {
		st := r.sae()
		if st == nil {
			continue
		}
		for {
			from, f, ok := st.frames.Next(saeEpoch.Add(now))
			if !ok {
				break
			}
			sa := ieee80211.MAC(from)
			_, s := a.sta.lookup(sa)
			class := a.replyClassOf(now, r.b, sa, s)
			if !a.saeRefused(now, r.b, sa, f.Transaction, class) {
				a.workSAE(now, r.b, st, sa, f, class)
			}
		}
	}
}

// saeQueueDeadline is when a BSS's queue of SAE frames has one to work.
func (a *AP) saeQueueDeadline() (time.Duration, bool) {
	var d time.Duration
	ok := false
	for _, r := range a.radios {
		st := r.sae()
		if st == nil {
			continue
		}
		if t, due := st.frames.Deadline(); due && (!ok || t.Sub(saeEpoch) < d) {
			d, ok = t.Sub(saeEpoch), true
		}
	}
	return d, ok
}

// saeFull reports whether BSS b, its SAE side st, has no room for sa as
// a new peer: sa has no entry in b and no exchange under way, and b's
// associated and associating stations are max_num_sta (as handleAssoc
// counts them).
func (a *AP) saeFull(b *bss.BSS, st *saeState, sa ieee80211.MAC) bool {
	if _, s := a.sta.lookup(sa); s != nil && s.bss == b || st.auth.State(sae.MAC(sa)) != sae.Nothing {
		return false
	}
	return b.Associated+b.Pending >= a.radioOf(b).maxStations
}

// saeJobOwner returns the BSS whose SAE side gave out job j (live, or
// retired by a reload), nil if none did.
func (a *AP) saeJobOwner(j *sae.Job) *bssRadio {
	for _, r := range a.radios {
		if st := r.sae(); st != nil && (st.live[j] || st.retired[j]) {
			return r
		}
	}
	return nil
}

// HandleSAEDone takes back a job the driver ran, or cancelled because its
// budget of SAE work was spent (counted).
func (a *AP) HandleSAEDone(now time.Duration, j *sae.Job) { a.finishSAE(now, j, true) }

func (a *AP) finishSAE(now time.Duration, j *sae.Job, countCancel bool) {
	br := a.saeJobOwner(j)
	if br == nil {
		return
	}
	st := br.sae()
	sa := ieee80211.MAC(j.Peer())
	_, s := a.sta.lookup(sa)
	if st.retired[j] {
		delete(st.retired, j)
		st.retiredAuth.Finish(saeEpoch.Add(now), j) // its exchange is gone with its passwords
		if len(st.retired) == 0 {
			st.retiredAuth = nil
		}
		return
	}
	delete(st.live, j)
	r := st.auth.Finish(saeEpoch.Add(now), j)
	if r.Drop == sae.DropCancelled && countCancel {
		a.cnt[counter.SAEBudget]++
	}
	a.saeResult(now, br.b, sa, r, a.replyClassOf(now, br.b, sa, s))
}

// saeResult carries out what BSS b's authenticator decided.
func (a *AP) saeResult(now time.Duration, b *bss.BSS, sa ieee80211.MAC, r sae.Result, class bss.ReplyClass) {
	a.countSAEDrop(r.Drop)
	if r.Job != nil {
		st := a.saeOf(b)
		st.live[r.Job] = true
		a.queueSAEJob(r.Job, st)
	}
	for _, f := range r.Replies {
		a.countSAEReply(f)
		a.reportSAEFailure(now, sa, f)
		a.sendSAEAuth(now, b, sa, f, class)
	}
	if r.Accepted != nil {
		a.cnt[counter.SAEAccepted]++
		a.saeAccepted(now, b, sa, r.Accepted, class)
	}
}

// queueSAEJob keeps j for the driver at the next Flush. Jobs come only
// from frames worked off the queue, one per BSS at a time, so the list
// stays short without a bound of its own.
func (a *AP) queueSAEJob(j *sae.Job, st *saeState) {
	st.queue = append(st.queue, j)
	a.saeQueued++
}

// flushSAE hands each BSS's queued jobs to the driver; one that cannot
// run them gets them cancelled (counted as over the budget).
func (a *AP) flushSAE(now time.Duration, d Driver) {
	for _, r := range a.rsns {
		st := r.sae
		if st == nil || len(st.queue) == 0 {
			continue
		}
		jobs := st.queue
		st.queue = nil
		a.saeQueued -= len(jobs)
		if w, ok := d.(SAEWorker); ok {
			w.RunSAE(jobs)
			continue
		}
		for _, j := range jobs {
			j.Cancel()
			a.HandleSAEDone(now, j)
		}
	}
}

// sendSAEAuth sends one SAE Authentication frame from BSS b
// (bss.BSS.SendSAEAuth).
func (a *AP) sendSAEAuth(now time.Duration, b *bss.BSS, da ieee80211.MAC, f sae.Frame, class bss.ReplyClass) bool {
	if !b.SendSAEAuth(now, a.radioOf(b), da, f, class) {
		return false
	}
	a.cnt[counter.AuthResponses]++
	return true
}

// saeAccepted makes the station authenticated with BSS b with the
// exchange's keys and caches the PMKSA in b's cache. An associated MFP
// station keeps its association until it associates again with the new
// keys (hostapd leaves it too). One of another BSS of the radio keeps it
// too: the exchange proves b's password, which a guest network's users
// all know, not that the frames were the station's; a station that
// really moves deauthenticates first, or its association request here
// starts its BSS's SA Query (handleAssoc).
func (a *AP) saeAccepted(now time.Duration, b *bss.BSS, sa ieee80211.MAC, k *sae.Keys, class bss.ReplyClass) {
	st := a.saeOf(b)
	st.pmksa.Add(now, rsn.PMKSA{SPA: sa, PMKID: rsn.PMKID(k.PMKID), PMK: rsn.PMK(k.PMK), AKM: rsn.AKMSAE, Group: k.Group, H2E: k.H2E})
	slot, s := a.sta.lookup(sa)
	if s.keepsAssoc() {
		a.cnt[counter.AuthKeptAssoc]++
		if s.bss == b {
			s.SAE = &bss.StationSAE{Keys: *k, BySAE: true}
		}
		return
	}
	slot, s, ok := a.freshEntry(now, b, sa, slot, s)
	if !ok {
		return // the station's association will find no entry: reason 6
	}
	s.bss.Authenticate(now, slot, &s.Station, class == bss.ReplyKnown)
	s.lastRx = now
	s.AuthOK = true // the Confirm was its own acknowledgement of the exchange
	s.SAE = &bss.StationSAE{Keys: *k, BySAE: true}
	b.Answered.Add(now, sa)
}

// cachedPMKSA returns addr's PMKSA in the cache of BSS of, or with of
// -1 in the first BSS's cache that holds one (a departed station's BSS is
// not known any more).
func (a *AP) cachedPMKSA(now time.Duration, addr ieee80211.MAC, of int) (rsn.PMKSA, bool) {
	for i, r := range a.radios {
		if of >= 0 && i != of {
			continue
		}
		if st := r.sae(); st != nil {
			if e, ok := st.pmksa.Of(now, addr); ok {
				return e, true
			}
		}
	}
	return rsn.PMKSA{}, false
}

// statusInvalidPMKID is status 53: the PMKID names no PMKSA.
const statusInvalidPMKID = 53

// saeAssoc decides the PMK of a station associating with AKM SAE, as
// hostapd's check_assoc_ies and wpa_validate_wpa_ie: a PMKID it names
// must be a cached PMKSA of its own (else 53); without one, a station
// that authenticated by SAE uses that exchange's keys, and one that used
// Open System has nothing to go on (53). A station that authenticated by
// SAE must use AKM SAE (43), and with sae_pwe=2 one that ran hunting and
// pecking while its RSNXE says it can do H2E is refused (status 1: a
// downgrade).
func (a *AP) saeAssoc(now time.Duration, s *station, n *rsn.Negotiated, rsnxe []byte) uint16 {
	st := a.rsnOf(s).sae // the station's BSS's: a PMKSA of another BSS is unknown here
	if st != nil && s.SAE != nil && s.SAE.BySAE && !s.SAE.Keys.H2E && st.auth.PWE() == sae.BothMethods && rsn.RSNXH2E(rsnxe) {
		return ieee80211.StatusUnspecified
	}
	if n.AKM != rsn.AKMSAE {
		if s.SAE != nil && s.SAE.BySAE {
			return ieee80211.StatusInvalidAKMP
		}
		return ieee80211.StatusSuccess
	}
	if st == nil {
		return ieee80211.StatusInvalidAKMP
	}
	for _, id := range n.PMKIDs {
		if e, ok := st.pmksa.Get(now, s.Addr, id); ok {
			bySAE := s.SAE != nil && s.SAE.BySAE
			if !bySAE {
				a.cnt[counter.SAEPMKSAHits]++ // no SAE exchange before this association
			}
			s.SAE = &bss.StationSAE{Keys: sae.Keys{PMK: e.PMK, PMKID: e.PMKID, Group: e.Group, H2E: e.H2E}, BySAE: bySAE}
			return ieee80211.StatusSuccess
		}
	}
	if len(n.PMKIDs) > 0 || s.SAE == nil || !s.SAE.BySAE {
		return statusInvalidPMKID
	}
	return ieee80211.StatusSuccess
}

// saeSetPMK hands the station's SAE PMK to its handshake.
func (s *station) saeSetPMK() {
	if s.SAE == nil || s.RSN == nil {
		return
	}
	pmk := rsn.PMK(s.SAE.Keys.PMK)
	s.RSN.HS.SetPMK(&pmk, rsn.PMKID(s.SAE.Keys.PMKID))
	clear(pmk[:])
}

// countSAEReply counts the outcomes a reply tells: a token requested, a
// group refused, a commit refused (a bad scalar or element, or another
// fault), a Confirm that did not verify (a wrong password, most likely).
func (a *AP) countSAEReply(f sae.Frame) {
	switch {
	case f.Transaction == 1 && f.Status == sae.StatusAntiCloggingToken:
		a.cnt[counter.SAETokenRequested]++
	case f.Transaction == 1 && f.Status == sae.StatusGroupNotSupported:
		a.cnt[counter.SAEBadGroup]++
	case f.Transaction == 1 && f.Status == sae.StatusUnspecified:
		a.cnt[counter.SAEBadCommit]++
	case f.Transaction == 2 && f.Status == sae.StatusChallengeFail:
		a.cnt[counter.SAEConfirmMismatch]++
	}
}

func (a *AP) countSAEDrop(d sae.Drop) {
	switch d {
	case sae.DropBadToken:
		a.cnt[counter.SAEBadToken]++
	case sae.DropReflection:
		a.cnt[counter.SAEReflection]++
	case sae.DropSync:
		a.cnt[counter.SAESyncErrors]++
	case sae.DropNone, sae.DropStale, sae.DropCancelled: // counted where cancelled
	default:
		a.cnt[counter.SAEDropped]++
	}
}

// describeSAE adds a WPA3 station's SAE group and method to its status.
func (s *station) describeSAE(st *ctl.Station) {
	if s.SAE == nil || s.RSN == nil || s.RSN.HS.AKM() != rsn.AKMSAE {
		return
	}
	st.SAEGroup, st.SAEMethod = s.SAE.Keys.Group, "hunting-and-pecking"
	if s.SAE.Keys.H2E {
		st.SAEMethod = "hash-to-element"
	}
}

// securityName is what the status calls a BSS offering akms.
func securityName(akms []rsn.AKM) string {
	switch {
	case !slices.Contains(akms, rsn.AKMSAE):
		return "WPA2-Personal"
	case len(akms) == 1:
		return "WPA3-Personal"
	}
	return "WPA2/WPA3-Personal transition"
}

// reportSAEFailure logs the refusals an operator asks about: a wrong
// password (the Confirm did not verify) and an unknown identifier.
func (a *AP) reportSAEFailure(now time.Duration, sa ieee80211.MAC, f sae.Frame) {
	var why string
	switch {
	case f.Transaction == 2 && f.Status == sae.StatusChallengeFail:
		why = "SAE confirm mismatch: wrong password likely"
	case f.Transaction == 1 && f.Status == sae.StatusUnknownPasswordID:
		why = "unknown SAE password identifier"
	default:
		return
	}
	a.event(Event{At: now, Kind: EventSAEFailed, Addr: sa, Reason: f.Status, Why: why})
}
