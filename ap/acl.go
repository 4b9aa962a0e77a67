package ap

import (
	"fmt"
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
)

// ACLMode is hostapd's macaddr_acl.
type ACLMode uint8

const (
	// ACLAcceptUnlessDenied admits every station not in the deny list
	// (macaddr_acl=0).
	ACLAcceptUnlessDenied ACLMode = 0
	// ACLDenyUnlessAccepted admits only the stations in the accept list
	// (macaddr_acl=1).
	ACLDenyUnlessAccepted ACLMode = 1
)

func (m ACLMode) String() string {
	switch m {
	case ACLAcceptUnlessDenied:
		return "accept unless denied"
	case ACLDenyUnlessAccepted:
		return "deny unless accepted"
	}
	return fmt.Sprintf("ACLMode(%d)", uint8(m))
}

// ACL are the MAC access lists, decided as hostapd's hostapd_check_acl
// decides: a station in Accept is admitted, else one in Deny is refused,
// else the mode decides. The zero value admits everyone. The maps are built
// once (NewACL) and never written afterwards: the core reads them on every
// authentication and a reload replaces the whole value.
type ACL struct {
	Mode   ACLMode
	Accept map[ieee80211.MAC]struct{}
	Deny   map[ieee80211.MAC]struct{}
}

// NewACL builds the lists from the addresses.
func NewACL(mode ACLMode, accept, deny []ieee80211.MAC) ACL {
	set := func(l []ieee80211.MAC) map[ieee80211.MAC]struct{} {
		m := make(map[ieee80211.MAC]struct{}, len(l))
		for _, a := range l {
			m[a] = struct{}{}
		}
		return m
	}
	return ACL{Mode: mode, Accept: set(accept), Deny: set(deny)}
}

// Allows reports whether the lists admit addr.
func (l *ACL) Allows(addr ieee80211.MAC) bool {
	if _, ok := l.Accept[addr]; ok {
		return true
	}
	if _, ok := l.Deny[addr]; ok {
		return false
	}
	return l.Mode == ACLAcceptUnlessDenied
}

func (l *ACL) validate() error {
	switch l.Mode {
	case ACLAcceptUnlessDenied, ACLDenyUnlessAccepted:
		return nil
	}
	return fmt.Errorf("macaddr_acl: %d, want 0 (accept unless in the deny list) or 1 (deny unless in the accept list)", l.Mode)
}

// aclRefuses checks sa against the access lists; a refusal is counted and
// reported as an EventRefused.
func (a *AP) aclRefuses(now time.Duration, sa ieee80211.MAC, during string) bool {
	if a.cfg.ACL.Allows(sa) {
		return false
	}
	a.cnt[counter.ACLDenied]++
	a.event(Event{At: now, Kind: EventRefused, Addr: sa, Why: during})
	return true
}

// ACLDenied is how many authentications and associations the access lists
// refused.
func (a *AP) ACLDenied() uint64 { return a.cnt[counter.ACLDenied] }

// ACL returns the access lists in force; the maps must not be written.
func (a *AP) ACL() ACL { return a.cfg.ACL }

// SetACL replaces the access lists live: from now on authentication and
// association follow acl. It returns the stations in the table (associated
// or only authenticated) that acl refuses, in AID order; the caller removes
// them (airqd deauthenticates them, as hostapd disconnects a station its
// deny list gains), or lets them stay until they authenticate again.
func (a *AP) SetACL(acl ACL) ([]ieee80211.MAC, error) {
	if err := acl.validate(); err != nil {
		return nil, err
	}
	a.cfg.ACL = acl
	var out []ieee80211.MAC
	for slot := range a.sta.used() {
		if addr := a.sta.slots[slot].addr; !acl.Allows(addr) {
			out = append(out, addr)
		}
	}
	return out, nil
}
