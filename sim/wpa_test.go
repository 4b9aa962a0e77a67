package sim

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
)

const simPassphrase = "correct horse battery"

// wpaSim is a WPA2-PSK BSS offering WPA-PSK and WPA-PSK-SHA256, with a
// passphrase (the core derives the PMK), and a wired host.
func wpaSim(t *testing.T, seed uint64, rc ap.RSNConfig, capture func(time.Duration, []byte)) (*Sim, *Host) {
	t.Helper()
	rc.AKMs, rc.Passphrase = []rsn.AKM{rsn.AKMPSK, rsn.AKMPSKSHA256}, bss.NewPassphrase(simPassphrase)
	s, err := New(Config{Seed: seed, AP: ap.Config{RSN: &rc}, Capture: capture})
	if err != nil {
		t.Fatal(err)
	}
	return s, s.AddHost(HostConfig{})
}

// waitConnected runs until every station's port is open.
func waitConnected(t *testing.T, s *Sim) {
	t.Helper()
	for end := s.Now() + 3*time.Second; s.Now() < end; s.Run(10 * time.Millisecond) {
		if associated(s) == len(s.Stations()) {
			return
		}
	}
	t.Fatalf("%d of %d stations connected; core %v", associated(s), len(s.Stations()), s.Core().Counters())
}

// WPA2 end to end: stations with each AKM (one in power save) complete the
// 4-way handshake, carry a bulk download and pings both ways under CCMP
// (ARP resolving over the group key), and keep their connections through
// GTK and PTK rekeys under that traffic; no (key, PN) pair covers two
// frames.
func TestWPA2EndToEnd(t *testing.T) {
	s, h := wpaSim(t, 1, ap.RSNConfig{GroupRekey: 1500 * time.Millisecond, PTKRekey: 2 * time.Second}, nil)
	psk := s.AddStation(StationConfig{Passphrase: simPassphrase, AKM: rsn.AKMPSK, CheckNonces: true})
	sha := s.AddStation(StationConfig{Passphrase: simPassphrase, AKM: rsn.AKMPSKSHA256, CheckNonces: true, HT: true})
	ps := s.AddStation(StationConfig{Passphrase: simPassphrase, PowerSave: true, CheckNonces: true, Start: 5 * time.Millisecond})
	waitConnected(t, s)
	var events []string
	s.DrainEvents(func(e ap.Event) { events = append(events, e.Kind.String()) })
	if len(events) != 6 || events[0] != "AP-STA-CONNECTED" || events[1] != "EAPOL-4WAY-HS-COMPLETED" {
		t.Errorf("events %v: want AP-STA-CONNECTED and EAPOL-4WAY-HS-COMPLETED per station", events)
	}
	down := s.Bulk(h, psk, BulkConfig{})
	up := s.Bulk(sha, h, BulkConfig{})
	var pings []*Ping
	for _, st := range s.Stations() {
		pings = append(pings, s.Ping(st, h, 100*time.Millisecond, 56), s.Ping(h, st, 100*time.Millisecond, 56))
	}
	pings = append(pings, s.Ping(psk, ps, 100*time.Millisecond, 56)) // within the BSS
	s.Run(5 * time.Second)
	for _, p := range pings {
		p.Stop()
	}
	s.Run(500 * time.Millisecond)
	c := s.Core().Counters()
	if c[counter.GTKInstalled] < 4 || c[counter.HandshakeCompleted] < 3+3*2 || c[counter.HandshakeFailed] != 0 {
		t.Errorf("in 5 s with wpa_group_rekey 1.5 s and wpa_ptk_rekey 2 s: %d GTKs, %d handshakes, %d failed",
			c[counter.GTKInstalled], c[counter.HandshakeCompleted], c[counter.HandshakeFailed])
	}
	for i, st := range s.Stations() {
		ss := st.Stats()
		if !st.Associated() || ss.Associations != 1 || ss.DeauthsReceived != 0 || ss.Rekeys < 2 || ss.NonceReuses != 0 {
			t.Errorf("station %d: associated %v, %+v", i, st.Associated(), ss)
		}
		if ss.RxUndecryptable+ss.RxReplayed+ss.RxUnprotected > 0 {
			t.Errorf("station %d dropped frames: %d undecryptable, %d replayed, %d unprotected", i,
				ss.RxUndecryptable, ss.RxReplayed, ss.RxUnprotected)
		}
	}
	for i, p := range pings {
		if st := p.Stats(); st.Received+2 < st.Sent || st.Sent < 45 {
			t.Errorf("ping %d: %d of %d answered", i, st.Received, st.Sent)
		}
	}
	// The transfers go on through the rekeys; the PTK0 rekeys (no
	// Extended Key ID) lose what was in flight under the old key, as with
	// mac80211, which this go-back-N transfer pays for dearly.
	if d, u := down.Stats().Delivered, up.Stats().Delivered; d < 2e6 || u < 5e6 {
		t.Errorf("bulk under WPA2: %d bytes down (%+v), %d up (%+v) in 5 s", d, down.Stats(), u, up.Stats())
	}
	if c[counter.RxUnprotected]+c[counter.RxUndecryptable]+c[counter.RxReplayed] != 0 {
		t.Errorf("core drops: %v", &c)
	}
	if u := s.Stats().Unaccounted; u != 0 {
		t.Errorf("the core's downlink books did not balance %d times", u)
	}
}

