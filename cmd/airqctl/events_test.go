package main

import (
	"io"
	"testing"

	"github.com/airq/airq/ctl"
)

// streamingAP is the fake with an events stream: two stations come and
// one goes, then the daemon stops.
type streamingAP struct{ *fakeAP }

func (s streamingAP) Stream(req ctl.Request, w io.Writer) error {
	ok := ctl.Reply{}
	if _, err := ok.WriteTo(w); err != nil {
		return err
	}
	for _, e := range []ctl.Event{
		{Kind: ctl.EventConnected, Addr: ctl.MAC{2, 0, 0, 0, 1, 0}, AID: 1},
		{Kind: ctl.EventConnected, Addr: ctl.MAC{2, 0, 0, 0, 1, 1}, AID: 2},
		{Kind: ctl.EventsLost, Lost: 3},
		{Kind: ctl.EventDisconnected, Addr: ctl.MAC{2, 0, 0, 0, 1, 0}, AID: 1, Reason: 4},
	} {
		if _, err := w.Write(e.AppendText(nil)); err != nil {
			return err
		}
	}
	return nil
}

func TestEvents(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"events", []string{"events"}},
		{"events-json", []string{"-json", "events"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			socket := serveHandler(t, streamingAP{newFakeAP()})
			code, stdout, stderr := runCtl(socket, c.args...)
			golden(t, c.name, result(c.args, code, stdout, stderr))
		})
	}
	// A daemon that cannot stream says so.
	code, _, stderr := runCtl(serve(t, newFakeAP()), "events")
	if code != 1 || stderr == "" {
		t.Errorf("events from a non-streaming server: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCtl(serve(t, newFakeAP()), "events", "now"); code != 2 || stderr == "" {
		t.Errorf("events now: exit %d, %q", code, stderr)
	}
}
