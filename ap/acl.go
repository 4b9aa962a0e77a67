package ap

import (
	"time"

	"github.com/airq/airq/bss"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
)

// aclRefuses checks sa against the access lists; a refusal is counted and
// reported as an EventRefused.
func (a *AP) aclRefuses(now time.Duration, b *bss.BSS, sa ieee80211.MAC, during string) bool {
	if b.ACL.Allows(sa) {
		return false
	}
	a.cnt[counter.ACLDenied]++
	b.Counts.ACLDenied++
	a.event(Event{At: now, Kind: EventRefused, Addr: sa, Why: during, BSS: a.bssName(int(a.indexOf(b)))})
	return true
}

// ACLDenied is how many authentications and associations the access lists
// refused.
func (a *AP) ACLDenied() uint64 { return a.cnt[counter.ACLDenied] }

// ACL returns the access lists in force; the maps must not be written.
func (a *AP) ACL() bss.ACL { return a.bss.ACL }

// SetACL replaces the access lists live: from now on authentication and
// association follow acl. It returns the stations in the table (associated
// or only authenticated) that acl refuses, in AID order; the caller removes
// them (airqd deauthenticates them, as hostapd disconnects a station its
// deny list gains), or lets them stay until they authenticate again.
func (a *AP) SetACL(acl bss.ACL) ([]ieee80211.MAC, error) {
	if err := acl.Validate(); err != nil {
		return nil, err
	}
	a.bss.ACL = acl
	a.cfg.ACL = acl // Config reports the lists in force
	var out []ieee80211.MAC
	for slot := range a.sta.used() {
		if addr := a.sta.slots[slot].Addr; !acl.Allows(addr) {
			out = append(out, addr)
		}
	}
	return out, nil
}
