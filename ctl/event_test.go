package ctl

import (
	"errors"
	"io"
	"net"
	"strings"
	"testing"
)

func TestEventLines(t *testing.T) {
	for _, c := range []struct {
		e    Event
		line string
	}{
		{Event{Kind: EventConnected, Addr: MAC(sta), AID: 1}, "<3>AP-STA-CONNECTED 02:00:00:00:01:00 aid=1\n"},
		{Event{Kind: EventDisconnected, Addr: MAC(sta), AID: 7, Reason: 3}, "<3>AP-STA-DISCONNECTED 02:00:00:00:01:00 aid=7 reason=3\n"},
		{Event{Kind: EventsLost, Lost: 12}, "<3>EVENTS-LOST count=12\n"},
		{Event{Kind: EventHandshakeCompleted, Addr: MAC(sta)}, "<3>EAPOL-4WAY-HS-COMPLETED 02:00:00:00:01:00\n"},
		// A named BSS's, as on hostapd's global socket.
		{Event{Kind: EventConnected, Addr: MAC(sta), AID: 2, BSS: "guest"}, "IFNAME=guest <3>AP-STA-CONNECTED 02:00:00:00:01:00 aid=2\n"},
	} {
		if got := string(c.e.AppendText(nil)); got != c.line {
			t.Errorf("%+v: %q, want %q", c.e, got, c.line)
		}
		if back, err := ParseEvent(c.line); err != nil || back != c.e {
			t.Errorf("ParseEvent(%q) = %+v, %v", c.line, back, err)
		}
	}
	for _, c := range []struct{ line, want string }{
		{"AP-STA-CONNECTED 02:00:00:00:01:00 aid=1", "want <3>"},
		{"<3>AP-STA-GONE 02:00:00:00:01:00", "unknown kind"},
		{"<3>AP-STA-CONNECTED", "want a MAC"},
		{"<3>AP-STA-CONNECTED 02:00:00:00:01 aid=1", "MAC"},
		{"<3>AP-STA-CONNECTED 02:00:00:00:01:00", "want aid=N"},
		{"<3>AP-STA-DISCONNECTED 02:00:00:00:01:00 aid=1", "want aid=N reason=N"},
		{"<3>AP-STA-CONNECTED 02:00:00:00:01:00 aid=01", "aid="},
		{"<3>AP-STA-CONNECTED 02:00:00:00:01:00 aid=70000", "16-bit"},
		{"<3>EVENTS-LOST count=x", "count="},
		{"<3>EAPOL-4WAY-HS-COMPLETED 02:00:00:00:01:00 aid=1", "want "},
		{"IFNAME= <3>AP-STA-CONNECTED 02:00:00:00:01:00 aid=1", "BSS name"},
		{"IFNAME=guest AP-STA-CONNECTED 02:00:00:00:01:00 aid=1", "want <3>"},
	} {
		if _, err := ParseEvent(c.line); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseEvent(%q): %v, want an error containing %q", c.line, err, c.want)
		}
	}
}

func FuzzParseEvent(f *testing.F) {
	f.Add("<3>AP-STA-CONNECTED 02:00:00:00:01:00 aid=1\n")
	f.Add("<3>AP-STA-DISCONNECTED 02:00:00:00:01:00 aid=7 reason=3")
	f.Add("<3>EVENTS-LOST count=18446744073709551615")
	f.Add("IFNAME=guest <3>AP-STA-CONNECTED 02:00:00:00:01:00 aid=2\n")
	f.Fuzz(func(t *testing.T, line string) {
		e, err := ParseEvent(line)
		if err != nil {
			return
		}
		back, err := ParseEvent(string(e.AppendText(nil)))
		if err != nil || back != e {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", line, e, e.AppendText(nil), back, err)
		}
	})
}

// streamer answers requests like fake and streams the events it is given.
type streamer struct{ events []Event }

func (s *streamer) Control(req Request) Reply { return fake(req) }

func (s *streamer) Stream(req Request, w io.Writer) error {
	ok := Reply{}
	if _, err := ok.WriteTo(w); err != nil {
		return err
	}
	for i := range s.events {
		if _, err := w.Write(s.events[i].AppendText(nil)); err != nil {
			return err
		}
	}
	return nil
}

func TestServeStream(t *testing.T) {
	evs := []Event{{Kind: EventConnected, Addr: MAC(sta), AID: 1}, {Kind: EventsLost, Lost: 2},
		{Kind: EventDisconnected, Addr: MAC(sta), AID: 1, Reason: 3}}
	cli, srv := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(srv, &streamer{evs}); srv.Close() }()
	c := NewClient(cli)
	if _, err := c.Do(Request{Op: OpStatus}); err != nil {
		t.Fatal(err)
	}
	if err := c.Subscribe(); err != nil {
		t.Fatal(err)
	}
	for _, want := range evs {
		if e, err := c.NextEvent(); err != nil || e != want {
			t.Errorf("event %+v, %v; want %+v", e, err, want)
		}
	}
	if _, err := c.NextEvent(); err != io.EOF {
		t.Errorf("after the stream: %v, want EOF", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	cli.Close()
}

// A handler that cannot stream answers events like any other request.
func TestServeEventsWithoutStreamer(t *testing.T) {
	cli, srv := net.Pipe()
	go func() { Serve(srv, HandlerFunc(fake)); srv.Close() }()
	defer cli.Close()
	var e *Error
	if err := NewClient(cli).Subscribe(); !errors.As(err, &e) || e.Errno != EOPNOTSUPP {
		t.Errorf("events without a streamer: %v", err)
	}
}
