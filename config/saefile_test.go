package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sae_password_file's lines are sae_password values, in file order after
// the sae_password lines above the key and before those below it; blank
// and '#' lines are skipped, a trailing '\r' dropped.
func TestSAEPasswordFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hostapd.sae_passwords")
	os.WriteFile(file, []byte("# guests\n\nguest secret|id=guest\r\nstation secret|mac=02:00:00:00:01:00\nany secret"), 0o600)
	s, ps := parse(t, saeBase+"sae_password=first\nsae_password_file="+file+"\nsae_password=last\n")
	if ps.Err() != nil || len(ps) != 0 {
		t.Fatalf("problems %v", ps)
	}
	var got []string
	for _, p := range s.Core.RSN.SAE.Passwords {
		got = append(got, string(p.Password)+"/"+string(p.Identifier)+"/"+fmt.Sprintf("%x", p.Peer[:]))
	}
	want := "first//000000000000 guest secret/guest/000000000000 station secret//020000000100 any secret//000000000000 last//000000000000"
	if strings.Join(got, " ") != want {
		t.Errorf("passwords\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	if !slices.Contains(Reloadable(), "sae_password_file") {
		t.Error("sae_password_file is not reloadable")
	}
}

// A bad line is refused naming the file, the line and the reason, never
// quoting the secret; a missing file names the file.
func TestSAEPasswordFileErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hostapd.sae_passwords")
	for _, c := range []struct{ text, want string }{
		{"ok secret\nhunter22|vlanid=3\n", file + ":2: |vlanid= is not supported"},
		{"# c\nhunter22|pk=abc\n", file + ":2: |pk= is not supported"},
		{"hunter22|mac=nonsense\n", file + ":1: |mac= wants a station address"},
		{"\n\n|id=hunter22\n", file + ":3: the password is empty"},
		{"hunter22" + strings.Repeat("x", 500) + "\n", file + ":1: longer than 499 characters"},
	} {
		os.WriteFile(file, []byte(c.text), 0o600)
		_, ps := parse(t, saeBase+"sae_password_file="+file+"\n")
		err := ps.Err()
		if err == nil || !strings.Contains(err.Error(), "sae_password_file: "+c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter22") {
			t.Errorf("%q: the error quotes the password: %v", c.text, err)
		}
	}
	_, ps := parse(t, saeBase+"sae_password_file="+file+".gone\n")
	if err := ps.Err(); err == nil || !strings.Contains(err.Error(), file+".gone") {
		t.Errorf("missing file: %v", err)
	}
}

// A file every user may read is warned about, as wpa_psk_file is, and so
// is one without a password (wpa_passphrase is then SAE's password).
func TestSAEPasswordFileWarnings(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hostapd.sae_passwords")
	os.WriteFile(file, []byte("hunter22\n"), 0o644)
	s, ps := parse(t, saeBase+"sae_password_file="+file+"\n")
	if ps.Err() != nil || len(ps) != 1 || !ps[0].Warning || ps[0].Key != "sae_password_file" ||
		!strings.Contains(ps[0].Msg, "every user may read it: chmod o-r "+file) || strings.Contains(ps[0].Msg, "hunter22") {
		t.Errorf("world-readable: %v", ps)
	}
	if len(s.Core.RSN.SAE.Passwords) != 1 {
		t.Error("the warned file's password is not used")
	}
	os.WriteFile(file, []byte("# none yet\n"), 0o600)
	_, ps = parse(t, saeBase+"wpa_passphrase=12345678\nsae_password_file="+file+"\n")
	if ps.Err() != nil || len(ps) != 1 || !ps[0].Warning || !strings.Contains(ps[0].Msg, "holds no password") {
		t.Errorf("empty file: %v", ps)
	}
	_, ps = parse(t, saeBase+"sae_password_file="+file+"\n")
	if err := ps.Err(); err == nil || !strings.Contains(err.Error(), "SAE needs sae_password") {
		t.Errorf("an empty file and no passphrase: %v", err)
	}
}
