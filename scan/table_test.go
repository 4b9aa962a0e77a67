package scan

import (
	"errors"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// beaconSpec describes a test beacon.
type beaconSpec struct {
	ssid     string
	channel  uint8
	ht, vht  bool
	privacy  bool
	interval uint16
}

func (s beaconSpec) body() []byte {
	capa := uint16(ieee80211.CapESS | ieee80211.CapShortSlotTime)
	if s.privacy {
		capa |= ieee80211.CapPrivacy
	}
	iv := s.interval
	if iv == 0 {
		iv = 100
	}
	b := ieee80211.AppendBeaconFixed(nil, 0x123456789, iv, capa)
	b = ieee80211.AppendSSID(b, s.ssid)
	rates := ieee80211.Rates2GHz
	if s.channel > 14 {
		rates = ieee80211.Rates5GHz
	}
	b = ieee80211.AppendRates(b, rates)
	b = ieee80211.AppendDSParams(b, s.channel)
	if s.ht {
		b = ieee80211.AppendHTCap(b, ieee80211.HTCapSpec{Info: 0x19ef})
		b = ieee80211.AppendHTOper(b, ieee80211.NewHTOper(s.channel, ieee80211.HTOperSecondaryNone))
	}
	if s.vht {
		b = ieee80211.AppendVHTCap(b, ieee80211.VHTCapSpec{Info: 0x338b79b2, RxMCSMap: 0xfffa, TxMCSMap: 0xfffa})
		b = ieee80211.AppendVHTOper(b, ieee80211.NewVHTOper(80, s.channel, s.channel+6))
	}
	return b
}

func (s beaconSpec) frame(bssid ieee80211.MAC, probe bool) ieee80211.Frame {
	sub := uint8(ieee80211.SubtypeBeacon)
	da := ieee80211.Broadcast
	if probe {
		sub, da = ieee80211.SubtypeProbeResp, ieee80211.MAC{2, 0, 0, 0, 0, 1}
	}
	b := ieee80211.AppendMgmtHeader(nil, sub, da, bssid, bssid, 0)
	f, err := ieee80211.ParseFrame(append(b, s.body()...))
	if err != nil {
		panic(err)
	}
	return f
}

func rx(freq int, sig int8) *radio.RxInfo {
	return &radio.RxInfo{Freq: uint16(freq), Signal: sig, HasSignal: true}
}

var (
	bssA = ieee80211.MAC{0x02, 0xaa, 0, 0, 0, 1}
	bssB = ieee80211.MAC{0x02, 0xbb, 0, 0, 0, 2}
	bssC = ieee80211.MAC{0x02, 0xcc, 0, 0, 0, 3}
)

func TestTableUpdate(t *testing.T) {
	tab := NewTable(TableConfig{Freqs: []int{2412, 2437, 5180}})
	f := beaconSpec{ssid: "neighbour", channel: 6, ht: true, privacy: true}.frame(bssA, false)
	// Heard on channel 5's frequency: the DS/HT channel puts it on 6.
	if err := tab.Update(time.Second, f, rx(2432, -61)); err != nil {
		t.Fatal(err)
	}
	if err := tab.Update(2*time.Second, f, rx(2437, -55)); err != nil {
		t.Fatal(err)
	}
	b, ok := tab.Get(bssA)
	switch {
	case !ok, b.SSIDString() != "neighbour", b.Freq != 2437, b.HeardFreq != 2437, b.Signal != -55:
		t.Fatalf("entry %+v", b)
	case b.FirstSeen != time.Second, b.LastSeen != 2*time.Second, b.Beacons != 2, b.ProbeResps != 0:
		t.Fatalf("times or counts %+v", b)
	case !b.HT || b.HTCapInfo != 0x19ef || !b.HTOper || b.HTPrimary != 6 || b.VHT || b.DSChannel != 6:
		t.Fatalf("HT/VHT %+v", b)
	case b.Capability&ieee80211.CapPrivacy == 0, b.BeaconInterval != 100, b.TSF != 0x123456789, b.NRates != 12:
		t.Fatalf("fixed fields %+v", b)
	}
	ss := tab.Surveys(nil, 2*time.Second)
	if ss[1].Beacons != 1 || ss[1].BSSes != 1 || ss[0].BSSes != 0 {
		t.Fatalf("surveys %+v", ss)
	}
	if err := tab.Update(3*time.Second, beaconSpec{}.frame(bssB, false)[:30], rx(2412, -70)); !errors.Is(err, ieee80211.ErrBody) && err == nil {
		t.Fatalf("short body accepted")
	}
	data, _ := ieee80211.ParseFrame(ieee80211.AppendNullData(nil, bssA, bssB, 0, false))
	if err := tab.Update(3*time.Second, data, rx(2412, -70)); err == nil || tab.Stats().NotBSS != 1 {
		t.Fatalf("data frame: %v %+v", err, tab.Stats())
	}
}

func TestTableHiddenSSID(t *testing.T) {
	tab := NewTable(TableConfig{})
	tab.Update(0, beaconSpec{ssid: "", channel: 36, vht: true, ht: true}.frame(bssA, false), rx(5180, -50))
	tab.Update(ms, beaconSpec{ssid: "secret", channel: 36, vht: true, ht: true}.frame(bssA, true), rx(5180, -50))
	tab.Update(2*ms, beaconSpec{ssid: "", channel: 36, vht: true, ht: true}.frame(bssA, false), rx(5180, -50))
	b, _ := tab.Get(bssA)
	if b.SSIDString() != "secret" || !b.Hidden || b.ProbeResps != 1 || b.Beacons != 2 || !b.VHTOper || b.VHTWidth != 1 || b.VHTSeg0 != 42 {
		t.Fatalf("hidden %+v", b)
	}
}

func TestTableAgeing(t *testing.T) {
	tab := NewTable(TableConfig{MaxAge: 10 * time.Second})
	tab.Update(0, beaconSpec{channel: 1}.frame(bssA, false), rx(2412, -50))
	tab.Update(5*time.Second, beaconSpec{channel: 1}.frame(bssB, false), rx(2412, -50))
	if got := tab.All(nil, 12*time.Second); len(got) != 1 || got[0].BSSID != bssB {
		t.Fatalf("All hides aged entries: %v", got)
	}
	if n := tab.Expire(12 * time.Second); n != 1 || tab.Len() != 1 || tab.Stats().Expired != 1 {
		t.Fatalf("expired %d, left %d", n, tab.Len())
	}
	if _, ok := tab.Get(bssA); ok {
		t.Fatal("aged entry still there")
	}
}

func TestTableFull(t *testing.T) {
	tab := NewTable(TableConfig{MaxBSS: 2})
	tab.Update(0, beaconSpec{channel: 1}.frame(bssA, false), rx(2412, -40))
	tab.Update(0, beaconSpec{channel: 1}.frame(bssB, false), rx(2412, -80))
	// Both heard at 0: the weaker goes.
	tab.Update(ms, beaconSpec{channel: 1}.frame(bssC, false), rx(2412, -60))
	if _, ok := tab.Get(bssB); ok || tab.Len() != 2 || tab.Stats().Evicted != 1 {
		t.Fatalf("weakest not evicted: len %d stats %+v", tab.Len(), tab.Stats())
	}
	// A heard at 0, C at 1 ms: the older goes.
	tab.Update(2*ms, beaconSpec{channel: 1}.frame(bssB, false), rx(2412, -90))
	if _, ok := tab.Get(bssA); ok {
		t.Fatal("oldest not evicted")
	}
	if got := tab.All(nil, 2*ms); len(got) != 2 || got[0].BSSID != bssB || got[1].BSSID != bssC {
		t.Fatalf("order %v", got)
	}
}

func TestTableTruncated(t *testing.T) {
	tab := NewTable(TableConfig{})
	body := append(beaconSpec{ssid: "cut", channel: 11}.body(), ieee80211.ElemHTCap, 26, 1, 2)
	if err := tab.Observe(0, bssA, false, rx(2462, -50), body); !errors.Is(err, ieee80211.ErrTruncated) {
		t.Fatalf("err %v", err)
	}
	if b, ok := tab.Get(bssA); !ok || b.SSIDString() != "cut" || b.HT || tab.Stats().Malformed != 1 {
		t.Fatalf("entry %+v", b)
	}
}

func TestSurveyReport(t *testing.T) {
	tab := NewTable(TableConfig{Freqs: []int{2412, 2437}})
	tab.Report(2412, SurveyReport{Active: 100 * ms, Busy: 30 * ms, Rx: 20 * ms, Tx: 1 * ms, Noise: -95, HasNoise: true})
	tab.Report(2412, SurveyReport{Active: 100 * ms, Busy: 10 * ms})
	tab.Dwelt(2412, 200*ms)
	tab.SetInUse(2437)
	if tab.Report(5180, SurveyReport{}) {
		t.Fatal("report for an unknown channel accepted")
	}
	tab.Update(0, beaconSpec{channel: 1}.frame(bssA, false), rx(2412, -40))
	s := tab.Surveys(nil, 0)
	if s[0].Active != 200*ms || s[0].Busy != 40*ms || s[0].Noise != -95 || s[0].Visits != 1 || s[0].BeaconsPerSecond() != 5 || !s[1].InUse {
		t.Fatalf("survey %+v", s)
	}
}
