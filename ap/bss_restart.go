package ap

import (
	"fmt"
	"slices"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// RestartBSS restarts BSS i of the radio (1 for Config.BSSes[0]: the
// first BSS's keys are the radio's Config, which only a new start
// changes) with c, alone: its stations are deauthenticated as hostapd's
// reload deauthenticates them (reason 2, the previous authentication no
// longer valid, to each and to the broadcast address), then the BSS is
// made anew from c (its beacon and probe responses, its table and AIDs,
// its budgets, and its RSN: a new authenticator with fresh GTK and IGTK
// and their rekey timer, its PSKs and SAE PTs derived for c's SSID, an
// empty PMKSA cache) at its own TBTT and TSF, open or secured as c says;
// the other BSSes, their keys, PNs and stations are left as they are.
// c's BSSID, zero for the running one, must be the running one: an
// interface holds it for the hardware's ACKs. c is checked as New checks
// it; on an error nothing changes.
func (a *AP) RestartBSS(now time.Duration, i int, c BSSConfig) error {
	return a.RestartBSSWith(now, i, c, nil)
}

// RestartBSSWith is RestartBSS with keys, c.RSN's PMKs and SAE PTs for
// c.SSID (DerivePSKs) derived by the caller off the core's loop, as a
// reload derives them: PBKDF2 and the password elements take
// milliseconds, which the other BSSes' traffic would wait. nil derives
// them here.
func (a *AP) RestartBSSWith(now time.Duration, i int, c BSSConfig, keys *PSKs) error {
	if i < 1 || i >= len(a.bsses) {
		return fmt.Errorf("bss restart: BSS %d: the radio's BSSes after the first are 1 to %d", i, len(a.bsses)-1)
	}
	old := a.bsses[i]
	if c.BSSID.IsZero() {
		c.BSSID = old.BSSID
	}
	if c.BSSID != old.BSSID {
		return fmt.Errorf("%s: bssid %v: a new BSSID takes a new start of the radio (an interface holds %v for the hardware's ACKs)", c.label(i+1), c.BSSID, old.BSSID)
	}
	next := a.cfg
	next.BSSes = slices.Clone(a.cfg.BSSes)
	next.BSSes[i-1] = c
	if err := next.checkBSSes(); err != nil {
		return err
	}
	x := next.BSSes[i-1]
	var sec *rsnState
	if x.RSN != nil {
		var err error
		if sec, err = newRSN(x.RSN, x.SSID, x.BSSID, keys, x.MaxStations, a.rxScratch()); err != nil {
			return fmt.Errorf("%s: %w", x.label(i+1), err)
		}
	}
	for slot := range a.sta.used() {
		if a.sta.slots[slot].bss == old {
			a.disconnect(now, slot, ieee80211.ReasonPrevAuthNotValid, "BSS restarted", true)
		}
	}
	if a.started { // a BSS switched off (Disable) sends nothing
		a.sendDeauth(now, old, ieee80211.Broadcast, ieee80211.ReasonPrevAuthNotValid)
	}
	a.dropSAEQueue(a.radios[i])
	a.replaceBSS(i, x)
	a.setRSN(i, sec)
	a.cfg.BSSes = next.BSSes
	if a.started || a.disabled && !a.held {
		// The new GTK and IGTK, their rekey timer from now; a radio
		// switched off rekeys them on Enable, one not started yet starts
		// them with the others.
		a.rsnStart(now)
	}
	return nil
}

// rxScratch is the radio's receive buffer for the secured BSSes, made
// with the first of them.
func (a *AP) rxScratch() []byte {
	if len(a.rsns) > 0 {
		return a.rsns[0].scratch
	}
	return make([]byte, maxRxFrame)
}

// dropSAEQueue cancels the SAE jobs r's BSS queued for the driver: they
// go with its authenticator. Jobs the driver holds come back to no owner
// and are dropped (finishSAE).
func (a *AP) dropSAEQueue(r *bssRadio) {
	st := r.sae()
	if st == nil {
		return
	}
	for _, j := range st.queue {
		j.Cancel()
	}
	a.saeQueued -= len(st.queue)
	st.queue = nil
}

// setRSN makes sec, nil for an open network, BSS i's RSN, in its beacons
// and in the radio's list of secured BSSes, kept in BSS order.
func (a *AP) setRSN(i int, sec *rsnState) {
	r := a.radios[i]
	r.rsn = sec
	r.b.Profile.RSNE = nil
	if sec != nil {
		r.b.Profile.RSNE = sec.ie
	}
	a.rsns = a.rsns[:0]
	for _, x := range a.radios {
		if x.rsn != nil {
			a.rsns = append(a.rsns, x.rsn)
		}
	}
}

// replaceBSS makes BSS i anew from x as New makes it (addBSS), keeping its
// place in the radio's list, and so its index in the group frames'
// records and the airtime policy, its TBTT and its TSF. Its buffered group
// frames go with its stations.
func (a *AP) replaceBSS(i int, x BSSConfig) {
	was := a.radios[i]
	a.flushGroup(was)
	a.addBSS(x, a.bss)
	last := len(a.bsses) - 1
	a.bsses[i], a.radios[i] = a.bsses[last], a.radios[last]
	a.bsses, a.radios = a.bsses[:last], a.radios[:last]
	a.radios[i].tbtt, a.radios[i].tsfAdjust, a.radios[i].groupQueued = was.tbtt, was.tsfAdjust, was.groupQueued
	a.load.on = a.anyBSSLoad()
}
