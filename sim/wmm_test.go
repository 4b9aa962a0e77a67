package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
)

// Stations contend with the EDCA parameters the AP's WMM Parameter element
// gives them, and with the defaults again once they leave: a BE with AIFSN
// 15 and CW 1023 slows their uplink to a fraction of what the defaults
// carry, while the AP's own contention is unchanged.
func TestStationsUseWMMParams(t *testing.T) {
	slow := ieee80211.DefaultEDCA()
	slow[ieee80211.ACBE] = ieee80211.EDCA{AIFSN: 15, ECWMin: 10, ECWMax: 10}
	run := func(params [ieee80211.NumACs]ieee80211.EDCA) float64 {
		s, err := New(Config{Seed: 7, AP: ap.Config{WMMParams: params}})
		if err != nil {
			t.Fatal(err)
		}
		h := s.AddHost(HostConfig{})
		st := s.AddStation(StationConfig{})
		s.Run(time.Second)
		if !st.Associated() {
			t.Fatal("the station did not associate")
		}
		want := edcaParams{aifsn: int(params[ieee80211.ACBE].AIFSN), cwMin: 1<<params[ieee80211.ACBE].ECWMin - 1,
			cwMax: 1<<params[ieee80211.ACBE].ECWMax - 1}
		if got := st.node.ac[ieee80211.ACBE].p; got != want {
			t.Errorf("station's BE: %+v, want %+v", got, want)
		}
		if got := s.med.nodes[0].ac[ieee80211.ACBE].p; got != edca[ieee80211.ACBE] {
			t.Errorf("the AP's BE: %+v, want the radio's %+v", got, edca[ieee80211.ACBE])
		}
		up := s.Bulk(st, h, BulkConfig{})
		s.Run(2 * time.Second)
		up.Stop()
		st.leave()
		if got := st.node.ac[ieee80211.ACBE].p; got != edca[ieee80211.ACBE] {
			t.Errorf("after leaving: %+v, want the defaults", got)
		}
		return float64(up.Stats().Delivered) * 8 / 2e6
	}
	def, slowed := run(ieee80211.DefaultEDCA()), run(slow)
	t.Logf("uplink: %.1f Mbit/s with the default BE, %.1f with AIFSN 15 and CW 1023", def, slowed)
	if def < 15 || slowed > def/3 {
		t.Errorf("uplink %.1f Mbit/s, then %.1f: want at least 15, then under a third", def, slowed)
	}
}
