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
	// EventRefused: the access lists refused the station's authentication
	// or association (Why says which). hostapd only logs this, so the
	// control protocol's event stream does not carry it.
	EventRefused
	// EventHandshakeCompleted: a 4-way handshake completed, the first
	// (after EventConnected) or a PTK rekey (hostapd's
	// EAPOL-4WAY-HS-COMPLETED).
	EventHandshakeCompleted
	// EventHandshakeFailed: a station was deauthenticated before its
	// first 4-way handshake completed; Why says the likely cause. hostapd
	// only logs this.
	EventHandshakeFailed
	// EventSAEFailed: an SAE exchange was refused at the station's
	// Confirm (status 15: a wrong password, most likely) or for an
	// unknown password identifier (123); Reason carries the status.
	// hostapd only logs this.
	EventSAEFailed
	// EventUnacked: unicast frames to a BSSID (Addr) came again and again
	// with Retry set, Count of them since the last such event: the
	// hardware does not seem to ACK the address. hostapd has no such
	// event; the daemon logs it as a warning, at most once a minute per
	// BSS.
	EventUnacked
	// EventNo40MHz: the 20/40 MHz coexistence check (CoexConfig) found
	// a BSS that forbids 40 MHz on the Primary and Secondary channels:
	// the radio runs at 20 MHz. Addr is that BSS, Freq its channel and
	// Why the rule it broke. hostapd logs "20/40 MHz operation not
	// permitted on channel pri=%d sec=%d based on overlapping BSSes".
	EventNo40MHz
	// EventWidth: a 40 MHz radio on 2.4 GHz switched to 20 MHz (Secondary
	// 0) or back to 40 MHz for 20/40 MHz coexistence; Why says what made
	// it, Addr the station that did, if one did (coex_run.go).
	EventWidth
)

// String names the kind as hostapd's events and log lines do.
func (k EventKind) String() string {
	switch k {
	case EventConnected:
		return "AP-STA-CONNECTED"
	case EventDisconnected:
		return "AP-STA-DISCONNECTED"
	case EventRefused:
		return "station refused by the access lists"
	case EventHandshakeCompleted:
		return "EAPOL-4WAY-HS-COMPLETED"
	case EventHandshakeFailed:
		return "4-way handshake failed"
	case EventSAEFailed:
		return "SAE authentication failed"
	case EventWidth:
		return "channel width changed"
	case EventNo40MHz:
		return "20/40 MHz operation not permitted based on overlapping BSSes"
	case EventUnacked:
		return "frames to the BSSID go unacknowledged: does the hardware ACK its address?"
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
	// Why says in words what ended the association, or, for a refusal,
	// the request refused ("authentication", "association").
	Why string
	// KeyID is the keyid= of the wpa_psk_file line a WPA2 station
	// connected with (EventConnected), as hostapd's AP-STA-CONNECTED
	// carries it.
	KeyID string
	// BSS is the name of the BSS the event is of (a station's, the BSS
	// that refused it) when the radio carries several; "" with one, or
	// when the BSS has no name.
	BSS string
	// Count is EventUnacked's count of unanswered frames.
	Count uint64
	// Primary and Secondary are EventNo40MHz's channel pair, Freq the
	// channel of the BSS that forbade it (MHz).
	Primary, Secondary int
	Freq               int
}

// maxEvents bounds the events waiting for Flush; the oldest go first.
const maxEvents = 256

func (a *AP) event(e Event) {
	switch {
	case len(a.bsses) == 1:
		e.BSS = "" // nothing to tell apart: the lines stay as hostapd's with one BSS
	case e.BSS == "":
		e.BSS = a.stationBSS(e.Addr)
	}
	if len(a.events) == maxEvents {
		copy(a.events, a.events[1:])
		a.events = a.events[:maxEvents-1]
		a.cnt[counter.EventsLost]++
	}
	a.events = append(a.events, e)
}

// drainEvents hands queued events to the driver, oldest first, and forgets
// them.
func (a *AP) drainEvents(d Driver) {
	for _, e := range a.events {
		d.Event(e)
	}
	a.events = a.events[:0]
}
