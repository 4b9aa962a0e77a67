package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

// TestSecuredBSSesSim: one radio carrying a WPA2-Personal BSS, a
// WPA3-Personal (SAE, H2E, PMF required) guest BSS and an open one, each
// secured BSS with its own secret. A station of each joins with its own
// BSS's secret and carries pings both ways with a host on its BSS's wired side; a
// station offering the main passphrase to the guest BSS, whose PT derives
// from the guest's SSID and password, is refused.
func TestSecuredBSSesSim(t *testing.T) {
	const guestPassword = "guest network password"
	ids := []ieee80211.MAC{{0x02, 0, 0, 0, 0x01, 0}, {0x02, 0, 0, 0, 0x01, 1}, {0x02, 0, 0, 0, 0x01, 2}}
	guest := &ap.RSNConfig{AKMs: []rsn.AKM{rsn.AKMSAE}, MFP: rsn.MFPRequired,
		SAE: &ap.SAEConfig{Passwords: []sae.Password{{Password: []byte(guestPassword), AnyPeer: true}},
			PWE: sae.HashToElement, Sync: 3, AntiCloggingThreshold: 5}}
	cfg := Config{Seed: 3, AP: ap.Config{SSID: "main", BSSID: ids[0],
		RSN:   &ap.RSNConfig{AKMs: []rsn.AKM{rsn.AKMPSK}, Passphrase: bss.NewPassphrase(simPassphrase)},
		BSSes: []ap.BSSConfig{{BSSID: ids[1], SSID: "guest", RSN: guest}, {BSSID: ids[2], SSID: "iot"}}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hosts := []*Host{s.AddHost(HostConfig{}), s.AddHost(HostConfig{BSS: 1}), s.AddHost(HostConfig{BSS: 2})} // each BSS's wired side
	main := s.AddStation(StationConfig{SSID: "main", Passphrase: simPassphrase})
	g := s.AddStation(StationConfig{SSID: "guest", SAE: &StationSAE{Password: guestPassword, H2E: true}, Start: time.Millisecond})
	iot := s.AddStation(StationConfig{SSID: "iot", Start: 2 * time.Millisecond})
	waitConnected(t, s)
	for i, st := range []*Station{main, g, iot} {
		if st.bssid != ids[i] {
			t.Fatalf("station %d joined %s, want %s", i, st.bssid, ids[i])
		}
	}
	var pings []*Ping
	for i, st := range []*Station{main, g, iot} {
		pings = append(pings, s.Ping(st, hosts[i], 100*time.Millisecond, 56), s.Ping(hosts[i], st, 100*time.Millisecond, 56))
	}
	s.Run(3 * time.Second)
	for i, p := range pings {
		if st := p.Stats(); st.Received+2 < st.Sent || st.Sent < 25 {
			t.Errorf("ping %d: %d of %d answered", i, st.Received, st.Sent)
		}
	}
	c := s.Core().Counters()
	if c[counter.SAEAccepted] != 1 || c[counter.HandshakeCompleted] != 2 || c[counter.GTKInstalled] != 2 || c[counter.HandshakeFailed] != 0 {
		t.Errorf("core: %d SAE accepted, %d handshakes, %d GTKs, %d failed; want 1, 2, 2 (one per secured BSS), 0",
			c[counter.SAEAccepted], c[counter.HandshakeCompleted], c[counter.GTKInstalled], c[counter.HandshakeFailed])
	}
	wrong := s.AddStation(StationConfig{SSID: "guest", SAE: &StationSAE{Password: simPassphrase, H2E: true}})
	s.Run(2 * time.Second)
	if wrong.Associated() || s.Core().Counters()[counter.SAEConfirmMismatch] == 0 {
		t.Errorf("the main passphrase joined the guest BSS: associated %v", wrong.Associated())
	}
}
