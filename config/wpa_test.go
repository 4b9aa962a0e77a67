package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/rsn"
)

// The WPA keys land in the core's RSN section with hostapd's defaults.
func TestWPAKeys(t *testing.T) {
	s, err := load(t, writeConf(t, "ssid=x\nwpa=2\nwpa_passphrase=correct horse\nwpa_key_mgmt=WPA-PSK WPA-PSK-SHA256\n"+
		"rsn_pairwise=CCMP\nwpa_pairwise=CCMP\nwpa_ptk_rekey=600\nwpa_strict_rekey=1\nwpa_disable_eapol_key_retries=1\nwpa_deny_ptk0_rekey=2\nextended_key_id=1\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Core.RSN
	if r == nil || r.Passphrase.Reveal() != "correct horse" || !slices.Equal(r.AKMs, []rsn.AKM{rsn.AKMPSK, rsn.AKMPSKSHA256}) ||
		!slices.Equal(r.Pairwise, []rsn.Cipher{rsn.CipherCCMP}) || r.GroupRekey != 86400*time.Second || r.PTKRekey != 600*time.Second ||
		!r.StrictRekey || !r.DisableEAPOLKeyRetries || !r.DenyPTK0Rekey || r.ExtendedKeyID != 1 {
		t.Errorf("RSN %+v", r)
	}
	if _, err := (ap.Config{SSID: "x", BSSID: [6]byte{2}, Channel: 1, RSN: r}).Resolve(); err != nil {
		t.Errorf("the core refuses the section: %v", err)
	}
	psk := strings.Repeat("0a", 32)
	s, err = load(t, writeConf(t, "wpa=2\nwpa_psk="+psk+"\nwpa_group_rekey=0\n"), nil)
	if err != nil || s.Core.RSN.PSK == nil || s.Core.RSN.PSK[0] != 10 || s.Core.RSN.GroupRekey != 0 {
		t.Errorf("wpa_psk: %+v, %v", s.Core.RSN, err)
	}
	if s, err = load(t, writeConf(t, "wpa=0\n"), nil); err != nil || s.Core.RSN != nil {
		t.Errorf("wpa=0: %+v, %v", s.Core.RSN, err)
	}
}

// WPA1, TKIP, the other AKMs and bad secrets are refused naming the key;
// a secret is never quoted.
func TestWPAErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"wpa=1\n", `:1: wpa: 1: WPA (version 1, with TKIP) is not supported; want 2 (WPA2) or 0 (open)`},
		{"wpa=3\n", `:1: wpa: 3: WPA (version 1, with TKIP) is not supported`},
		{"wpa=2\nrsn_pairwise=TKIP\n", `:2: rsn_pairwise: TKIP is not supported; want CCMP`},
		{"wpa=2\nwpa_passphrase=12345678\nwpa_pairwise=TKIP CCMP\n", `:3: wpa_pairwise: "TKIP CCMP": without rsn_pairwise, hostapd takes wpa=2's cipher from wpa_pairwise: TKIP is not supported; want CCMP`},
		{"wpa=2\nwpa_passphrase=12345678\nwpa_pairwise=WEP\n", `:3: wpa_pairwise: "WEP": want ciphers among CCMP, TKIP`},
		{"wpa=2\nrsn_pairwise=GCMP\n", `:2: rsn_pairwise: GCMP is not supported; want CCMP`},
		{"wpa=2\nwpa_key_mgmt=SAE\n", `:2: wpa_key_mgmt: SAE needs sae_password or wpa_passphrase`},
		{"wpa=2\nwpa_key_mgmt=OWE\n", `:2: wpa_key_mgmt: OWE is not supported; want WPA-PSK, WPA-PSK-SHA256 and/or SAE`},
		{"wpa=2\nwpa_key_mgmt=WPA-EAP\n", `:2: wpa_key_mgmt: WPA-EAP is not supported`},
		{"wpa=2\nwpa_passphrase=short\n", `:2: wpa_passphrase: 5 characters, want 8 to 63`},
		{"wpa=2\nwpa_passphrase=" + strings.Repeat("p", 64) + "\n", `:2: wpa_passphrase: 64 characters, want 8 to 63`},
		{"wpa=2\nwpa_psk=secretsecret\n", `:2: wpa_psk: want the PSK as 64 hex digits`},
		{"ssid=x\nwpa=2\n", `:2: wpa: wpa=2 needs wpa_passphrase, wpa_psk or wpa_psk_file`},
		{"wpa_passphrase=secret123\n", `:1: wpa_passphrase: needs wpa=2; without it the network is open`},
		{"wpa=0\nwpa_key_mgmt=WPA-PSK\n", `:2: wpa_key_mgmt: needs wpa=2`},
		{"wpa=2\nwpa_passphrase=12345678\nextended_key_id=3\n", `:3: extended_key_id: "3": want 0 (off, the default), 1`},
	} {
		path := writeConf(t, c.text)
		_, err := load(t, path, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), path+":") {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "short") || strings.Contains(err.Error(), "secretsecret") || strings.Contains(err.Error(), "ppppp")) {
			t.Errorf("%q: the error quotes the secret: %v", c.text, err)
		}
	}
}

