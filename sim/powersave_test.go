package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/airq/airq/counter"
)

// TestPowerSaveLosesNothing: stations that doze from association on still
// get every ping and every datagram sent to them, fetched with PS-Poll after
// the TIM announces them (and ARP broadcasts after the DTIM), while
// stations that stay awake share the BSS.
func TestPowerSaveLosesNothing(t *testing.T) {
	for _, n := range []int{1, 8, 64} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s, h := newBSS(t, 3, n, MediumConfig{}, StationConfig{PowerSave: true})
			awake := s.AddStation(StationConfig{Start: s.Now()})
			s.Run(500 * time.Millisecond)
			// 20 datagrams a second per station up to 8 stations, then
			// fewer, so the channel is busy but not overloaded: every
			// buffered frame costs a PS-Poll exchange at a basic rate.
			every := 50 * time.Millisecond * time.Duration(max(1, n/8))
			var pings []*Ping
			var flows []*UDPFlow
			for _, st := range s.Stations() {
				pings = append(pings, s.Ping(h, st, 2*every, 56), s.Ping(st, h, 2*every, 56))
				flows = append(flows, s.UDP(h, st, UDPConfig{Size: 300, Interval: every}))
			}
			s.Run(3 * time.Second)
			for _, p := range pings {
				p.Stop()
			}
			for _, f := range flows {
				f.Stop()
			}
			s.Run(time.Second) // the last buffered frames go at the next beacons
			for i, p := range pings {
				if ps := p.Stats(); ps.Sent < 3 || ps.Received != ps.Sent {
					t.Errorf("ping %d: %d sent, %d received", i, ps.Sent, ps.Received)
				}
			}
			for i, f := range flows {
				if fs := f.Stats(); fs.Sent < 6 || fs.Received != fs.Sent || fs.Lost != 0 {
					t.Errorf("udp %d: %+v", i, fs)
				}
			}
			var polls uint64
			for _, st := range s.Stations() {
				if st != awake {
					polls += st.Stats().PSPolls
				}
			}
			c := s.Core().Counters()
			if polls == 0 || c[counter.PSPolls] != polls || awake.Stats().PSPolls != 0 {
				t.Errorf("stations sent %d PS-Polls, core saw %d", polls, c[counter.PSPolls])
			}
			t.Logf("core: tx failed %d, CoDel drops %d, queue drops %d, rebuffered %d, PS-Polls %d", c[counter.WiredTxFailed], c[counter.WiredDroppedCoDel], (c[counter.WiredDroppedQueueFull] + c[counter.WiredDroppedOverlimit] + c[counter.WiredDroppedOvermemory]), c[counter.Rebuffered], c[counter.PSPolls])
			if c[counter.WiredTxFailed] != 0 || !s.Core().Accounted() || s.Stats().Unaccounted != 0 {
				t.Errorf("core lost frames: %+v", c)
			}
		})
	}
}
