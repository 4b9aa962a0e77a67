package bss

import (
	"fmt"

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

// Validate refuses a mode hostapd does not know, naming its key.
func (l *ACL) Validate() error {
	switch l.Mode {
	case ACLAcceptUnlessDenied, ACLDenyUnlessAccepted:
		return nil
	}
	return fmt.Errorf("macaddr_acl: %d, want 0 (accept unless in the deny list) or 1 (deny unless in the accept list)", l.Mode)
}
