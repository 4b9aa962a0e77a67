package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/scan"
)

func scanConfig() Config {
	return Config{Scan: &ScanConfig{Planner: scan.Config{
		Channels: []scan.Channel{{Freq: 2437}, {Freq: 2462}, {Freq: 2472, Passive: true}},
		Retune:   time.Millisecond,
	}}}
}

// foreignBeacon is a beacon of another BSS as heard on freq.
func foreignBeacon(freq int, bss ieee80211.MAC, ssid string) []byte {
	b := radiotap.AppendRx(nil, radio.RxInfo{Freq: uint16(freq), Signal: -70, HasSignal: true})
	b = ieee80211.AppendMgmtHeader(b, ieee80211.SubtypeBeacon, ieee80211.Broadcast, bss, bss, 1)
	b = ieee80211.AppendBeaconFixed(b, 1234, 100, 1)
	b = ieee80211.AppendSSID(b, ssid)
	return ieee80211.AppendDSParams(b, uint8(ieee80211.FreqToChannel(freq)))
}

// TestScanTripsStayBetweenBeacons drives the core through background
// scanning: trips leave after a beacon, retune through the planned
// channels, probe on active ones, and are home before the next TBTT; data
// waits for the trip, no beacon is missed, and foreign BSSes are recorded.
func TestScanTripsStayBetweenBeacons(t *testing.T) {
	h := newHarness(t, scanConfig())
	h.join(staMAC, false)
	h.take()
	other := ieee80211.MAC{0x02, 0xbb, 0, 0, 0, 1}
	visited := map[int]int{}
	var probes, beacons int
	var lastTBTT time.Duration
	for h.now < 3*time.Second {
		if f, ok := h.takeRetune(); ok {
			h.now += time.Millisecond // the retune takes a millisecond
			h.a.Retuned(h.now)
			h.collect()
			if f != 2412 {
				visited[f]++
				if f == 2462 {
					h.a.HandleRadio(h.now, foreignBeacon(2462, other, "neighbour"))
				}
				// Data arriving while away waits for the trip to end.
				h.wire(eth(staMAC, host, 0))
				if out, _ := h.take(); len(dataFrames(t, out)) != 0 {
					t.Fatal("data sent off channel")
				}
			}
			continue
		}
		if h.a.OnFreq() != 2412 {
			// Away: nothing but probe requests may leave.
			if out, _ := h.take(); len(out) > 0 {
				for _, b := range out {
					if _, fr := parsed(t, b); !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeReq) {
						t.Fatalf("subtype %d sent on %d MHz", fr.Subtype(), h.a.OnFreq())
					}
					probes++
				}
			}
		}
		next := h.a.Deadline()
		h.advance(next - h.now)
		out, _ := h.take()
		for _, b := range out {
			_, fr := parsed(t, b)
			switch {
			case fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon):
				beacons++
				lastTBTT = h.a.nextBeacon - h.a.beaconPeriod()
				if h.now-lastTBTT > 2*time.Millisecond {
					t.Errorf("beacon %v late", h.now-lastTBTT)
				}
			case fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeReq):
				probes++
			case fr.Type() == ieee80211.TypeData:
				h.echo(b, radio.TxStatus{Acked: true})
			}
		}
	}
	st := h.a.ScanStats()
	t.Logf("visits %v, %d probes, %d beacons, %+v", visited, probes, beacons, st)
	if visited[2437] == 0 || visited[2462] == 0 || visited[2472] == 0 {
		t.Errorf("visits %v", visited)
	}
	if probes == 0 || st.ProbesSent == 0 {
		t.Error("no probe requests")
	}
	if st.MissedBeacons != 0 || beacons < 28 {
		t.Errorf("%d beacons in 3 s, %d missed", beacons, st.MissedBeacons)
	}
	if st.Planner.LongestTrip > 125*time.Millisecond || st.Planner.Trips == 0 {
		t.Errorf("planner %+v", st.Planner)
	}
	res := h.a.ScanResults(nil, h.now)
	if len(res) != 1 || res[0].BSSID != other || res[0].SSIDString() != "neighbour" || res[0].Freq != 2462 {
		t.Errorf("scan results %+v", res)
	}
	if c := h.a.Counters(); c[counter.WiredSent] == 0 || !h.a.Accounted() {
		t.Errorf("data after trips: sent %d", c[counter.WiredSent])
	}
}