// A station with the wrong passphrase never gets a data frame through:
// the AP gives up after four messages 1, deauthenticates it and says why
// once.
func TestWPA2WrongPassphraseSim(t *testing.T) {
	s, h := wpaSim(t, 2, ap.RSNConfig{}, nil)
	st := s.AddStation(StationConfig{Passphrase: "not the passphrase"})
	s.Run(200 * time.Millisecond)
	s.Ping(h, st, 50*time.Millisecond, 56)
	s.Run(5 * time.Second)
	c := s.Core().Counters()
	if c[counter.RxToWired] != 0 || st.Stack().RxFrames != 0 || st.Stats().RxData != 0 {
		t.Errorf("data passed: %v", &c)
	}
	if ss := st.Stats(); ss.DeauthsReceived != 1 || ss.LastReason != ieee80211.Reason4WayTimeout || st.Associated() {
		t.Errorf("station: %+v", ss)
	}
	var failed []ap.Event
	s.DrainEvents(func(e ap.Event) {
		if e.Kind == ap.EventHandshakeFailed {
			failed = append(failed, e)
		}
	})
	if len(failed) != 1 || failed[0].Why != "MIC mismatch on message 2: wrong passphrase likely" || c[counter.PSKMismatch] != 4 {
		t.Errorf("failures %+v, %d PSK mismatches", failed, c[counter.PSKMismatch])
	}
}

// stationFigures is what a station's entry shows that a frame from the air
// could change.
func stationFigures(t *testing.T, s *Sim, addr ieee80211.MAC) ctl.Station {
	t.Helper()
	r := s.Control(ctl.Request{Op: ctl.OpStationGet, Addr: addr})
	if len(r.Stations) != 1 {
		t.Fatalf("station get %s: %v", addr, r.Err())
	}
	st := r.Stations[0]
	st.ConnectedMs, st.InactiveMs = 0, 0 // these run with the clock
	return st
}

// A forged plaintext data frame from a connected station's address, and a
// replay of one of its real frames, are counted and dropped and change
// nothing of the station: the core's entry reads the same, byte for byte.
func TestWPA2ForgedAndReplayedFrames(t *testing.T) {
	var uplink [][]byte
	var s *Sim
	capture := func(_ time.Duration, b []byte) {
		var rx radio.RxInfo
		var tx radio.TxStatus
		n, echo, err := radiotap.Parse(b, &rx, &tx)
		if err != nil || echo || s == nil {
			return
		}
		if fr := ieee80211.Frame(b[n:]); fr.Type() == ieee80211.TypeData && fr.Protected() && fr.ToDS() {
			uplink = append(uplink, bytes.Clone(b))
		}
	}
	s, h := wpaSim(t, 3, ap.RSNConfig{}, capture)
	st := s.AddStation(StationConfig{Passphrase: simPassphrase})
	waitConnected(t, s)
	p := s.Ping(st, h, 20*time.Millisecond, 56)
	s.Run(time.Second)
	p.Stop()
	s.Run(100 * time.Millisecond)
	if len(uplink) < 20 {
		t.Fatalf("%d protected uplink frames captured", len(uplink))
	}
	before, c0 := stationFigures(t, s, st.Addr()), s.Core().Counters()
	// A louder forger: had the frame counted, the station's signal would show it.
	rxhdr := radiotap.AppendRx(nil, radio.RxInfo{Freq: uint16(s.Core().Config().Freq), Signal: -30, HasSignal: true, Rate: radio.LegacyRate(24000)})
	hdr := ieee80211.DataHeader{Flags: ieee80211.FCToDS | ieee80211.FCPwrMgt, Addr1: s.Core().Config().BSSID,
		Addr2: st.Addr(), Addr3: h.Addr(), QoS: true, Seq: 77}
	forged := ieee80211.AppendLLCSNAP(ieee80211.AppendDataHeader(bytes.Clone(rxhdr), hdr), 0x0800)
	s.InjectRadio(append(forged, make([]byte, 84)...))
	s.InjectRadio(uplink[3]) // an old frame, replayed as it was
	after, c := stationFigures(t, s, st.Addr()), s.Core().Counters()
	if !reflect.DeepEqual(after, before) {
		t.Errorf("the station's entry changed:\n%+v\nwas\n%+v", after, before)
	}
	if c[counter.RxUnprotected] != c0[counter.RxUnprotected]+1 || c[counter.RxReplayed] != c0[counter.RxReplayed]+1 ||
		c[counter.RxToWired] != c0[counter.RxToWired] {
		t.Errorf("counters %v, before %v", &c, &c0)
	}
}

