package config

import (
	"fmt"
	"strings"

	"github.com/airq/airq/internal/ieee80211"
)

// wmm_ac_{be,bk,vi,vo}_{aifs,cwmin,cwmax,txop_limit,acm} are the EDCA
// parameters stations get in the WMM Parameter element (beacons, probe and
// association responses): how long each access category waits and how
// long it may hold the medium. They do not change how airq's own frames
// contend (that is tx_queue_data*, which a monitor interface cannot set).
// hostapd also reads them under their older wme_ac_ prefix.

var wmmACs = []struct {
	name string
	ac   ieee80211.AC
}{{"be", ieee80211.ACBE}, {"bk", ieee80211.ACBK}, {"vi", ieee80211.ACVI}, {"vo", ieee80211.ACVO}}

// wmmKeys are the 40 keys, both prefixes.
func wmmKeys() map[string]Key {
	m := map[string]Key{}
	for _, prefix := range []string{"wmm_ac_", "wme_ac_"} {
		for _, a := range wmmACs {
			for _, field := range []string{"aifs", "cwmin", "cwmax", "txop_limit", "acm"} {
				m[prefix+a.name+"_"+field] = wmmKey(a.ac, field)
			}
		}
	}
	return m
}

func wmmKey(ac ieee80211.AC, field string) Key {
	var k Key
	set := func(s *Settings, v string, lo, hi int, to func(*ieee80211.EDCA, int)) error {
		var n int
		if err := setInt(&n, v, lo, hi); err != nil {
			return err
		}
		p := wmmParams(s)
		to(&p[ac], n)
		return nil
	}
	switch field {
	case "aifs":
		k.Want = "2 to 15 slots (the element carries 4 bits; 802.11 gives stations at least 2)"
		k.set = func(s *Settings, v string) error {
			return set(s, v, 2, 15, func(e *ieee80211.EDCA, n int) { e.AIFSN = uint8(n) })
		}
	case "cwmin":
		k.Want = "0 to 15, the exponent: CWmin = 2^n - 1"
		k.set = func(s *Settings, v string) error {
			return set(s, v, 0, 15, func(e *ieee80211.EDCA, n int) { e.ECWMin = uint8(n) })
		}
	case "cwmax":
		k.Want = "0 to 15, the exponent: CWmax = 2^n - 1, at least cwmin"
		k.set = func(s *Settings, v string) error {
			return set(s, v, 0, 15, func(e *ieee80211.EDCA, n int) { e.ECWMax = uint8(n) })
		}
	case "txop_limit":
		k.Want = "0 to 65535, in units of 32 µs (0: one frame per access)"
		k.set = func(s *Settings, v string) error {
			return set(s, v, 0, 65535, func(e *ieee80211.EDCA, n int) { e.TXOP = uint16(n) })
		}
	case "acm":
		k.Want = "0 (admission control is not supported)"
		k.set = func(s *Settings, v string) error {
			if trimBlanks(v) == "1" {
				return saysWhy{fmt.Errorf("1: not supported: admission control needs ADDTS requests, which airq does not answer yet; want 0")}
			}
			return set(s, v, 0, 0, func(e *ieee80211.EDCA, _ int) { e.ACM = false })
		}
	}
	return k
}

// wmmParams returns the parameters being set, hostapd's defaults until a
// key changes one.
func wmmParams(s *Settings) *[ieee80211.NumACs]ieee80211.EDCA {
	if s.Core.WMMParams == ([ieee80211.NumACs]ieee80211.EDCA{}) {
		s.Core.WMMParams = ieee80211.DefaultEDCA()
	}
	return &s.Core.WMMParams
}

// checkWMM checks that each AC's cwmin is at most its cwmax, naming the
// later of the two lines.
func (f *File) checkWMM(s *Settings, last map[string]line) Problems {
	var ps Problems
	for _, a := range wmmACs {
		p := s.Core.WMMParams[a.ac]
		if p.ECWMin <= p.ECWMax {
			continue
		}
		var at line
		for _, k := range []string{"cwmin", "cwmax"} {
			for _, prefix := range []string{"wmm_ac_", "wme_ac_"} {
				if l, ok := last[prefix+a.name+"_"+k]; ok && l.n > at.n {
					at = l
				}
			}
		}
		if at.n == 0 {
			continue // set elsewhere; the core refuses it
		}
		ps = append(ps, *f.problem(at, fmt.Sprintf("%s's cwmin %d is above its cwmax %d", strings.ToUpper(a.name), p.ECWMin, p.ECWMax)))
	}
	return ps
}
