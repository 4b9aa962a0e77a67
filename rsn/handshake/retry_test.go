package handshake

import (
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// sendTimes returns when the AP sent frames to spa, with their frames.
func sendTimes(t *testing.T, acts []Action, spa ieee80211.MAC) ([]time.Duration, []rsn.KeyFrame) {
	var at []time.Duration
	var fs []rsn.KeyFrame
	for _, a := range acts {
		if a.Kind == ActSend && a.Addr == spa {
			at = append(at, a.At)
			fs = append(fs, keyFrame(t, a.Frame))
		}
	}
	return at, fs
}

func gaps(at []time.Duration) []time.Duration {
	var g []time.Duration
	for i := 1; i < len(at); i++ {
		g = append(g, at[i]-at[i-1])
	}
	return g
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMessage1Retries: message 1 goes out 4 times, the first retry after
// 100 ms (TX status available, no acknowledgement), then every second,
// with the same ANonce and increasing replay counters; the station is
// then deauthenticated with reason 15.
func TestMessage1Retries(t *testing.T) {
	for _, c := range []struct {
		name string
		ack  bool
		tx   bool
		want []time.Duration
	}{
		{"TX status, no ack", false, true, []time.Duration{100 * time.Millisecond, time.Second, time.Second, time.Second}},
		{"TX status, acked: re-armed to 1 s", true, true, []time.Duration{time.Second, time.Second, time.Second, time.Second}},
		{"no TX status", false, false, []time.Duration{time.Second, time.Second, time.Second, time.Second}},
	} {
		dropAll := func(ieee80211.MAC, bool, []byte) bool { return true }
		l := &link{t: t, pmk: pmkOf(t, "correct horse battery"), now: time.Second, drop: dropAll, ack: c.ack}
		su := setup{cfg: func(cfg *Config) { cfg.TXStatus = c.tx }}
		l2 := connect(t, su, l)
		l2.runUntil(l2.now + 10*time.Second)
		at, fs := sendTimes(t, l2.ap, staMAC)
		d, ok := last(l2.ap, ActDeauth)
		if len(fs) != 4 || !ok {
			t.Fatalf("%s: %d messages 1, deauth %v", c.name, len(fs), ok)
		}
		if got := append(gaps(at), d.At-at[3]); !equalDurations(got, c.want) {
			t.Errorf("%s: intervals %v, want %v", c.name, got, c.want)
		}
		for i, f := range fs {
			if f.Replay() != uint64(i+1) || f.Nonce() != fs[0].Nonce() || f.Info() != rsn.InfoAck|rsn.InfoPairwise|rsn.VersionHMACSHA1 {
				t.Errorf("%s: message 1 #%d replay %d info %#x", c.name, i+1, f.Replay(), f.Info())
			}
		}
		if d.Reason != ieee80211.Reason4WayTimeout || d.Cause != CauseNoMessage2 {
			t.Errorf("%s: deauth %d %v", c.name, d.Reason, d.Cause)
		}
	}
}

func TestUpdateCount(t *testing.T) {
	dropAll := func(ieee80211.MAC, bool, []byte) bool { return true }
	l := connect(t, setup{cfg: func(c *Config) { c.PairwiseUpdateCount = 2 }},
		&link{t: t, pmk: pmkOf(t, "correct horse battery"), now: time.Second, drop: dropAll})
	l.runUntil(l.now + 10*time.Second)
	if at, _ := sendTimes(t, l.ap, staMAC); len(at) != 2 || count(l.ap, ActDeauth) != 1 {
		t.Fatalf("%d messages 1 with wpa_pairwise_update_count=2", len(at))
	}
}

// TestMessage3Retries: with message 4 lost, message 3 goes out 4 times
// (100 ms, then 1 s), each with a new replay counter and the same ANonce;
// the supplicant answers each but installs its keys once.
func TestMessage3Retries(t *testing.T) {
	stationFrames := 0
	lossy := func(_ ieee80211.MAC, toSTA bool, _ []byte) bool {
		if toSTA {
			return false
		}
		stationFrames++
		return stationFrames > 1 // message 2 passes, the messages 4 do not
	}
	l := connect(t, setup{}, &link{t: t, pmk: pmkOf(t, "correct horse battery"), now: time.Second, drop: lossy})
	l.runUntil(l.now + 10*time.Second)
	at, fs := sendTimes(t, l.ap, staMAC)
	if len(fs) != 5 {
		t.Fatalf("AP sent %d frames, want message 1 and four messages 3", len(fs))
	}
	d, _ := last(l.ap, ActDeauth)
	want := []time.Duration{0, 100 * time.Millisecond, time.Second, time.Second, time.Second}
	if got := append(gaps(at), d.At-at[4]); !equalDurations(got, want) {
		t.Errorf("intervals %v, want %v", got, want)
	}
	for i, f := range fs[1:] {
		if f.Replay() != uint64(i+2) || f.Nonce() != fs[0].Nonce() || f.Info()&rsn.InfoInstall == 0 {
			t.Errorf("message 3 #%d: replay %d", i+1, f.Replay())
		}
	}
	if d.Reason != ieee80211.Reason4WayTimeout || d.Cause != CauseNoMessage4 || count(l.ap, ActInstallPTK) != 0 {
		t.Errorf("deauth %+v, %d PTK installs", d, count(l.ap, ActInstallPTK))
	}
	if n := count(l.sta, ActSend); n != 5 {
		t.Errorf("supplicant sent %d frames, want message 2 and four messages 4", n)
	}
	if count(l.sta, ActInstallPTK) != 1 || count(l.sta, ActInstallGTK) != 1 {
		t.Errorf("supplicant installed %d PTKs and %d GTKs: keys reinstalled", count(l.sta, ActInstallPTK), count(l.sta, ActInstallGTK))
	}
}

// TestDisableEAPOLKeyRetries: message 1 keeps its retries, message 3 is
// sent once and given 4 s.
func TestDisableEAPOLKeyRetries(t *testing.T) {
	n := 0
	lossy := func(_ ieee80211.MAC, toSTA bool, _ []byte) bool {
		if toSTA {
			return false
		}
		n++
		return n > 1
	}
	l := connect(t, setup{cfg: func(c *Config) { c.DisableEAPOLKeyRetries = true }},
		&link{t: t, pmk: pmkOf(t, "correct horse battery"), now: time.Second, drop: lossy})
	l.runUntil(l.now + 10*time.Second)
	at, fs := sendTimes(t, l.ap, staMAC)
	d, _ := last(l.ap, ActDeauth)
	if len(fs) != 2 || d.At-at[1] != 4*time.Second || d.Reason != ieee80211.Reason4WayTimeout {
		t.Fatalf("%d frames, deauth %v after message 3", len(fs), d.At-at[len(at)-1])
	}
	// Message 1 still retries.
	dropAll := func(ieee80211.MAC, bool, []byte) bool { return true }
	l = connect(t, setup{cfg: func(c *Config) { c.DisableEAPOLKeyRetries = true }},
		&link{t: t, pmk: pmkOf(t, "correct horse battery"), now: time.Second, drop: dropAll})
	l.runUntil(l.now + 10*time.Second)
	if at, _ := sendTimes(t, l.ap, staMAC); len(at) != 4 || at[1]-at[0] != 100*time.Millisecond {
		t.Fatalf("messages 1 at %v", at)
	}
}

// TestGroupRetries: group message 1 unanswered goes out 4 times (500 ms,
// then 1 s) and the station is deauthenticated with reason 16; the AP
// then sends with the new GTK.
func TestGroupRetries(t *testing.T) {
	for _, disable := range []bool{false, true} {
		l := newLink(t, setup{cfg: func(c *Config) { c.DisableEAPOLKeyRetries = disable }})
		start := len(l.ap)
		l.drop = func(_ ieee80211.MAC, toSTA bool, _ []byte) bool { return !toSTA }
		l.a.RekeyGTK(l.now)
		l.flush()
		l.runUntil(l.now + 10*time.Second)
		at, fs := sendTimes(t, l.ap[start:], staMAC)
		d, ok := last(l.ap, ActDeauth)
		want := []time.Duration{500 * time.Millisecond, time.Second, time.Second, time.Second}
		if disable {
			want = []time.Duration{4 * time.Second}
		}
		if !ok || !equalDurations(append(gaps(at), d.At-at[len(at)-1]), want) {
			t.Fatalf("disable %v: group messages at %v, deauth %+v", disable, at, d)
		}
		for _, f := range fs {
			if f.Info()&rsn.InfoPairwise != 0 || f.KeyLength() != 0 {
				t.Fatalf("not a group message: %#x", f.Info())
			}
		}
		if d.Reason != ieee80211.ReasonGroupKeyTimeout || d.Cause != CauseGroupTimeout {
			t.Fatalf("deauth %+v", d)
		}
		if g, _ := last(l.ap, ActInstallGTK); g.KeyID != 2 || g.At != d.At {
			t.Fatalf("new GTK installed for sending at %v with key ID %d, station failed at %v", g.At, g.KeyID, d.At)
		}
	}
}

func TestFirstGroupTimeoutWithoutTXStatus(t *testing.T) {
	l := newLink(t, setup{cfg: func(c *Config) { c.TXStatus = false }})
	start := len(l.ap)
	l.drop = func(_ ieee80211.MAC, toSTA bool, _ []byte) bool { return !toSTA }
	l.a.RekeyGTK(l.now)
	l.flush()
	l.runUntil(l.now + 10*time.Second)
	if at, _ := sendTimes(t, l.ap[start:], staMAC); len(at) != 4 || at[1]-at[0] != time.Second {
		t.Fatalf("group messages at %v", at)
	}
}
