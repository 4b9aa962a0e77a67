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
// its budgets) at its own TBTT and TSF; the other BSSes and their
// stations are left as they are. c's BSSID, zero for the running one,
// must be the running one: an interface holds it for the hardware's ACKs.
// A secured BSS, running or asked for, is refused. c is checked as New
// checks it; on an error nothing changes.
func (a *AP) RestartBSS(now time.Duration, i int, c BSSConfig) error {
	if i < 1 || i >= len(a.bsses) {
		return fmt.Errorf("bss restart: BSS %d: the radio's BSSes after the first are 1 to %d", i, len(a.bsses)-1)
	}
	old := a.bsses[i]
	if c.BSSID.IsZero() {
		c.BSSID = old.BSSID
	}
	if c.RSN != nil || a.cfg.BSSes[i-1].RSN != nil {
		// Its authenticator, group keys and their timers are built with
		// the radio (New), not here.
		return fmt.Errorf("%s: a secured BSS restarts only with the radio: restart airqd", c.label(i+1))
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
	for slot := range a.sta.used() {
		if a.sta.slots[slot].bss == old {
			a.disconnect(now, slot, ieee80211.ReasonPrevAuthNotValid, "BSS restarted", true)
		}
	}
	if a.started { // a BSS switched off (Disable) sends nothing
		a.sendDeauth(now, old, ieee80211.Broadcast, ieee80211.ReasonPrevAuthNotValid)
	}
	a.replaceBSS(i, next.BSSes[i-1])
	a.cfg.BSSes = next.BSSes
	return nil
}

// replaceBSS makes BSS i anew from x as New makes it (addBSS), keeping its
// place in the radio's list, and so its index in the group frames'
// records and the airtime policy, its TBTT and its TSF.
func (a *AP) replaceBSS(i int, x BSSConfig) {
	was := a.radios[i]
	a.addBSS(x, a.bss)
	last := len(a.bsses) - 1
	a.bsses[i], a.radios[i] = a.bsses[last], a.radios[last]
	a.bsses, a.radios = a.bsses[:last], a.radios[:last]
	a.radios[i].tbtt, a.radios[i].tsfAdjust = was.tbtt, was.tsfAdjust
}