// Values tells a changed secret from an unchanged one without showing it.
func TestSecretsRedacted(t *testing.T) {
	a, _ := Parse("a.conf", []byte("wpa=2\nwpa_passphrase=correct horse\n"))
	b, _ := Parse("b.conf", []byte("wpa=2\nwpa_passphrase=correct horse\n"))
	c, _ := Parse("c.conf", []byte("wpa=2\nwpa_passphrase=another horse\n"))
	va, vb, vc := a.Values()["wpa_passphrase"], b.Values()["wpa_passphrase"], c.Values()["wpa_passphrase"]
	if strings.Contains(va, "horse") || !strings.HasPrefix(va, "[redacted ") || va != vb || va == vc {
		t.Errorf("values %q %q %q", va, vb, vc)
	}
	s := defaults()
	a.Apply(&s, nil)
	p, _ := Parse("p.conf", []byte("wpa=2\nwpa_psk="+strings.Repeat("a7", 32)+"\n"))
	ps := defaults()
	p.Apply(&ps, nil)
	for _, f := range []string{"%v", "%+v", "%#v", "%s", "%d", "%x", "%q"} {
		if out := sprintf(f, s); strings.Contains(out, "horse") || strings.Contains(out, "686f727365") {
			t.Errorf("%s of the settings shows the passphrase: %s", f, out)
		}
		if out := sprintf(f, ps); strings.Contains(out, "167 167") || strings.Contains(out, "a7a7") || strings.Contains(out, "0xa7") {
			t.Errorf("%s of the settings shows the PSK: %s", f, out)
		}
	}
}

// A secret in a file others may read is warned about.
func TestWorldReadableWarning(t *testing.T) {
	path := writeConf(t, "wpa=2\nwpa_passphrase=correct horse\n")
	warnings := func() Problems {
		b, _ := os.ReadFile(path)
		s := defaults()
		_, ps := Load(path, b, &s, nil)
		if ps.Err() != nil {
			t.Fatal(ps.Err())
		}
		return ps.Warnings()
	}
	if w := warnings(); len(w) != 0 {
		t.Errorf("mode 0600: %v", w)
	}
	os.Chmod(path, 0o644)
	if w := warnings(); len(w) != 1 || w[0].Key != "wpa_passphrase" || w[0].Line != 2 || !strings.Contains(w[0].Msg, "chmod o-r") ||
		strings.Contains(w[0].String(), "horse") {
		t.Errorf("mode 0644: %v", w)
	}
	os.WriteFile(path, []byte("ssid=x\n"), 0o644)
	if w := warnings(); len(w) != 0 {
		t.Errorf("no secret: %v", w)
	}
}

func sprintf(format string, s Settings) string { return fmt.Sprintf(format, s) }

// wpa_psk_file: hostapd's lines, per station and for any, with their
// prefixes; the secrets as PMKs or passphrases for the core to derive.
func TestPSKFile(t *testing.T) {
	dir := t.TempDir()
	psks := filepath.Join(dir, "hostapd.wpa_psk")
	os.WriteFile(psks, []byte("# hostapd.wpa_psk\n"+
		"00:00:00:00:00:00 guest passphrase\n"+
		"keyid=laptop 02:00:00:00:01:00 "+strings.Repeat("0b", 32)+"\n"+
		"keyid=phone vlanid=0 wps=1 02:00:00:00:02:00 phone's own passphrase\n"+
		"00:00:00:00:00:00 another one for anyone\n"), 0o600)
	conf := writeConf(t, "wpa=2\nwpa_psk_file="+psks+"\n")
	s, err := load(t, conf, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := s.Core.RSN.PSKs
	if len(p) != 4 || !p[0].Addr.IsZero() || p[0].Passphrase.Reveal() != "guest passphrase" ||
		p[1].KeyID != "laptop" || p[1].PMK == nil || p[1].PMK[0] != 11 || p[1].Addr[5] != 0 || p[1].Addr[4] != 1 ||
		p[2].KeyID != "phone" || p[2].Passphrase.Reveal() != "phone's own passphrase" || p[3].Passphrase.Reveal() != "another one for anyone" {
		t.Errorf("PSKs %+v", p)
	}
	b, _ := os.ReadFile(conf)
	st := defaults()
	if _, ps := Load(conf, b, &st, nil); len(ps) != 1 || !ps[0].Warning || ps[0].Key != "wpa_psk_file" ||
		!strings.Contains(ps[0].Msg, ":4: wps=1 changes nothing") {
		t.Errorf("problems %v", ps)
	}
	for _, c := range []struct{ line, want string }{
		{"vlanid=3 02:00:00:00:01:00 passphrase", ":1: vlanid: per-station VLANs are not supported"},
		{"color=red 02:00:00:00:01:00 passphrase", `:1: a field before the address field is not keyid=, vlanid= or wps=`},
		{"02:00:00:00:01 passphrase", ":1: the address field is not a MAC address"},
		{"01:00:5e:00:00:01 passphrase", ":1: the address field is a group address"},
		{"02:00:00:00:01:00 short", ":1: the PSK: want 64 hex digits or a passphrase of 8 to 63 characters (5 characters)"},
		{"# only a comment", ": no PSK"},
	} {
		os.WriteFile(psks, []byte(c.line+"\n"), 0o600)
		_, err := load(t, conf, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "short\"") {
			t.Errorf("%q: %v, want %q", c.line, err, c.want)
		}
	}
}
