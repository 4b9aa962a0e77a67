package config

import "fmt"

// NotServed refuses what a file may configure and airqd does not serve
// yet: a bss= section's key whose value the core applies to every BSS of
// the radio (radioWide) when the section's differs from the first BSS's,
// at the section's line of the key (else its bss= line, the value being
// hostapd's default for a section). The file is read and checked as a
// whole first, so that nothing is accepted silently. f may be nil (no
// file).
func (f *File) NotServed(s *Settings) Problems {
	if f == nil {
		return nil
	}
	var ps Problems
	for i, b := range s.BSSes {
		sec := f.bsses[i]
		for _, k := range radioWide {
			first, own := k.value(s), k.value(b.Settings)
			if first == own {
				continue
			}
			l := sec.lineOf(k.keys)
			ps = append(ps, *sec.problem(l, fmt.Sprintf("%v here, %v in the first BSS: airqd applies the first BSS's %s to every BSS of the radio, not a value per BSS yet; give the same value in both (a section that does not set it has hostapd's default)", own, first, k.keys[0])))
		}
	}
	return f.label(ps)
}

// lineOf is the section's last line setting one of keys, else its bss=
// line under the first key's name.
func (f *File) lineOf(keys []string) line {
	l := line{key: keys[0], n: f.at}
	for _, k := range keys {
		if n := f.Line(k); n > l.n {
			l = line{key: k, n: n}
		}
	}
	return l
}

// radioWide are the BSS keys (IsBSSKey) the core applies radio-wide, from
// the first BSS's configuration: a bss= section may set them only to the
// first BSS's value. Each value is the one in force, the core's default
// standing for a zero.
var radioWide = []struct {
	keys  []string // the key, then its aliases
	value func(s *Settings) any
}{
	{[]string{"wmm_enabled", "wme_enabled"}, func(s *Settings) any { return s.Core.WMM }},
	{[]string{"multicast_to_unicast"}, func(s *Settings) any { return s.Core.MulticastToUnicast }},
	{[]string{"disable_11n"}, func(s *Settings) any { return ht(s.PHY.HT) }},
	{[]string{"disable_11ac"}, func(s *Settings) any { return vht(s.PHY.VHT) }},
}

// ht and vht name a BSS's PHY in problems.
type (
	ht  bool
	vht bool
)

func (h ht) String() string {
	if h {
		return "HT on"
	}
	return "HT off"
}

func (v vht) String() string {
	if v {
		return "VHT on"
	}
	return "VHT off"
}
