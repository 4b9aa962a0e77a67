package rsn

import (
	"crypto/subtle"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// PMKSA cache limits: hostapd's dot11RSNAConfigPMKLifetime default and
// pmksa_cache_auth's maximum (an entry beyond it evicts the oldest).
const (
	PMKSALifetime   = 43200 * time.Second
	PMKSACacheLimit = 1024
)

// PMKSA is a cached security association: what an SAE exchange (or a
// later 802.1X one) left behind for a station to reassociate with by
// naming its PMKID instead of authenticating again.
type PMKSA struct {
	SPA     ieee80211.MAC
	PMKID   PMKID
	PMK     PMK
	AKM     AKM
	Group   uint16 // the SAE group, for observability
	H2E     bool   // SAE used hash-to-element
	Expires time.Duration
}

// PMKSACache is a BSS's PMKSA cache as hostapd's pmksa_cache_auth: one
// entry per station (a new one replaces the station's older), an entry
// expiring after PMKSALifetime, and at most PMKSACacheLimit entries, the
// oldest evicted first. Time is passed in.
type PMKSACache struct {
	// entries in the order they were added, oldest first; a lookup
	// scans them: 1,024 entries at most, at association time only.
	entries []PMKSA
}

// Add caches an association for its station, replacing the station's
// earlier one, and returns the evicted count (0 or 1) beyond the limit.
func (c *PMKSACache) Add(now time.Duration, e PMKSA) int {
	c.expire(now)
	c.Remove(e.SPA)
	e.Expires = now + PMKSALifetime
	evicted := 0
	if len(c.entries) >= PMKSACacheLimit {
		c.entries = slices.Delete(c.entries, 0, 1) // zeroes the slot it frees
		evicted = 1
	}
	c.entries = append(c.entries, e)
	return evicted
}

// Get returns the live entry of spa whose PMKID is id, comparing PMKIDs
// in constant time, as pmksa_cache_auth_get.
func (c *PMKSACache) Get(now time.Duration, spa ieee80211.MAC, id PMKID) (PMKSA, bool) {
	for _, e := range c.entries {
		if e.SPA == spa && e.Expires > now && subtle.ConstantTimeCompare(e.PMKID[:], id[:]) == 1 {
			return e, true
		}
	}
	return PMKSA{}, false
}

// Of returns spa's live entry whatever its PMKID, as pmksa_cache_auth_get
// with no PMKID (hostapd's GET_PMK falls back to it).
func (c *PMKSACache) Of(now time.Duration, spa ieee80211.MAC) (PMKSA, bool) {
	for _, e := range c.entries {
		if e.SPA == spa && e.Expires > now {
			return e, true
		}
	}
	return PMKSA{}, false
}

// Remove forgets spa's entry, if any.
func (c *PMKSACache) Remove(spa ieee80211.MAC) {
	for i := range c.entries {
		if c.entries[i].SPA == spa {
			c.entries = slices.Delete(c.entries, i, i+1)
			return
		}
	}
}

// Flush forgets every entry (a new password makes them all stale).
func (c *PMKSACache) Flush() {
	clear(c.entries)
	c.entries = c.entries[:0]
}

// Len returns the number of entries, expired ones included until the
// next Add.
func (c *PMKSACache) Len() int { return len(c.entries) }

func (c *PMKSACache) expire(now time.Duration) {
	kept := c.entries[:0]
	for _, e := range c.entries {
		if e.Expires > now {
			kept = append(kept, e)
		}
	}
	clear(c.entries[len(kept):]) // the freed slots keep no PMK
	c.entries = kept
}

// String keeps the PMK out of logs.
func (e PMKSA) String() string {
	return fmt.Sprintf("pmksa %v %v pmkid %x", e.SPA, e.AKM, e.PMKID[:])
}

// Format prints String for every verb, so no key leaks through %v.
func (e PMKSA) Format(f fmt.State, _ rune) { io.WriteString(f, e.String()) }
