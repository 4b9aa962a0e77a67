package nl80211

import "github.com/mdlayher/genetlink"

// eventsReadBuffer is the receive buffer of an Events socket: room for a
// burst of interface and regulatory notifications.
const eventsReadBuffer = 1 << 20

// DialEvents opens an event connection joined to the named multicast groups
// (GroupConfig, GroupMLME, GroupRegulatory).
func DialEvents(groups ...string) (*Events, error) {
	c, err := genetlink.Dial(nil)
	if err != nil {
		return nil, wrap("dial events", err)
	}
	_ = c.SetReadBuffer(eventsReadBuffer)
	e, err := newEvents(c)
	if err != nil {
		return nil, err
	}
	if err := e.join(groups); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}
