package config

import (
	"fmt"

	"github.com/airq/airq/rsn"
)

// Management frame protection (802.11w), hostapd's keys and meanings:
// ieee80211w=1 offers it, 2 requires it, both only with wpa=2;
// group_mgmt_cipher is AES-128-CMAC (BIP-CMAC-128), the others refused by
// name; the association SA Query timeouts in TUs, 1 and up as hostapd
// parses them. hostapd takes any AKM with ieee80211w (its tests pair
// WPA-PSK-SHA256 with 2 and WPA-PSK with 1), and so does airq. Beacon
// protection and OCV stay off (hostapd.go).
var pmfKeys = map[string]Key{
	"ieee80211w": {Want: "0 (off, the default), 1 (optional) or 2 (required); needs wpa=2", set: setMFP},
	"group_mgmt_cipher": {Want: "AES-128-CMAC (the default; BIP-GMAC-128, BIP-GMAC-256 and BIP-CMAC-256 are not supported)",
		set: setGroupMgmt},
	"assoc_sa_query_max_timeout": {Want: "1 to 4294967295 TUs (default 1000)",
		set: func(s *Settings, v string) error { return setTUs(&rsnOf(s).SAQueryMaxTimeout, v) }},
	"assoc_sa_query_retry_timeout": {Want: "1 to 4294967295 TUs (default 201)",
		set: func(s *Settings, v string) error { return setTUs(&rsnOf(s).SAQueryRetryTimeout, v) }},
}

func setMFP(s *Settings, v string) error {
	var n int
	if err := setInt(&n, v, 0, 2); err != nil {
		return err
	}
	if n != 0 || s.Core.RSN != nil {
		rsnOf(s).MFP = rsn.MFP(n)
	}
	return nil
}

func setGroupMgmt(s *Settings, v string) error {
	c, ok := rsn.ParseCipher(trimBlanks(v))
	switch {
	case ok && c == rsn.CipherBIPCMAC128:
		rsnOf(s).GroupMgmt = c
		return nil
	case ok && (c == rsn.CipherBIPGMAC128 || c == rsn.CipherBIPGMAC256 || c == rsn.CipherBIPCMAC256):
		return saysWhy{fmt.Errorf("%s is not supported; want AES-128-CMAC", trimBlanks(v))}
	}
	return errWant
}

func setTUs(p *uint32, v string) error {
	var n uint
	if err := setUint(&n, v, 1, 1<<32-1); err != nil {
		return err
	}
	*p = uint32(n)
	return nil
}

// checkPMF runs within checkWPA's: without wpa=2 only ieee80211w=0 is
// taken (hostapd's default, which changes nothing), and with
// ieee80211w=0 the SA Query timeouts change nothing, which is said.
func (f *File) checkPMF(wpa2 bool, last map[string]line) Problems {
	var ps Problems
	l, set := last["ieee80211w"]
	on := set && trimBlanks(l.value) != "0"
	for _, k := range []string{"ieee80211w", "group_mgmt_cipher", "assoc_sa_query_max_timeout", "assoc_sa_query_retry_timeout"} {
		kl, ok := last[k]
		switch {
		case !ok || k == "ieee80211w" && !on:
		case !wpa2:
			ps = append(ps, *f.problem(kl, "needs wpa=2: management frame protection is part of the RSN"))
		case !on && !f.bad["ieee80211w"] && k != "group_mgmt_cipher": // AES-128-CMAC is all there is
			p := f.problem(kl, "changes nothing without ieee80211w=1 or 2")
			p.Warning = true
			ps = append(ps, *p)
		}
	}
	return ps
}
