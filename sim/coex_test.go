package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/scan"
)

// coexBSS starts an HT40+ BSS on channel 6 with the 20/40 MHz check among
// the neighbours given, lets an HT station download, and returns the
// simulation with the events the core reported.
func coexBSS(t *testing.T, neighbours ...ForeignBSSConfig) (*Sim, []ap.Event, ctl.Station, ieee80211.HTOper) {
	t.Helper()
	return coexBSSOn(t, 6, 1, neighbours...)
}

// coexBSSOn is coexBSS on channel ch with its secondary channel above
// (sec 1) or below (-1).
func coexBSSOn(t *testing.T, ch, sec int, neighbours ...ForeignBSSConfig) (*Sim, []ap.Event, ctl.Station, ieee80211.HTOper) {
	t.Helper()
	var oper ieee80211.HTOper // the last beacon's
	capture := func(_ time.Duration, b []byte) {
		n, _, err := radiotap.Parse(b, nil, nil)
		if err != nil {
			return
		}
		fr := ieee80211.Frame(b[n:])
		if !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) || fr.Addr3() != (ieee80211.MAC{0x02, 0, 0, 0, 0x01, 0}) {
			return
		}
		if bc, err := ieee80211.ParseBeacon(fr.Body()); err == nil {
			if o, ok := bc.Elements().HTOper(); ok {
				oper = append(oper[:0], o...)
			}
		}
	}
	s, err := New(Config{Seed: 5, Capture: capture, AP: ap.Config{Channel: ch, WMM: true,
		PHY:  bss.PHY{HT: true, Width: 40, Secondary: sec, SGI20: true, SGI40: true},
		Coex: &ap.CoexConfig{Channels: USChannels()}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range neighbours {
		s.AddForeignBSS(n)
	}
	// The station is there from the start: nothing answers it before the
	// check ends, though the radio visits the operating channel.
	h := s.AddHost(HostConfig{})
	st := s.AddStation(StationConfig{HT: true, Signal: -47})
	var events []ap.Event
	for s.Now() < 5*time.Second {
		if _, ok := s.Core().Coex40(); ok && s.Stats().Beacons > 0 {
			break
		}
		s.Run(10 * time.Millisecond)
	}
	if _, ok := s.Core().Coex40(); !ok {
		t.Fatalf("no 20/40 MHz check after %v", s.Now())
	}
	for s.Now() < 7*time.Second && !st.Associated() {
		s.Run(10 * time.Millisecond)
	}
	s.Bulk(h, st, BulkConfig{})
	s.Run(time.Second)
	s.DrainEvents(func(e ap.Event) { events = append(events, e) })
	r := s.Control(ctl.Request{Op: ctl.OpStationDump})
	if len(r.Stations) != 1 {
		t.Fatalf("%d stations", len(r.Stations))
	}
	t.Logf("at %v: took %v, %d beacons, station tx %s, %d bytes down", s.Now(), s.Core().ACSTook(), s.Stats().Beacons, r.Stations[0].TxRate.AppendIW(nil), r.Stations[0].TxBytes)
	for _, e := range events {
		if e.Kind == ap.EventConnected && e.At < s.Core().ACSTook() {
			t.Errorf("the station connected at %v, before the check ended at %v", e.At, s.Core().ACSTook())
		}
	}
	if oper == nil {
		t.Fatal("no beacon with an HT Operation")
	}
	return s, events, r.Stations[0], oper
}

// TestCoexNeighbour20MHzForces20MHz: a legacy BSS on channel 8, inside
// the affected range of 6 with 10, keeps the radio at 20 MHz: STATUS
// shows no secondary channel, the core reports it once, and the station's
// downlink goes at 20 MHz.
func TestCoexNeighbour20MHzForces20MHz(t *testing.T) {
	s, events, sta, oper := coexBSS(t, ForeignBSSConfig{Freq: chanFreq(8)}, ForeignBSSConfig{Freq: chanFreq(1), HT: true})
	if oper.PrimaryChannel() != 6 || oper.SecondaryOffset() != ieee80211.HTOperSecondaryNone || oper.AnyWidth() {
		t.Errorf("beacon's HT Operation: primary %d offset %d any width %v", oper.PrimaryChannel(), oper.SecondaryOffset(), oper.AnyWidth())
	}
	res, _ := s.Core().Coex40()
	if res.Permitted || res.Reason != scan.CoexLegacy || res.Freq != chanFreq(8) || res.BSSID != s.ForeignBSSs()[0].Config().BSSID {
		t.Fatalf("check: %+v", res)
	}
	st := s.Control(ctl.Request{Op: ctl.OpStatus}).Status
	if st.Channel != 6 || st.SecondaryChannel != 0 {
		t.Errorf("status: channel %d secondary %d", st.Channel, st.SecondaryChannel)
	}
	checkNo40MHzOnce(t, events, 6, 10, chanFreq(8))
	if sta.TxRate.Mode != radio.ModeHT || sta.TxRate.Bandwidth != radio.BW20 {
		t.Errorf("tx rate %s", sta.TxRate.AppendIW(nil))
	}
}

// TestCoexNoNeighbourKeeps40MHz: neighbours that do not overlap (an HT
// 20 MHz BSS on channel 1, outside the affected range; a 40 MHz BSS on
// the same pair) leave the radio at 40 MHz.
func TestCoexNoNeighbourKeeps40MHz(t *testing.T) {
	s, events, sta, oper := coexBSS(t, ForeignBSSConfig{Freq: chanFreq(1), HT: true}, ForeignBSSConfig{Freq: chanFreq(6), HT: true, Secondary: 1})
	if oper.SecondaryOffset() != ieee80211.HTOperSecondaryAbove || !oper.AnyWidth() {
		t.Errorf("beacon's HT Operation: offset %d any width %v", oper.SecondaryOffset(), oper.AnyWidth())
	}
	if res, _ := s.Core().Coex40(); !res.Permitted {
		t.Fatalf("check: %+v", res)
	}
	for _, b := range s.ForeignBSSs() {
		if b.Stats().HeardByAP == 0 {
			t.Errorf("%s on %d MHz never heard", b.Config().SSID, b.Config().Freq)
		}
	}
	if st := s.Control(ctl.Request{Op: ctl.OpStatus}).Status; st.SecondaryChannel != 1 {
		t.Errorf("status: secondary %d", st.SecondaryChannel)
	}
	for _, e := range events {
		if e.Kind == ap.EventNo40MHz {
			t.Errorf("event %+v", e)
		}
	}
	if sta.TxRate.Mode != radio.ModeHT || sta.TxRate.Bandwidth != radio.BW40 {
		t.Errorf("tx rate %s", sta.TxRate.AppendIW(nil))
	}
}

// TestCoexEndsOnTheOperatingChannel: channel 11 with its secondary below
// is the last channel the check listens on: the radio goes home from
// there and beacons at 40 MHz.
func TestCoexEndsOnTheOperatingChannel(t *testing.T) {
	s, _, sta, oper := coexBSSOn(t, 11, -1)
	if res, _ := s.Core().Coex40(); !res.Permitted || oper.SecondaryOffset() != ieee80211.HTOperSecondaryBelow {
		t.Errorf("check %+v, HT Operation offset %d", res, oper.SecondaryOffset())
	}
	if sta.TxRate.Bandwidth != radio.BW40 {
		t.Errorf("tx rate %s", sta.TxRate.AppendIW(nil))
	}
}

// TestIntolerantStationInTheSimulator: on an HT40+ radio on channel 6, a
// station downloads at 40 MHz; an HT station that sets 40 MHz Intolerant
// joins and every downlink goes at 20 MHz; once it leaves, 40 MHz comes
// back (obss_interval 0: at once) and the download with it.
func TestIntolerantStationInTheSimulator(t *testing.T) {
	s, err := New(Config{Seed: 7, AP: ap.Config{Channel: 6, WMM: true,
		PHY: bss.PHY{HT: true, Width: 40, Secondary: 1, SGI20: true, SGI40: true}}})
	if err != nil {
		t.Fatal(err)
	}
	h := s.AddHost(HostConfig{})
	st := s.AddStation(StationConfig{HT: true, Signal: -47})
	for s.Now() < 2*time.Second && !st.Associated() {
		s.Run(10 * time.Millisecond)
	}
	s.Bulk(h, st, BulkConfig{})
	txWidth := func() radio.Bandwidth {
		s.Run(500 * time.Millisecond)
		for _, x := range s.Control(ctl.Request{Op: ctl.OpStationDump}).Stations {
			if x.Addr == ctl.MAC(st.Addr()) {
				return x.TxRate.Bandwidth
			}
		}
		t.Fatal("the downloading station is gone")
		return 0
	}
	if w := txWidth(); w != radio.BW40 {
		t.Fatalf("before: downlink at %d MHz", w)
	}
	in := s.AddStation(StationConfig{HT: true, Intolerant40: true, Signal: -50})
	for s.Now() < 5*time.Second && !in.Associated() {
		s.Run(10 * time.Millisecond)
	}
	if w := txWidth(); w != radio.BW20 || s.Core().Config().PHY.Width != 20 {
		t.Errorf("with the intolerant station: downlink at %d MHz, radio at %d MHz", w, s.Core().Config().PHY.Width)
	}
	in.Deauthenticate(3)
	if w := txWidth(); w != radio.BW40 || s.Core().Config().PHY.Width != 40 {
		t.Errorf("after it left: downlink at %d MHz, radio at %d MHz", w, s.Core().Config().PHY.Width)
	}
	var widths []int
	s.DrainEvents(func(e ap.Event) {
		if e.Kind == ap.EventWidth {
			widths = append(widths, e.Secondary)
		}
	})
	if len(widths) != 2 || widths[0] != 0 || widths[1] != 10 {
		t.Errorf("width events: secondary %v, want [0 10]", widths)
	}
}

// TestCoexAfterACS: automatic selection among channels 1 to 5 can only
// take 1 with 5 at 40 MHz; a 40 MHz BSS on 5 with 1, the opposite
// arrangement, heard by the selection forbids 40 MHz there, so the radio
// beacons on channel 1 at 20 MHz, reports it as the check of a configured
// channel does, and a station downloads at 20 MHz.
func TestCoexAfterACS(t *testing.T) {
	var cands []scan.Channel
	for _, c := range USChannels() {
		if c.Freq <= chanFreq(5) {
			cands = append(cands, c)
		}
	}
	s, err := New(Config{Seed: 9, AP: ap.Config{WMM: true,
		PHY:  bss.PHY{HT: true, Width: 40, Secondary: 1, SGI20: true, SGI40: true},
		ACS:  &ap.ACSConfig{Channels: cands, Runs: 1},
		Coex: &ap.CoexConfig{Channels: USChannels()}}})
	if err != nil {
		t.Fatal(err)
	}
	s.AddForeignBSS(ForeignBSSConfig{Freq: chanFreq(5), HT: true, Secondary: -1, Signal: -80})
	for s.Now() < 10*time.Second && (s.Home() == 0 || s.Core().ACSScanning()) {
		s.Run(10 * time.Millisecond)
	}
	h := s.AddHost(HostConfig{})
	st := s.AddStation(StationConfig{HT: true, Signal: -47})
	for s.Now() < 12*time.Second && !st.Associated() {
		s.Run(10 * time.Millisecond)
	}
	if !st.Associated() {
		c := s.Core().Config()
		t.Fatalf("no association after %v: scanning %v, channel %d, width %d", s.Now(), s.Core().ACSScanning(), c.Channel, c.PHY.Width)
	}
	d, _ := s.Core().ACSDecision()
	res, ok := s.Core().Coex40()
	if d.Channel != 1 || !ok || res.Permitted || res.Reason != scan.CoexMismatch || res.Freq != chanFreq(5) {
		t.Fatalf("chose channel %d; check %+v (made %v)", d.Channel, res, ok)
	}
	s.Bulk(h, st, BulkConfig{})
	s.Run(time.Second)
	var events []ap.Event
	s.DrainEvents(func(e ap.Event) { events = append(events, e) })
	checkNo40MHzOnce(t, events, 1, 5, chanFreq(5))
	if stat := s.Control(ctl.Request{Op: ctl.OpStatus}).Status; stat.Channel != 1 || stat.SecondaryChannel != 0 {
		t.Errorf("status: channel %d secondary %d", stat.Channel, stat.SecondaryChannel)
	}
	r := s.Control(ctl.Request{Op: ctl.OpStationDump})
	if len(r.Stations) != 1 || r.Stations[0].TxRate.Bandwidth != radio.BW20 || r.Stations[0].TxBytes == 0 {
		t.Fatalf("stations %+v", r.Stations)
	}
}

// checkNo40MHzOnce checks that the core reported once that 40 MHz is not
// permitted on primary pri with secondary sec, naming the BSS on freq.
func checkNo40MHzOnce(t *testing.T, events []ap.Event, pri, sec, freq int) {
	t.Helper()
	n := 0
	for _, e := range events {
		if e.Kind == ap.EventNo40MHz {
			n++
			if e.Primary != pri || e.Secondary != sec || e.Freq != freq {
				t.Errorf("event %+v", e)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d EventNo40MHz, want 1", n)
	}
}
