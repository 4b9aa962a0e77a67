package shell

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio/radiotest"
)

// refusing is a radio that refuses the first frame of every other batch,
// as a driver refuses an oversized frame with EMSGSIZE.
type refusing struct {
	*radiotest.Device
	batches, refused atomic.Uint64
}

func (r *refusing) WriteBatch(bufs [][]byte) (int, error) {
	if r.batches.Add(1)%2 == 1 {
		r.refused.Add(1)
		return 0, errors.New("message too long")
	}
	return r.Device.WriteBatch(bufs)
}

// TestRunHandsRefusalsToTheCore: a frame the radio refuses is counted by
// the shell and completed by the core at once (its airtime released), and
// the loop goes on writing the rest.
func TestRunHandsRefusalsToTheCore(t *testing.T) {
	core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 6})
	if err != nil {
		t.Fatal(err)
	}
	dev, wired := &refusing{Device: radiotest.New()}, radiotest.New()
	var logged lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, core, dev, wired, slog.New(slog.NewTextHandler(&logged, nil)), nil) }()
	waitFor(t, "a refused beacon and a written one", func() bool {
		return dev.refused.Load() >= 2 && len(sent(t, dev.Written())[ieee80211.SubtypeBeacon]) > 0
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	n := dev.refused.Load()
	if c := core.Counters(); c[counter.NotSent] != n || !core.Accounted() {
		t.Errorf("core: %d not sent, want the %d refused; accounted %v", c[counter.NotSent], n, core.Accounted())
	}
	if want := "radio_write_errors=" + strconv.FormatUint(n, 10); !strings.Contains(logged.String(), want) {
		t.Errorf("log %q, want %s", logged.String(), want)
	}
}

// TestReportEvent: the one log format of station events, and the events
// stream, which carries connections and disconnections but not refusals.
func TestReportEvent(t *testing.T) {
	noLeaks(t)
	path := filepath.Join(t.TempDir(), "airqd.sock")
	srv, err := ListenControl(path)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, _ := dial(t, path)
	if err := c.Subscribe(); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	ReportEvent(log, srv, ap.Event{Kind: ap.EventRefused, Addr: sta, Why: "authentication"})
	ReportEvent(log, srv, ap.Event{Kind: ap.EventConnected, Addr: sta, AID: 1})
	ReportEvent(log, srv, ap.Event{Kind: ap.EventDisconnected, Addr: sta, AID: 1, Reason: 4, Why: "inactive"})
	ReportEvent(log, nil, ap.Event{Kind: ap.EventConnected, Addr: sta, AID: 2})
	ReportEvent(log, srv, ap.Event{Kind: ap.EventConnected, Addr: sta, AID: 3, BSS: "guest"})
	ReportEvent(log, srv, ap.Event{Kind: ap.EventUnacked, Addr: bssid, BSS: "guest", Count: 5})
	ReportEvent(log, srv, ap.Event{Kind: ap.EventNo40MHz, Addr: bssid, Primary: 6, Secondary: 10, Freq: 2447, Why: "overlapping legacy BSS"})
	want := `level=INFO msg="station refused by the access lists" addr=02:00:00:00:01:00 during=authentication
level=INFO msg=AP-STA-CONNECTED addr=02:00:00:00:01:00 aid=1 reason=0 why=""
level=INFO msg=AP-STA-DISCONNECTED addr=02:00:00:00:01:00 aid=1 reason=4 why=inactive
level=INFO msg=AP-STA-CONNECTED addr=02:00:00:00:01:00 aid=2 reason=0 why=""
level=INFO msg=AP-STA-CONNECTED addr=02:00:00:00:01:00 aid=3 reason=0 why="" bss=guest
level=WARN msg="frames to the BSSID go unacknowledged: does the hardware ACK its address?" bss=guest bssid=02:00:00:00:02:00 unacknowledged=5 hint="no interface holds the address, or the driver does not ACK it: see airqctl dev"
level=WARN msg="20/40 MHz operation not permitted on channel pri=6 sec=10 based on overlapping BSSes" bssid=02:00:00:00:02:00 freq=2447 why="overlapping legacy BSS" width=20
`
	if logged.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", logged.String(), want)
	}
	for _, w := range []ctl.Event{{Kind: ctl.EventConnected, Addr: ctl.MAC(sta), AID: 1},
		{Kind: ctl.EventDisconnected, Addr: ctl.MAC(sta), AID: 1, Reason: 4},
		{Kind: ctl.EventConnected, Addr: ctl.MAC(sta), AID: 3, BSS: "guest"}} {
		if e, err := c.NextEvent(); err != nil || e != w {
			t.Errorf("event %+v, %v; want %+v", e, err, w)
		}
	}
}