// bulkBoth runs a download to one station and an upload from another for
// 3 s and returns the bytes each delivered.
func bulkBoth(t *testing.T, rc *ap.RSNConfig) (down, up uint64) {
	t.Helper()
	cfg := Config{Seed: 4, AP: ap.Config{RSN: rc}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := s.AddHost(HostConfig{})
	a := s.AddStation(StationConfig{Passphrase: simPassphrase, HT: true})
	b := s.AddStation(StationConfig{Passphrase: simPassphrase, HT: true})
	waitConnected(t, s)
	d, u := s.Bulk(h, a, BulkConfig{}), s.Bulk(b, h, BulkConfig{})
	s.Run(3 * time.Second)
	return d.Stats().Delivered, u.Stats().Delivered
}

// CCMP costs 16 bytes a frame of airtime and nothing else the simulator
// sees: WPA2 carries what the open network does, within 5 %.
func TestWPA2ThroughputAsOpen(t *testing.T) {
	od, ou := bulkBoth(t, nil)
	wd, wu := bulkBoth(t, &ap.RSNConfig{Passphrase: bss.NewPassphrase(simPassphrase)})
	t.Logf("open: %d down, %d up; WPA2: %d down, %d up", od, ou, wd, wu)
	if float64(wd) < 0.95*float64(od) || float64(wu) < 0.95*float64(ou) {
		t.Errorf("WPA2 %d down, %d up; open %d, %d", wd, wu, od, ou)
	}
}

// With Extended Key ID, PTK rekeys under a bulk transfer lose nothing:
// no MIC failure on either side.
func TestWPA2ExtendedKeyIDRekeys(t *testing.T) {
	s, h := wpaSim(t, 5, ap.RSNConfig{PTKRekey: time.Second, ExtendedKeyID: 1}, nil)
	st := s.AddStation(StationConfig{Passphrase: simPassphrase, ExtendedKeyID: true, CheckNonces: true})
	waitConnected(t, s)
	down, up := s.Bulk(h, st, BulkConfig{}), s.Bulk(st, h, BulkConfig{})
	s.Run(4 * time.Second)
	c, ss := s.Core().Counters(), st.Stats()
	if ss.Rekeys < 3 || ss.RxMICFailures+ss.RxUndecryptable+ss.NonceReuses != 0 || c[counter.RxMICFailure]+c[counter.RxUndecryptable] != 0 {
		t.Errorf("station %+v; core %v", ss, &c)
	}
	if down.Stats().Delivered == 0 || up.Stats().Delivered == 0 {
		t.Errorf("bulk: down %+v up %+v", down.Stats(), up.Stats())
	}
}

// A plaintext A-MSDU whose first subframe header reads as an 802.1H (or
// RFC 1042) header for EAPOL reaches no station with keys: only a plain
// MSDU may carry unprotected EAPOL, the AP's rule, and mac80211's.
func TestWPA2StationRefusesPlaintextAMSDUAsEAPOL(t *testing.T) {
	s, _ := wpaSim(t, 5, ap.RSNConfig{}, nil)
	st := s.AddStation(StationConfig{Passphrase: simPassphrase})
	waitConnected(t, s)
	s.Run(100 * time.Millisecond)
	bss := s.Core().Config().BSSID
	for _, llc := range [][]byte{{0xaa, 0xaa, 0x03, 0, 0, 0xf8}, {0xaa, 0xaa, 0x03, 0, 0, 0}} {
		before := st.Stats()
		hdr := ieee80211.DataHeader{Flags: ieee80211.FCFromDS, Addr1: st.Addr(), Addr2: bss, Addr3: bss, QoS: true, AMSDU: true, Seq: 99}
		b := ieee80211.AppendDataHeader(nil, hdr)
		body := len(b)
		// The first subframe's DA and SA are the LLC header and EAPOL's
		// EtherType; its payload and the next subframe are the injection.
		sa := ieee80211.MAC{0x88, 0x8e, 2, 0, 0, 1}
		b = ieee80211.AppendAMSDUSubframe(b, body, ieee80211.MAC(llc), sa, 0x0800, make([]byte, 28))
		b = ieee80211.AppendAMSDUSubframe(b, body, st.Addr(), bss, 0x0800, make([]byte, 28))
		st.receive(b)
		after := st.Stats()
		if after.RxAMSDUs != before.RxAMSDUs || after.RxData != before.RxData || after.RxUnprotected != before.RxUnprotected+1 {
			t.Errorf("LLC %x: a plaintext A-MSDU passed as EAPOL: before %+v, after %+v", llc[5], before, after)
		}
	}
}
