package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func mac(t *testing.T, s string) ieee80211.MAC {
	t.Helper()
	m, err := ieee80211.ParseMAC(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// hostapd's list format: comments, blank lines, removal lines; repeated
// keys add to the list.
func TestACLFiles(t *testing.T) {
	dir := t.TempDir()
	accept, deny, deny2 := filepath.Join(dir, "accept"), filepath.Join(dir, "deny"), filepath.Join(dir, "deny2")
	writeFile(t, accept, "# trusted\n02:00:00:00:10:01\n\n  02:00:00:00:10:02  \r\n02-00-00-00-10-03\n")
	writeFile(t, deny, "02:00:00:00:10:04\n02:00:00:00:10:05\n")
	writeFile(t, deny2, "# later file\n-02:00:00:00:10:04\n02:00:00:00:10:06\n")
	conf := writeConf(t, "macaddr_acl=1\naccept_mac_file="+accept+"\ndeny_mac_file="+deny+"\ndeny_mac_file="+deny2+"\n")
	s, err := load(t, conf, nil)
	if err != nil {
		t.Fatal(err)
	}
	acl := s.Core.ACL
	if acl.Mode != bss.ACLDenyUnlessAccepted || len(acl.Accept) != 3 || len(acl.Deny) != 2 {
		t.Fatalf("acl %+v", acl)
	}
	for s, want := range map[string]bool{"02:00:00:00:10:01": true, "02:00:00:00:10:03": true,
		"02:00:00:00:10:04": false, "02:00:00:00:10:05": false, "02:00:00:00:10:07": false} {
		if acl.Allows(mac(t, s)) != want {
			t.Errorf("%s: allowed %v", s, !want)
		}
	}
	if _, ok := acl.Deny[mac(t, "02:00:00:00:10:06")]; !ok {
		t.Error("the second deny_mac_file's address is missing")
	}
	// Without the keys everyone is admitted.
	s, err = load(t, writeConf(t, "ssid=x\n"), nil)
	if err != nil || s.Core.ACL.Mode != bss.ACLAcceptUnlessDenied || !s.Core.ACL.Allows(mac(t, "02:00:00:00:10:01")) {
		t.Errorf("default acl %+v, %v", s.Core.ACL, err)
	}
}

// A bad entry names the configuration line, the list file, its line and
// the entry.
func TestACLFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ list, want string }{
		{"02:00:00:00:10:01\nzz:00:00:00:10:01\n", `:2: "zz:00:00:00:10:01" is not a station's MAC address`},
		{"# c\n02:00:00:00:10:01 5\n", `:2: 02:00:00:00:10:01 5: a VLAN id after the address is not supported`},
		{"02:00:00:00:10:01\tvlan7\n", `:1: 02:00:00:00:10:01 vlan7: a VLAN id`},
		{"ff:ff:ff:ff:ff:ff\n", `:1: "ff:ff:ff:ff:ff:ff" is not a station's MAC address`},
		{"02:00:00:00:10:01:\n", `:1: "02:00:00:00:10:01:" is not`},
		{"-02:00:00:00:10:01 1\n", `:1: -02:00:00:00:10:01 1: unexpected text after the address`},
	} {
		list := filepath.Join(dir, "deny")
		writeFile(t, list, c.list)
		conf := writeConf(t, "ssid=x\ndeny_mac_file="+list+"\n")
		_, err := load(t, conf, nil)
		if err == nil || !strings.HasPrefix(err.Error(), conf+":2: deny_mac_file: "+list+c.want[:2]) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s:2: deny_mac_file: %s%s", c.list, err, conf, list, c.want)
		}
	}
	conf := writeConf(t, "deny_mac_file="+dir+"\n")
	if _, err := load(t, conf, nil); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}
