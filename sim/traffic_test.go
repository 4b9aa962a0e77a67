package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
)

// TestTraffic runs ping and UDP both ways between every station and a wired
// host, then deauthenticates everyone, and checks that the books of the
// hosts, the medium, the stations and the core agree.
func TestTraffic(t *testing.T) {
	for _, n := range []int{1, 8, 64} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s, h := newBSS(t, 2, n, MediumConfig{}, StationConfig{})
			// 50 datagrams a second each way per station up to 8 stations,
			// then fewer, so that the medium is busy but not overloaded.
			every := 20 * time.Millisecond * time.Duration(max(1, n/8))
			var pings []*Ping
			var flows []*UDPFlow
			for _, st := range s.Stations() {
				pings = append(pings, s.Ping(st, h, 100*time.Millisecond, 56), s.Ping(h, st, 100*time.Millisecond, 56))
				flows = append(flows,
					s.UDP(h, st, UDPConfig{Size: 500, Interval: every, TOS: 0xc0}), // CS6: VO
					s.UDP(st, h, UDPConfig{Size: 500, Interval: every}))
			}
			s.Run(time.Second)
			for _, p := range pings {
				p.Stop()
			}
			for _, f := range flows {
				f.Stop()
			}
			s.Run(200 * time.Millisecond) // drain
			for i, p := range pings {
				ps := p.Stats()
				if ps.Sent < 9 || ps.Received != ps.Sent {
					t.Errorf("ping %d: %d sent, %d received", i, ps.Sent, ps.Received)
				}
			}
			for i, f := range flows {
				fs := f.Stats()
				if fs.Sent < uint64(time.Second/every)-1 || fs.Received != fs.Sent || fs.Lost != 0 {
					t.Errorf("udp %d: %+v", i, fs)
				}
			}
			checkBooks(t, s, h)
			if d, want := s.Stats().DataDone[Down][ieee80211.ACVO], uint64(n)*uint64(time.Second/every-1); d < want {
				t.Errorf("%d downlink frames on VO, want the CS6 flows' %d", d, want)
			}
			for _, st := range s.Stations() {
				st.Deauthenticate(ieee80211.ReasonDeauthLeaving)
			}
			s.Run(100 * time.Millisecond)
			var gone int
			s.DrainEvents(func(e ap.Event) {
				if e.Kind == ap.EventDisconnected {
					gone++
				}
			})
			if gone != n {
				t.Errorf("core reported %d disconnections, want %d", gone, n)
			}
			if s.Stats().Unaccounted != 0 {
				t.Errorf("core unaccounted after %d calls", s.Stats().Unaccounted)
			}
		})
	}
}

// checkBooks compares counters across the seam with a loss-free medium:
// every frame a host wrote reached a station or is a counted drop, and
// every frame a station sent reached the wired side or another station.
func checkBooks(t *testing.T, s *Sim, h *Host) {
	t.Helper()
	c := s.Core().Counters()
	ss := s.Stats()
	if c[counter.WiredIn] != ss.WiredToCore {
		t.Errorf("core read %d wired frames, hosts wrote %d", c[counter.WiredIn], ss.WiredToCore)
	}
	var rx, tx, group uint64
	for _, st := range s.Stations() {
		rx += st.Stats().RxData - st.Stats().RxGroup
		group += st.Stats().RxGroup
		tx += st.Stats().TxData
	}
	drops := c.Sum(counter.WiredTxFailed.Family()) // the downlink's drops
	var down uint64
	for _, v := range ss.DataDone[Down] {
		down += v
	}
	if c[counter.DownlinkIn] != c[counter.WiredSent]+drops+uint64(s.Core().Backlog())+uint64(s.Core().InFlight()) {
		t.Errorf("core books: in %d, sent %d, dropped %d, queued %d, in flight %d", c[counter.DownlinkIn], c[counter.WiredSent], drops, s.Core().Backlog(), s.Core().InFlight())
	}
	if down != c[counter.WiredSent]+uint64(s.Core().InFlight()) || ss.DataFailed[Down] != 0 {
		t.Errorf("core sent %d data frames, medium delivered %d and failed %d", c[counter.WiredSent], down, ss.DataFailed[Down])
	}
	if down-ss.GroupData != rx {
		t.Errorf("medium delivered %d unicast data frames, stations took %d", down-ss.GroupData, rx)
	}
	if c[counter.RxData] != tx || c[counter.RxToWired]+c[counter.RxIntraBSS] != tx {
		t.Errorf("stations sent %d, core received %d data frames, %d to the wire, %d within the BSS", tx, c[counter.RxData], c[counter.RxToWired], c[counter.RxIntraBSS])
	}
	if ss.WiredFromCore != c[counter.RxToWired] || ss.WiredUnclaimed != 0 {
		t.Errorf("core wrote %d to the wire (counted %d), %d unclaimed", ss.WiredFromCore, c[counter.RxToWired], ss.WiredUnclaimed)
	}
	if c[counter.EchoAcked]+c[counter.EchoFailed] != ss.Echoes || c[counter.EchoUnmatched] != 0 || c[counter.NoStatus] != 0 {
		t.Errorf("echoes: %d sent, core matched %d+%d, unmatched %d, no status %d", ss.Echoes, c[counter.EchoAcked], c[counter.EchoFailed], c[counter.EchoUnmatched], c[counter.NoStatus])
	}
	_ = group
}
