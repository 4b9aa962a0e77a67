package nl80211

import (
	"fmt"
	"strings"

	"github.com/airq/airq/internal/link"
)

// Blocker is an interface on the wiphy airq wants that would get in its way,
// with the reason in words.
type Blocker struct {
	Interface
	Reason string
	// Delete says the takeover deletes the interface (a stale monitor of
	// another airq) rather than only bringing it down.
	Delete bool
}

func (b Blocker) String() string {
	return fmt.Sprintf("%s (%v, %s): %s", b.Name, b.Type, upDown(b.Up), b.Reason)
}

func upDown(up bool) string {
	if up {
		return "up"
	}
	return "down"
}

// Blockers returns the interfaces of ifs that stand in the way of an airq
// monitor interface with address ours (and a name starting with prefix) on
// wiphy phy:
//
//   - any non-monitor interface that is up (a managed interface kept up by
//     NetworkManager or wpa_supplicant, an AP, a mesh point): cfg80211
//     refuses to retune a monitor while anything but monitors runs on the
//     wiphy, so every channel change would fail with EBUSY;
//   - another airq monitor, up or down: an interface with our name prefix or
//     our address (left behind by a killed daemon, or a second daemon
//     running), which would answer for the same BSSID or take our name.
//
// Interfaces that are down and not airq's do not block: a down interface
// neither holds the channel nor ACKs.
func Blockers(ifs []Interface, phy int, ours [6]byte, prefix string) []Blocker {
	var out []Blocker
	for _, ifi := range ifs {
		if ifi.PHY != phy {
			continue
		}
		switch {
		case ifi.Type == IfTypeMonitor && (ifi.Addr == ours || prefix != "" && strings.HasPrefix(ifi.Name, prefix)):
			out = append(out, Blocker{Interface: ifi, Delete: true,
				Reason: "another airq monitor interface (same name prefix or our address)"})
		case ifi.Type != IfTypeMonitor && ifi.Up:
			out = append(out, Blocker{Interface: ifi,
				Reason: "a running " + ifi.Type.String() + " interface makes channel changes fail with EBUSY"})
		}
	}
	return out
}

// Takeover removes the blockers: stale airq monitors are deleted, the other
// interfaces are brought down (and left in place, so that the operator can
// bring them back). A network manager may bring a downed interface up again;
// tell it to leave the interface alone (nmcli device set NAME managed no).
func (c *Conn) Takeover(blockers []Blocker) error {
	for _, b := range blockers {
		if b.Delete {
			if err := c.DelInterface(b.Index); err != nil {
				return err
			}
			continue
		}
		if err := link.Down(b.Name); err != nil {
			return &Error{Op: "bring down " + b.Name, Err: err}
		}
	}
	return nil
}
