package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

const saeBase = "wpa=2\nieee80211w=2\nwpa_key_mgmt=SAE\n"

// Every SAE key lands in the SAE section with hostapd's meaning; several
// sae_password lines stay in file order with their parameters.
func TestSAEKeys(t *testing.T) {
	s, ps := parse(t, saeBase+"sae_password=first secret\nsae_password=second|mac=02:00:00:00:01:00\n"+
		"sae_password=third|id=guest|room\nsae_password=fourth|mac=ff:ff:ff:ff:ff:ff|id=x\n"+
		"sae_groups=20 19\nsae_pwe=2\nsae_require_mfp=1\nsae_confirm_immediate=1\nsae_sync=7\n"+
		"anti_clogging_threshold=0\ntransition_disable=0x01\n")
	if ps.Err() != nil || len(ps) != 0 {
		t.Fatalf("problems %v", ps)
	}
	r := s.Core.RSN
	if r == nil || r.SAE == nil || !slices.Equal(r.AKMs, []rsn.AKM{rsn.AKMSAE}) {
		t.Fatalf("no SAE section: %+v", r)
	}
	c := r.SAE
	if !slices.Equal(c.Groups, []uint16{20, 19}) || c.PWE != sae.BothMethods || !c.RequireMFP || !c.ConfirmImmediate ||
		c.Sync != 7 || c.AntiCloggingThreshold != 0 || c.TransitionDisable != 1 {
		t.Errorf("settings %+v", c)
	}
	want := []struct {
		pw, id string
		any    bool
	}{{"first secret", "", true}, {"second", "", false}, {"third", "guest|room", true}, {"fourth", "x", true}}
	if len(c.Passwords) != len(want) {
		t.Fatalf("%d passwords", len(c.Passwords))
	}
	for i, w := range want {
		p := c.Passwords[i]
		if string(p.Password) != w.pw || string(p.Identifier) != w.id || p.AnyPeer != w.any {
			t.Errorf("password %d: %q id %q any %v", i, p.Password, p.Identifier, p.AnyPeer)
		}
	}
	if c.Passwords[1].Peer != (sae.MAC{2, 0, 0, 0, 1, 0}) {
		t.Error("|mac= not read")
	}
	// hostapd 2.11's defaults.
	s, _ = parse(t, saeBase+"wpa_passphrase=12345678\n")
	if c := s.Core.RSN.SAE; c == nil || c.Sync != 3 || c.AntiCloggingThreshold != 5 || c.PWE != sae.HuntAndPeck || len(c.Passwords) != 0 {
		t.Errorf("defaults %+v", c)
	}
	s, ps = parse(t, saeBase+"wpa_passphrase=12345678\nsae_anti_clogging_threshold=9 (deprecated)\n")
	if s.Core.RSN.SAE.AntiCloggingThreshold != 9 || len(ps) != 0 {
		t.Errorf("deprecated key: %d %v", s.Core.RSN.SAE.AntiCloggingThreshold, ps)
	}
}

// Refused values name the key and the reason, and never quote a password.
func TestSAEErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"sae_password=hunter22|vlanid=3\n", "sae_password: |vlanid= is not supported; want the password with |mac= and |id= only (airq has no per-station VLANs)"},
		{"sae_password=hunter22|pk=abc\n", "sae_password: |pk= is not supported; want the password with |mac= and |id= only (SAE-PK"},
		{"sae_password=hunter22|mac=nonsense\n", "sae_password: |mac= wants a station address"},
		{"sae_password=|id=x\n", "sae_password: the password is empty"},
		{"sae_password=hunter22|id=guest|mac=02:00:00:00:01:00\n", "sae_password: |id= before |mac= would be read as part of the password"},
		{"sae_password=hunter22|vlanid=3|mac=02:00:00:00:01:00\n", "sae_password: |vlanid= before |mac= would be read as part of the password"},
		{"wpa_passphrase=12345678\nsae_groups=15\n", "sae_groups: group 15 is not supported; want 19, 20 and/or 21"},
		{"wpa_passphrase=12345678\nsae_pwe=3\n", `sae_pwe: "3": want 0`},
		{"wpa_passphrase=12345678\ntransition_disable=0x02\n", "transition_disable: 0x02: only bit 0"},
		{"wpa_psk=" + strings.Repeat("ab", 32) + "\n", "wpa_key_mgmt: SAE needs sae_password or wpa_passphrase"},
	} {
		_, ps := parse(t, saeBase+c.text)
		err := ps.Err()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter22") {
			t.Errorf("%q: the error quotes the password: %v", c.text, err)
		}
	}
	_, ps := parse(t, "wpa=0\nsae_password=hunter22\n")
	if err := ps.Err(); err == nil || !strings.Contains(err.Error(), "sae_password: needs wpa=2") || strings.Contains(err.Error(), "hunter22") {
		t.Errorf("sae_password without wpa=2: %v", err)
	}
}

// hostapd starts SAE without PMF and H2E-only beside WPA-PSK; airq does
// too, with a warning saying who is locked out.
func TestSAEWarnings(t *testing.T) {
	_, ps := parse(t, "wpa=2\nwpa_key_mgmt=SAE\nsae_password=hunter22\n")
	if ps.Err() != nil || len(ps) != 1 || !ps[0].Warning || !strings.Contains(ps[0].Msg, "WPA3 requires management frame protection") {
		t.Errorf("ieee80211w=0: %v", ps)
	}
	_, ps = parse(t, "wpa=2\nieee80211w=1\nwpa_key_mgmt=WPA-PSK SAE\nwpa_passphrase=12345678\nsae_pwe=1\n")
	if ps.Err() != nil || len(ps) != 1 || !ps[0].Warning || !strings.Contains(ps[0].Msg, "only WPA2 cannot join") {
		t.Errorf("sae_pwe=1 beside WPA-PSK: %v", ps)
	}
	_, ps = parse(t, "wpa=2\nwpa_passphrase=12345678\nsae_groups=19\n")
	if ps.Err() != nil || len(ps) != 1 || !ps[0].Warning || !strings.Contains(ps[0].Msg, "changes nothing without SAE") {
		t.Errorf("SAE key without SAE: %v", ps)
	}
	s, ps := parse(t, "wpa=2\nieee80211w=1\nwpa_key_mgmt=WPA-PSK SAE\nwpa_passphrase=12345678\n")
	if ps.Err() != nil || len(ps) != 0 || s.Core.RSN.SAE == nil {
		t.Errorf("transition mode: %v", ps)
	}
}

// Values shows sae_password as a keyed hash, never the password.
func TestSAEPasswordRedacted(t *testing.T) {
	f, _ := Parse("x.conf", []byte(saeBase+"sae_password=hunter22|id=guest\n"))
	if v := f.Values()["sae_password"]; strings.Contains(v, "hunter22") || !strings.HasPrefix(v, "[redacted ") {
		t.Errorf("Values shows %q", v)
	}
	_, ps := Parse("x.conf", []byte("sae_password hunter22\n"))
	if strings.Contains(ps.Err().Error(), "hunter22") {
		t.Errorf("a line without '=' quotes the password: %v", ps.Err())
	}
}
