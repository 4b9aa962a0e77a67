package bss_test

import (
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/bss/bsstest"
	"github.com/airq/airq/internal/ieee80211"
)

// TestFillTIM: a dozing station's bit is set when the radio holds frames
// for it or an SA Query Request waits for it to wake, an awake station's
// never; group frames are announced at a DTIM beacon only, and with no
// station dozing the radio is not asked.
func TestFillTIM(t *testing.T) {
	b := &bss.BSS{Stations: bss.NewTable(4)}
	recs := make([]bss.Station, 5)
	for i := byte(1); i <= 4; i++ {
		aid, _ := b.Stations.Add(ieee80211.MAC{2, 0, 0, 0, 0, i})
		recs[aid] = bss.Station{State: bss.StateAssociated, Dozing: aid != 4}
		b.Stations.Bind(aid, &recs[aid])
	}
	recs[2].RSN = &bss.StationRSN{QueryHeld: true}
	b.Dozing = 3
	r := &bsstest.Radio{Waiting: map[uint16]bool{1: true, 4: true}, Group: true}

	tim, group := b.FillTIM(r, false)
	for aid, want := range []bool{1: true, 2: true, 3: false, 4: false} {
		if aid > 0 && tim.Has(uint16(aid)) != want {
			t.Errorf("AID %d in the TIM: %v, want %v", aid, tim.Has(uint16(aid)), want)
		}
	}
	if group {
		t.Error("group frames announced at a beacon that is not a DTIM")
	}
	if _, group = b.FillTIM(r, true); !group {
		t.Error("group frames not announced at a DTIM beacon")
	}

	b.Stations.Remove(1, ieee80211.MAC{2, 0, 0, 0, 0, 1})
	if tim, _ = b.FillTIM(r, true); tim.Has(1) || b.Stations.Station(1) != nil {
		t.Error("a removed station's record is still reached")
	}
	b.Dozing = 0
	if tim, group = b.FillTIM(r, true); tim.Has(2) || group {
		t.Error("a TIM with no station dozing announces something")
	}
}

// TestAppendBeacon: the beacon carries the radio's TSF, the interval and
// the hidden BSS's empty SSID; its TIM's DTIM count runs down to 0 over
// the period, and only a DTIM beacon with group frames queued and a
// station dozing opens the group window, which the next beacon closes.
func TestAppendBeacon(t *testing.T) {
	b := &bss.BSS{Profile: bss.Profile{SSID: "net", Hidden: true, BeaconInterval: 100, DTIMPeriod: 2},
		Rates: bss.NewRateSet([]int{1000, 6000}, []int{1000}), Stations: bss.NewTable(4)}
	aid, _ := b.Stations.Add(ieee80211.MAC{2, 0, 0, 0, 0, 1})
	rec := bss.Station{State: bss.StateAssociated, Dozing: true}
	b.Stations.Bind(aid, &rec)
	b.Dozing = 1
	r := &bsstest.Radio{AirInfo: bss.Air{Channel: 1, Freq: 2412}, Group: true}
	for i, want := range []struct {
		count  uint8
		window bool
	}{{0, true}, {1, false}, {0, true}} {
		now := time.Duration(i) * 102400 * time.Microsecond
		bc, err := ieee80211.ParseBeacon(b.AppendBeacon(nil, r, now, false))
		if err != nil {
			t.Fatal(err)
		}
		if bc.Timestamp() != uint64(now/time.Microsecond) || bc.Interval() != 100 {
			t.Errorf("beacon %d: timestamp %d, interval %d", i, bc.Timestamp(), bc.Interval())
		}
		if ssid, ok := bc.Elements().Find(ieee80211.ElemSSID); !ok || len(ssid) != 0 {
			t.Errorf("beacon %d: SSID %q of a hidden BSS", i, ssid)
		}
		tim, ok := bc.Elements().Find(ieee80211.ElemTIM)
		if !ok || tim[0] != want.count || b.GroupWindow != want.window || tim[2]&1 == 1 != want.window {
			t.Errorf("beacon %d: TIM %x, group window %v; want DTIM count %d, window %v", i, tim, b.GroupWindow, want.count, want.window)
		}
	}
}
