package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
)

// A BSS with ieee80211w=2: a station that offers MFP joins with it, one
// that does not (wpa_supplicant's ieee80211w=0) is refused with status 31.
func TestPMFSimRequired(t *testing.T) {
	s, h := wpaSim(t, 11, ap.RSNConfig{MFP: rsn.MFPRequired}, nil)
	st := s.AddStation(StationConfig{Passphrase: simPassphrase, AKM: rsn.AKMPSKSHA256})
	waitConnected(t, s)
	legacy := s.AddStation(StationConfig{Passphrase: simPassphrase, NoMFP: true})
	s.Run(2 * time.Second)
	if legacy.Associated() || legacy.Stats().Associations != 0 || legacy.Stats().AssocReqs == 0 {
		t.Errorf("the station without MFP: %+v", legacy.Stats())
	}
	if !stationFigures(t, s, st.Addr()).MFP || st.crypto.igtk.Key(4) == nil {
		t.Error("the MFP station has no MFP or no IGTK")
	}
	p := s.Ping(st, h, 20*time.Millisecond, 56)
	s.Run(time.Second)
	if p.Stats().Received < 45 {
		t.Errorf("pings %+v", p.Stats())
	}
}

// deauthFrom builds a management frame of subtype from src (also the
// BSSID) to dst, unprotected, with reason 7.
func deauthFrom(subtype uint8, src, dst ieee80211.MAC) ieee80211.Frame {
	b := ieee80211.AppendMgmtHeader(nil, subtype, dst, src, src, 99)
	return ieee80211.AppendDeauth(b, 7)
}

// A forged unprotected deauthentication and disassociation from the AP's
// address, unicast and broadcast, leave a simulated MFP station connected:
// it drops them (the broadcast one fails BIP), asks the AP with an SA
// Query, which the AP answers under the PTK, and keeps its pings going.
func TestPMFSimForgedDeauthToStation(t *testing.T) {
	s, h := wpaSim(t, 12, ap.RSNConfig{MFP: rsn.MFPOptional}, nil)
	st := s.AddStation(StationConfig{Passphrase: simPassphrase})
	waitConnected(t, s)
	bss := s.Core().Config().BSSID
	p := s.Ping(st, h, 20*time.Millisecond, 56)
	st.receive(deauthFrom(ieee80211.SubtypeDeauth, bss, st.Addr()))
	st.receive(deauthFrom(ieee80211.SubtypeDisassoc, bss, st.Addr()))
	st.receive(deauthFrom(ieee80211.SubtypeDeauth, bss, ieee80211.Broadcast))
	s.Run(time.Second)
	stats := st.Stats()
	if !st.Associated() || stats.DeauthsReceived != 0 || stats.RxMgmtUnprotected != 2 || stats.RxMgmtDropped != 1 {
		t.Errorf("station %+v", stats)
	}
	if stats.SAQueryResponses != 1 || s.Core().Counters()[counter.SAQueryAnswered] != 1 {
		t.Errorf("SA Query: station %+v, core %v", stats, s.Core().Counters())
	}
	if ps := p.Stats(); ps.Received < 45 {
		t.Errorf("pings %+v", ps)
	}
}

// An unprotected deauthentication and disassociation claiming to come
// from the station leave it associated at the AP, counted; its own
// (protected) deauthentication ends the association.
func TestPMFSimForgedDeauthToAP(t *testing.T) {
	s, _ := wpaSim(t, 13, ap.RSNConfig{MFP: rsn.MFPRequired}, nil)
	st := s.AddStation(StationConfig{Passphrase: simPassphrase})
	waitConnected(t, s)
	bss := s.Core().Config().BSSID
	rx := radiotap.AppendRx(nil, radio.RxInfo{Freq: uint16(s.Core().Config().Freq), Signal: -30, HasSignal: true, Rate: radio.LegacyRate(6000)})
	for _, sub := range []uint8{ieee80211.SubtypeDeauth, ieee80211.SubtypeDisassoc} {
		f := ieee80211.AppendMgmtHeader(append([]byte(nil), rx...), sub, bss, st.Addr(), bss, 5)
		s.InjectRadio(ieee80211.AppendDeauth(f, 3))
	}
	s.Run(100 * time.Millisecond)
	c := s.Core().Counters()
	if c[counter.RxMgmtUnprotectedDeauth] != 1 || c[counter.RxMgmtUnprotectedDisassoc] != 1 || c[counter.Associated] != 1 {
		t.Errorf("core %v", &c)
	}
	st.Deauthenticate(ieee80211.ReasonDeauthLeaving)
	s.Run(100 * time.Millisecond)
	if c := s.Core().Counters(); c[counter.Associated] != 0 || c[counter.RxMgmtUnprotectedDeauth] != 1 {
		t.Errorf("after the station's own deauthentication: %v", &c)
	}
}

// A station whose SA Query goes unanswered takes its association as lost
// once wpa_supplicant's 1000 TU have passed, and joins again; one whose
// query is answered stays (TestPMFSimForgedDeauthToStation).
func TestPMFSimSAQueryTimeout(t *testing.T) {
	s, _ := wpaSim(t, 14, ap.RSNConfig{MFP: rsn.MFPOptional}, nil)
	st := s.AddStation(StationConfig{Passphrase: simPassphrase, Reconnect: true})
	waitConnected(t, s)
	st.cfg.Loss = 1 // the AP hears nothing of it from now on
	st.receive(deauthFrom(ieee80211.SubtypeDeauth, s.Core().Config().BSSID, st.Addr()))
	s.Run(900 * time.Millisecond)
	if !st.Associated() || st.Stats().SAQueryTimeouts != 0 {
		t.Fatalf("before the timeout: %+v", st.Stats())
	}
	s.Run(200 * time.Millisecond)
	if st.Associated() || st.Stats().SAQueryTimeouts != 1 {
		t.Fatalf("after the timeout: %+v", st.Stats())
	}
	st.cfg.Loss = 0
	s.Run(3 * time.Second)
	if !st.Associated() || st.Stats().Associations != 2 {
		t.Errorf("not back: %+v", st.Stats())
	}
}
