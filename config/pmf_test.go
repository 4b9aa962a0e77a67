package config

import (
	"strings"
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/rsn"
)

// The 802.11w keys land in the RSN section, and the core takes them.
func TestPMFKeys(t *testing.T) {
	s, err := load(t, writeConf(t, "ssid=x\nwpa=2\nwpa_passphrase=correct horse\nwpa_key_mgmt=WPA-PSK-SHA256\nieee80211w=2\n"+
		"group_mgmt_cipher=AES-128-CMAC\nassoc_sa_query_max_timeout=2000\nassoc_sa_query_retry_timeout=300\nbeacon_prot=0\nocv=0\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Core.RSN
	if r.MFP != rsn.MFPRequired || r.GroupMgmt != rsn.CipherBIPCMAC128 || r.SAQueryMaxTimeout != 2000 || r.SAQueryRetryTimeout != 300 {
		t.Errorf("RSN %+v", r)
	}
	if _, err := (ap.Config{SSID: "x", BSSID: [6]byte{2}, Channel: 1, RSN: r}).Resolve(); err != nil {
		t.Errorf("the core refuses the section: %v", err)
	}
	s, err = load(t, writeConf(t, "wpa=2\nwpa_passphrase=correct horse\nieee80211w=1\n"), nil)
	if err != nil || s.Core.RSN.MFP != rsn.MFPOptional || s.Core.RSN.SAQueryMaxTimeout != 0 {
		t.Errorf("ieee80211w=1: %+v, %v", s.Core.RSN, err)
	}
	// hostapd's default changes nothing on an open network.
	if s, err = load(t, writeConf(t, "ieee80211w=0\n"), nil); err != nil || s.Core.RSN != nil {
		t.Errorf("ieee80211w=0: %+v, %v", s.Core.RSN, err)
	}
}

// Bad values and keys without wpa=2 are refused naming the key.
func TestPMFErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"ieee80211w=2\n", `:1: ieee80211w: needs wpa=2`},
		{"wpa=2\nwpa_passphrase=12345678\nieee80211w=3\n", `:3: ieee80211w: "3": want 0 (off, the default), 1 (optional) or 2 (required)`},
		{"wpa=2\nwpa_passphrase=12345678\nieee80211w=1\ngroup_mgmt_cipher=BIP-GMAC-256\n", `:4: group_mgmt_cipher: BIP-GMAC-256 is not supported; want AES-128-CMAC`},
		{"wpa=2\nwpa_passphrase=12345678\nieee80211w=1\ngroup_mgmt_cipher=BIP-CMAC-256\n", `:4: group_mgmt_cipher: BIP-CMAC-256 is not supported`},
		{"wpa=2\nwpa_passphrase=12345678\nieee80211w=1\ngroup_mgmt_cipher=BIP-GMAC-128\n", `:4: group_mgmt_cipher: BIP-GMAC-128 is not supported`},
		{"wpa=2\nwpa_passphrase=12345678\nieee80211w=1\ngroup_mgmt_cipher=CCMP\n", `:4: group_mgmt_cipher: "CCMP": want AES-128-CMAC`},
		{"wpa=2\nwpa_passphrase=12345678\nieee80211w=1\nassoc_sa_query_max_timeout=0\n", `:4: assoc_sa_query_max_timeout: "0": want 1 to 4294967295 TUs`},
		{"wpa=2\nwpa_passphrase=12345678\nieee80211w=1\nassoc_sa_query_retry_timeout=x\n", `:4: assoc_sa_query_retry_timeout: "x": want 1 to 4294967295 TUs`},
		{"assoc_sa_query_max_timeout=1000\n", `:1: assoc_sa_query_max_timeout: needs wpa=2`},
		{"wpa=2\nwpa_passphrase=12345678\nieee80211w=1\nocv=1\n", `:4: ocv: "1" (only 0 is accepted)`},
	} {
		path := writeConf(t, c.text)
		_, err := load(t, path, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), path+":") {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// With ieee80211w=0 the other keys are taken with a warning that they
// change nothing.
func TestPMFKeysWithoutMFPWarn(t *testing.T) {
	_, ps := parse(t, "wpa=2\nwpa_passphrase=12345678\nassoc_sa_query_max_timeout=500\n")
	if len(ps) != 1 || !ps[0].Warning || !strings.Contains(ps[0].String(), "changes nothing without ieee80211w=1 or 2") {
		t.Errorf("problems %v", ps)
	}
}
