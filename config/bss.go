package config

import (
	"fmt"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/bssid"
	"github.com/airq/airq/internal/ieee80211"
)

// BSS is one bss= section: another network on the radio.
type BSS struct {
	// Name is the bss= name: its TAP's (unless the section's tap= says
	// otherwise) and its hostapd control socket's.
	Name string
	Line int // the bss= line
	// BSSID is the section's bssid=; zero: derived from the radio's
	// address (bssid.Derive).
	BSSID ieee80211.MAC
	// Settings are the section's BSS keys (IsBSSKey) over hostapd's
	// defaults for a BSS, beside the radio's settings, which are the
	// first section's (and the flags').
	Settings *Settings
}

// FirstBSSName is the first BSS's name, as hostapd names it: its
// interface (interface=), else the monitor interface airqd creates.
func (s *Settings) FirstBSSName() string {
	if s.Interface != "" {
		return s.Interface
	}
	return s.Ifname
}

// AllBSSes lists the radio's BSSes in order: the first (Line 0, its
// settings s itself) and the bss= sections'.
func (s *Settings) AllBSSes() []BSS {
	first := BSS{Name: s.FirstBSSName(), BSSID: parseBSSID(s.BSSID), Settings: s}
	return append([]BSS{first}, s.BSSes...)
}

// CoreBSSes are the bss= sections as the core takes them
// (ap.Config.BSSes), in the file's order, each with its own values of
// the keys the core serves per BSS; a zero BSSID is derived from the radio's address at bring-up. Each names
// the interface that holds its BSSID (its ACK holder, named after the
// monitor) and its TAP, for airqctl dev; the simulated radio has
// neither.
func (s *Settings) CoreBSSes() []ap.BSSConfig {
	var out []ap.BSSConfig
	for i, b := range s.BSSes {
		c := b.Settings.Core
		x := ap.BSSConfig{
			Name: b.Name, BSSID: b.BSSID, SSID: c.SSID, HideSSID: c.HideSSID, DTIMPeriod: c.DTIMPeriod,
			MaxStations: c.MaxStations, ACL: c.ACL, APIsolate: c.APIsolate, RSN: c.RSN,
			NoWMM: !c.WMM, NoHT: c.NoHT, NoVHT: c.NoVHT, MulticastToUnicast: c.MulticastToUnicast,
		}
		x.InactivityTimeout, x.AuthTimeout, x.AssocResponseTimeout = c.InactivityTimeout, c.AuthTimeout, c.AssocResponseTimeout
		x.UTF8SSID, x.BSSLoadPeriod, x.ChanUtilAvgPeriod = c.Advert.UTF8SSID, c.Advert.BSSLoadPeriod, c.Advert.ChanUtilAvgPeriod
		if s.Radio != "sim" {
			x.Holder, x.TAP = bssid.HolderName(s.Ifname, i+2), b.Settings.Tap
		}
		out = append(out, x)
	}
	return out
}

// Section returns the File of the bss= section named name, whose Values
// and Line are that section's (for telling which BSS a reload changes).
func (f *File) Section(name string) (*File, bool) {
	for _, b := range f.bsses {
		if b.name == name {
			return b, true
		}
	}
	return nil, false
}

// parseBSSID reads a bssid= that its setter checked; zero for none.
func parseBSSID(v string) ieee80211.MAC {
	mac, _ := ieee80211.ParseMAC(v)
	return mac
}

// checkBSSes checks the bss= sections together with the first: each has
// its own SSID, no two name the same interface, and no two the same
// BSSID; with the first BSS's address known, the derived BSSIDs follow
// hostapd's mask rule.
func (f *File) checkBSSes(s *Settings) Problems {
	var ps Problems
	names := map[string]string{}
	taken := func(name, what string) {
		if name != "" && names[name] == "" {
			names[name] = what
		}
	}
	taken(s.Interface, "the first BSS's interface (interface=)")
	taken(s.Ifname, "the monitor interface airqd creates (-ifname)")
	taken(s.Tap, "the first BSS's TAP (tap=, -tap)")
	given, owners := []ieee80211.MAC{parseBSSID(s.BSSID)}, []string{"the first BSS"}
	for i, b := range s.BSSes {
		sec := f.bsses[i]
		at := line{key: "bss", value: b.Name, n: b.Line}
		if sec.Line("ssid") == 0 && sec.Line("ssid2") == 0 && !sec.bad["ssid"] && !sec.bad["ssid2"] {
			ps = append(ps, *sec.problem(at, "the BSS has no ssid: each bss= section needs its own (sections take nothing from the first)"))
		}
		for _, n := range uniq(b.Name, b.Settings.Tap) {
			if what, dup := names[n]; dup && n != "" {
				ps = append(ps, *sec.problem(at, fmt.Sprintf("%q is already %s", n, what)))
			}
		}
		taken(b.Name, fmt.Sprintf("the name of bss %s (line %d)", b.Name, b.Line))
		taken(b.Settings.Tap, fmt.Sprintf("the TAP of bss %s (line %d)", b.Name, b.Line))
		ps = append(ps, sec.checkBSSID(b, given, owners)...)
		given = append(given, b.BSSID)
		owners = append(owners, fmt.Sprintf("bss %s (line %d)", b.Name, b.Line))
	}
	ps = append(ps, f.checkBSSWeights(s)...)
	if own := given[0]; !own.IsZero() && len(given) > 1 {
		if err := bssid.ValidateConfig(own, given); err != nil {
			b := s.BSSes[0]
			ps = append(ps, *f.bsses[0].problem(line{key: "bssid", n: b.Line}, err.Error()))
		}
	}
	return ps
}

// checkBSSID refuses a section's bssid= that an earlier BSS has; owners
// name the earlier BSSes.
func (f *File) checkBSSID(b BSS, earlier []ieee80211.MAC, owners []string) Problems {
	if b.BSSID.IsZero() {
		return nil
	}
	for i, e := range earlier {
		if e != b.BSSID {
			continue
		}
		l := line{key: "bssid", value: b.Settings.BSSID, n: f.Line("bssid")}
		if i == 0 { // hostapd's words
			return Problems{*f.problem(l, fmt.Sprintf("%s: a BSS may not have BSSID set to the MAC address of the radio (the first BSS's)", b.BSSID))}
		}
		return Problems{*f.problem(l, fmt.Sprintf("%s is already the BSSID of %s", b.BSSID, owners[i]))}
	}
	return nil
}

// checkBSSWeights warns of a BSS without airtime_bss_weight under
// airtime_mode 2 or 3, which leave it out as hostapd does (hostapd.conf:
// "Must be set for all BSSes if airtime_mode=2 or 3").
func (f *File) checkBSSWeights(s *Settings) Problems {
	n := f.Line("airtime_mode")
	if n == 0 || s.Airtime.Mode < AirtimeDynamic {
		return nil
	}
	const msg = "no airtime_bss_weight with airtime_mode %d: the BSS's stations take no part in the policy, as in hostapd; set one for every BSS"
	var ps Problems
	warn := func(sec *File, l line) {
		p := sec.problem(l, fmt.Sprintf(msg, s.Airtime.Mode))
		p.Warning = true
		ps = append(ps, *p)
	}
	if s.BSSAirtime.Weight == 0 {
		warn(f, line{key: "airtime_mode", n: n})
	}
	for i, b := range s.BSSes {
		if b.Settings.BSSAirtime.Weight == 0 {
			warn(f.bsses[i], line{key: "bss", n: b.Line})
		}
	}
	return ps
}
