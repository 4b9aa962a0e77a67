package ctl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The event kinds, named as hostapd names them.
const (
	EventConnected    = "AP-STA-CONNECTED"
	EventDisconnected = "AP-STA-DISCONNECTED"
	// EventHandshakeCompleted: a WPA2 4-way handshake completed, the first
	// (right after AP-STA-CONNECTED) or a PTK rekey; hostapd_cli's line
	// has the address alone.
	EventHandshakeCompleted = "EAPOL-4WAY-HS-COMPLETED"
	EventsLost              = "EVENTS-LOST" // Lost events were dropped for a slow client
)

// eventPrefix is wpa_ctrl's MSG_INFO level, which hostapd puts before every
// unsolicited message and hostapd_cli prints.
const eventPrefix = "<3>"

// Event is one line of the events stream (see doc.go).
type Event struct {
	Kind   string `json:"event"`
	Addr   MAC    `json:"mac,omitzero"`
	AID    uint16 `json:"aid,omitempty"`
	Reason uint16 `json:"reason,omitempty"` // 802.11 reason code, AP-STA-DISCONNECTED only
	Lost   uint64 `json:"count,omitempty"`  // EVENTS-LOST only
	// BSS names the station's BSS, as hostapd's global socket does
	// (IFNAME=NAME before the line); "" when the daemon names none.
	BSS string `json:"bss,omitempty"`
}

// ifnamePrefix starts an event of a named BSS, as on hostapd's global
// control socket.
const ifnamePrefix = "IFNAME="

// AppendText appends the event's line, newline included.
func (e *Event) AppendText(b []byte) []byte {
	if e.BSS != "" {
		b = append(append(append(b, ifnamePrefix...), e.BSS...), ' ')
	}
	b = append(append(b, eventPrefix...), e.Kind...)
	switch e.Kind {
	case EventsLost:
		b = strconv.AppendUint(append(b, " count="...), e.Lost, 10)
	case EventConnected:
		b = append(append(b, ' '), e.Addr.String()...)
		b = strconv.AppendUint(append(b, " aid="...), uint64(e.AID), 10)
	case EventHandshakeCompleted:
		b = append(append(b, ' '), e.Addr.String()...)
	default:
		b = append(append(b, ' '), e.Addr.String()...)
		b = strconv.AppendUint(append(b, " aid="...), uint64(e.AID), 10)
		b = strconv.AppendUint(append(b, " reason="...), uint64(e.Reason), 10)
	}
	return append(b, '\n')
}

// ParseEvent parses one line of the stream (a trailing newline is allowed).
func ParseEvent(line string) (Event, error) {
	rest := strings.TrimSuffix(line, "\n")
	var bss string
	if named, ok := strings.CutPrefix(rest, ifnamePrefix); ok {
		bss, rest, _ = strings.Cut(named, " ")
		if bss == "" || len(bss) > maxDevName {
			return Event{}, fmt.Errorf("event %q: BSS name %q: want 1 to %d characters", line, bss, maxDevName)
		}
	}
	rest, ok := strings.CutPrefix(rest, eventPrefix)
	if !ok {
		return Event{}, fmt.Errorf("event %q: want %s before the kind", line, eventPrefix)
	}
	f := strings.Split(rest, " ")
	e := Event{Kind: f[0], BSS: bss}
	keys := []string{"count"}
	switch e.Kind {
	case EventsLost:
		f = f[1:]
	case EventConnected, EventDisconnected, EventHandshakeCompleted:
		if len(f) < 2 {
			return Event{}, fmt.Errorf("event %q: want a MAC address after the kind", line)
		}
		if err := e.Addr.UnmarshalText([]byte(f[1])); err != nil {
			return Event{}, fmt.Errorf("event %q: %w", line, err)
		}
		switch e.Kind {
		case EventConnected:
			keys = []string{"aid"}
		case EventHandshakeCompleted:
			keys = nil
		default:
			keys = []string{"aid", "reason"}
		}
		f = f[2:]
	default:
		return Event{}, fmt.Errorf("event %q: unknown kind, want %s, %s, %s or %s", line, EventConnected, EventDisconnected,
			EventHandshakeCompleted, EventsLost)
	}
	if len(f) != len(keys) {
		return Event{}, fmt.Errorf("event %q: want %s=N", line, strings.Join(keys, "=N "))
	}
	for i, kv := range f {
		k, v, _ := strings.Cut(kv, "=")
		if k != keys[i] {
			return Event{}, fmt.Errorf("event %q: %q, want %s=N", line, kv, keys[i])
		}
		bits := 16
		if k == "count" {
			bits = 64
		}
		n, err := parseDecimal(v, bits)
		if err != nil {
			return Event{}, fmt.Errorf("event %q: %s=%q: want an unsigned %d-bit number", line, k, v, bits)
		}
		switch k {
		case "aid":
			e.AID = uint16(n)
		case "reason":
			e.Reason = uint16(n)
		case "count":
			e.Lost = n
		}
	}
	return e, nil
}

// parseDecimal accepts digits only, so the text form is canonical.
func parseDecimal(s string, bits int) (uint64, error) {
	if s == "" || s[0] < '0' || s[0] > '9' || (len(s) > 1 && s[0] == '0') {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseUint(s, 10, bits)
}

// Streamer is a Handler that also serves the events stream. Stream writes
// the reply and then the event lines to w until the client goes away or the
// server stops; Serve returns what it returns, since a stream ends the
// session.
type Streamer interface {
	Handler
	Stream(req Request, w io.Writer) error
}

// Subscribe sends the events request and reads its reply; then NextEvent
// reads the stream.
func (c *Client) Subscribe() error {
	_, err := c.Do(Request{Op: OpEvents})
	return err
}

// NextEvent reads the next event of a stream Subscribe started. It returns
// io.EOF when the daemon ends the stream.
func (c *Client) NextEvent() (Event, error) {
	line, err := c.r.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return Event{}, errors.New("ctl: event line too long")
	case err == io.EOF && len(line) == 0:
		return Event{}, io.EOF
	case err == io.EOF:
		return Event{}, fmt.Errorf("ctl: event: %w", io.ErrUnexpectedEOF)
	case err != nil:
		return Event{}, err
	}
	return ParseEvent(string(line))
}
