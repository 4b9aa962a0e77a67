package nl80211

import (
	"errors"
	"fmt"
	"time"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"
)

// Multicast groups an Events connection can join.
const (
	GroupConfig     = groupConfig     // interfaces and wiphys added, removed, changed
	GroupMLME       = groupMLME       // channel switches and other MLME events
	GroupRegulatory = groupRegulatory // regulatory domain changes
)

// ErrResync is returned by Events.Next when the kernel dropped events
// because the socket's receive buffer overflowed (ENOBUFS). The listener has
// lost track: it must re-read the state it follows (Interfaces, RegDomain)
// and carry on reading.
var ErrResync = errors.New("nl80211: events lost (ENOBUFS), state must be re-read")

// EventKind classifies an nl80211 notification.
type EventKind int

// Event kinds.
const (
	EventOther          EventKind = iota
	EventNewInterface             // NL80211_CMD_NEW_INTERFACE
	EventDelInterface             // NL80211_CMD_DEL_INTERFACE: the interface is gone
	EventSetInterface             // NL80211_CMD_SET_INTERFACE
	EventNewWiphy                 // NL80211_CMD_NEW_WIPHY
	EventDelWiphy                 // NL80211_CMD_DEL_WIPHY: the radio is gone
	EventRegChange                // NL80211_CMD_REG_CHANGE: the global domain changed
	EventWiphyRegChange           // NL80211_CMD_WIPHY_REG_CHANGE: a self-managed wiphy's domain changed
	EventChannelSwitch            // NL80211_CMD_CH_SWITCH_NOTIFY
)

var eventKinds = map[uint8]EventKind{
	cmdNewInterface:   EventNewInterface,
	cmdDelInterface:   EventDelInterface,
	cmdSetInterface:   EventSetInterface,
	cmdNewWiphy:       EventNewWiphy,
	cmdDelWiphy:       EventDelWiphy,
	cmdRegChange:      EventRegChange,
	cmdWiphyRegChange: EventWiphyRegChange,
	cmdChSwitchNotify: EventChannelSwitch,
}

// Regulatory domain types (NL80211_REGDOM_TYPE_*) in EventRegChange.
const (
	RegTypeCountry      = 0
	RegTypeWorld        = 1
	RegTypeCustomWorld  = 2
	RegTypeIntersection = 3
)

// Event is one nl80211 notification. Fields the kernel did not send are zero;
// PHY is -1 when the event names no wiphy.
type Event struct {
	Kind    EventKind
	Cmd     uint8 // the nl80211 command number
	PHY     int
	Ifindex int
	Ifname  string
	Freq    int    // channel switch: the new control frequency
	Alpha2  string // regulatory change: the country ("00" world)
	RegType int    // regulatory change: RegType*
}

// Events is a connection that receives nl80211 notifications. It is separate
// from Conn: an event arriving during a request would break the request's
// reply matching. Next must be called from one goroutine at a time.
type Events struct {
	c      *genetlink.Conn
	family genetlink.Family
}

// newEvents wraps c; joining groups is the caller's business.
func newEvents(c *genetlink.Conn) (*Events, error) {
	f, err := c.GetFamily(genlName)
	if err != nil {
		c.Close()
		return nil, wrap("get family", err)
	}
	return &Events{c: c, family: f}, nil
}

// join subscribes to the named multicast groups.
func (e *Events) join(groups []string) error {
	for _, name := range groups {
		id, ok := uint32(0), false
		for _, g := range e.family.Groups {
			if g.Name == name {
				id, ok = g.ID, true
			}
		}
		if !ok {
			return &Error{Op: "join group " + name, Err: fmt.Errorf("no such nl80211 multicast group")}
		}
		if err := e.c.JoinGroup(id); err != nil {
			return wrap("join group "+name, err)
		}
	}
	return nil
}

// Close closes the connection and unblocks Next.
func (e *Events) Close() error { return e.c.Close() }

// SetDeadline bounds the Next calls; the zero time removes the bound. Next
// fails with an error matching os.ErrDeadlineExceeded once it passes.
func (e *Events) SetDeadline(t time.Time) error { return e.c.SetReadDeadline(t) }

// Next blocks until the kernel sends notifications and returns them. It
// returns ErrResync (and no events) when the kernel dropped some.
func (e *Events) Next() ([]Event, error) {
	msgs, _, err := e.c.Receive()
	if err != nil {
		if errors.Is(err, unix.ENOBUFS) {
			return nil, ErrResync
		}
		return nil, wrap("receive events", err)
	}
	out := make([]Event, 0, len(msgs))
	for _, m := range msgs {
		ev, err := decodeEvent(m)
		if err != nil {
			return out, wrap("decode event", err)
		}
		out = append(out, ev)
	}
	return out, nil
}

func decodeEvent(m genetlink.Message) (Event, error) {
	ev := Event{Kind: eventKinds[m.Header.Command], Cmd: m.Header.Command, PHY: -1}
	ad, err := netlink.NewAttributeDecoder(m.Data)
	if err != nil {
		return ev, err
	}
	for ad.Next() {
		switch ad.Type() {
		case attrWiphy:
			ev.PHY = int(ad.Uint32())
		case attrIfindex:
			ev.Ifindex = int(ad.Uint32())
		case attrIfname:
			ev.Ifname = ad.String()
		case attrWiphyFreq:
			ev.Freq = int(ad.Uint32())
		case attrRegAlpha2:
			ev.Alpha2 = ad.String()
		case attrRegType:
			ev.RegType = int(ad.Uint8())
		}
	}
	return ev, ad.Err()
}
