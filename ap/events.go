package ap

import (
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
)

// EventKind says what happened to a station.
type EventKind uint8

const (
	EventConnected EventKind = iota + 1
	EventDisconnected
)

func (k EventKind) String() string {
	switch k {
	case EventConnected:
		return "AP-STA-CONNECTED"
	case EventDisconnected:
		return "AP-STA-DISCONNECTED"
	}
	return "?"
}

// Event is an operator-visible station event, named like hostapd's.
type Event struct {
	At     time.Duration
	Kind   EventKind
	Addr   ieee80211.MAC
	AID    uint16
	Reason uint16 // 802.11 reason code for disconnections
	Why    string
}

const maxEvents = 256

func (a *AP) event(e Event) {
	if len(a.events) == maxEvents {
		copy(a.events, a.events[1:])
		a.events = a.events[:maxEvents-1]
		a.cnt[counter.EventsLost]++
	}
	a.events = append(a.events, e)
}

// DrainEvents hands queued events to fn, oldest first, and forgets them.
func (a *AP) DrainEvents(fn func(Event)) {
	for _, e := range a.events {
		fn(e)
	}
	a.events = a.events[:0]
}
