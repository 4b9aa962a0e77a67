package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
)

// The BSS Load element's channel utilization follows the load, from the
// core's own airtime accounting: near zero with beacons alone, most of the
// air with a bulk download, and back once it stops; chan_util_avg_period
// averages it.
func TestChannelUtilizationFollowsLoad(t *testing.T) {
	s, err := New(Config{Seed: 5, AP: ap.Config{Advert: bss.Advert{BSSLoadPeriod: 10, ChanUtilAvgPeriod: 20}}})
	if err != nil {
		t.Fatal(err)
	}
	h := s.AddHost(HostConfig{})
	st := s.AddStation(StationConfig{})
	s.Run(time.Second)
	if !st.Associated() {
		t.Fatal("station not associated")
	}
	status := func() *ctl.Status { return s.Control(ctl.Request{Op: ctl.OpStatus}).Status }
	s.Run(2 * time.Second)
	idle := status()
	bulk := s.Bulk(h, st, BulkConfig{})
	s.Run(3 * time.Second)
	busy := status()
	bulk.Stop()
	s.Run(3 * time.Second)
	after := status()
	t.Logf("channel utilization: idle %d, bulk %d (average %d), after %d", idle.ChanUtil, busy.ChanUtil, busy.ChanUtilAvg, after.ChanUtil)
	if idle.ChanUtil > 10 || busy.ChanUtil < 128 || after.ChanUtil > 10 {
		t.Errorf("channel utilization idle %d, bulk %d, after %d: want near 0, over half, near 0", idle.ChanUtil, busy.ChanUtil, after.ChanUtil)
	}
	if busy.ChanUtilAvg < 128 {
		t.Errorf("chan_util_avg %d during the download", busy.ChanUtilAvg)
	}
}
