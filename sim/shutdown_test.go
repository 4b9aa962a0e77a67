package sim

import (
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// At shutdown every station hears the AP's deauthentication (reason 3,
// leaving), as from airqd on a real radio, and leaves the BSS; the core
// reports each disconnection.
func TestShutdownDeauthenticates(t *testing.T) {
	s, _ := newBSS(t, 7, 3, MediumConfig{}, StationConfig{})
	s.DrainEvents(func(ap.Event) {})
	s.Shutdown()
	for i, st := range s.Stations() {
		if st.Associated() || st.Stats().DeauthsReceived == 0 || st.Stats().LastReason != ieee80211.ReasonDeauthLeaving {
			t.Errorf("station %d: associated %v, %+v", i, st.Associated(), st.Stats())
		}
	}
	gone := 0
	s.DrainEvents(func(e ap.Event) {
		if e.Kind == ap.EventDisconnected && e.Why == "AP shutting down" {
			gone++
		}
	})
	if gone != 3 {
		t.Errorf("%d disconnection events, want 3", gone)
	}
}

// An MFP station takes the AP's shutdown deauthentication too: it comes
// protected under its PTK (an unprotected one it would drop and question
// with an SA Query that no one answers any more).
func TestShutdownDeauthenticatesMFP(t *testing.T) {
	s, _ := wpaSim(t, 12, ap.RSNConfig{MFP: rsn.MFPRequired}, nil)
	st := s.AddStation(StationConfig{Passphrase: simPassphrase, AKM: rsn.AKMPSKSHA256})
	waitConnected(t, s)
	s.Shutdown()
	if st.Associated() || st.Stats().DeauthsReceived != 1 || st.Stats().LastReason != ieee80211.ReasonDeauthLeaving {
		t.Errorf("associated %v, %+v", st.Associated(), st.Stats())
	}
}
