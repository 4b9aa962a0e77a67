package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/txq/policy"
)

// hostapd's airtime policy (src/ap/airtime_policy.c) shares a radio's
// airtime among its BSSes by rescaling their stations' weights, all of
// its modes work-conserving: airtime_mode and airtime_update_interval are
// the radio's, airtime_bss_weight, airtime_bss_limit and
// airtime_sta_weight each BSS's. airq adds airtime_bss_cap, a BSS's hard
// share that holds even when the air is free, which only the owner of the
// scheduler can give.

// AirtimeMode is hostapd's airtime_mode.
type AirtimeMode int

// The modes, hostapd's values.
const (
	// AirtimeOff weighs each station by airtime_weight (or airqctl's
	// per-station weight): no policy among BSSes.
	AirtimeOff AirtimeMode = iota
	// AirtimeStatic weighs each station by its airtime_sta_weight, else
	// by its BSS's airtime_bss_weight.
	AirtimeStatic
	// AirtimeDynamic rescales the backlogged stations' weights every
	// update interval so that each BSS's share follows its weight,
	// whatever its station count.
	AirtimeDynamic
	// AirtimeLimit is AirtimeDynamic, applied only while a BSS with
	// airtime_bss_limit=1 would take more than its share.
	AirtimeLimit
)

// DefaultAirtimeUpdate is hostapd's AIRTIME_DEFAULT_UPDATE_INTERVAL.
const DefaultAirtimeUpdate = 200 * time.Millisecond

// Airtime is the radio's airtime policy.
type Airtime struct {
	Mode AirtimeMode
	// UpdateInterval is how often AirtimeDynamic and AirtimeLimit
	// rescale the weights; 0: DefaultAirtimeUpdate.
	UpdateInterval time.Duration
}

// Interval is the update interval in effect.
func (a Airtime) Interval() time.Duration {
	if a.UpdateInterval == 0 {
		return DefaultAirtimeUpdate
	}
	return a.UpdateInterval
}

// BSSAirtime is one BSS's airtime keys.
type BSSAirtime struct {
	// Weight is airtime_bss_weight: the BSS's weight among BSSes in
	// AirtimeDynamic and AirtimeLimit (only the ratios count), its
	// stations' weight in AirtimeStatic; 0, hostapd's default, leaves
	// the BSS out of the policy.
	Weight uint16
	// Limit is airtime_bss_limit: AirtimeLimit holds this BSS to its share.
	Limit bool
	// StaWeights are airtime_sta_weight's stations, each once (a later
	// line for the same address wins, as in hostapd): AirtimeStatic's
	// weights.
	StaWeights []StaWeight
	// CapPercent is airtime_bss_cap: the most of the radio's airtime the
	// BSS may use, busy air or not; 0 (unset) and 100 are no cap.
	CapPercent int
}

// Capped reports whether the BSS has a hard cap.
func (b BSSAirtime) Capped() bool { return b.CapPercent > 0 && b.CapPercent < 100 }

// StaWeight is one airtime_sta_weight line.
type StaWeight struct {
	Addr   ieee80211.MAC
	Weight uint16
}

var airtimeKeys = map[string]Key{
	"airtime_mode": {Reload: true, Want: "0 (off: stations weigh airtime_weight), 1 (static: airtime_sta_weight, else airtime_bss_weight), 2 (dynamic: each BSS's share follows airtime_bss_weight) or 3 (limit: as 2, only for a BSS with airtime_bss_limit=1 above its share)",
		set: func(s *Settings, v string) error {
			var n int
			err := setInt(&n, v, 0, 3)
			s.Airtime.Mode = AirtimeMode(n)
			return err
		}},
	"airtime_update_interval": {Reload: true, Want: "1 to 3600000 ms between the weight updates of airtime_mode 2 and 3 (default 200)",
		set: func(s *Settings, v string) error {
			var n int
			err := setInt(&n, v, 0, 3600000) // 0: refused with mode 2 or 3, as hostapd does (checkAirtime)
			s.Airtime.UpdateInterval = time.Duration(n) * time.Millisecond
			return err
		}},
	"airtime_bss_weight": {Reload: true, Want: "0 (the default: the BSS takes no part in the policy) to 65535; only the ratios between BSSes count",
		set: func(s *Settings, v string) error {
			var n uint
			err := setUint(&n, v, 0, 65535)
			s.BSSAirtime.Weight = uint16(n)
			return err
		}},
	"airtime_bss_limit": {Reload: true, Want: "0 or 1 (1: airtime_mode 3 holds this BSS to its share)",
		set: func(s *Settings, v string) error { return setBool(&s.BSSAirtime.Limit, v) }},
	"airtime_sta_weight": {Reload: true, Want: "a station's MAC address and its weight, 1 to 65535, separated by a blank, such as 02:01:02:03:04:05 512 (lines add stations)",
		set: setStaWeight},
	"airtime_bss_cap": {Reload: true, Want: "1 to 100, the most percent of the radio's airtime this BSS may use even when the air is free (100, the default, is no cap)",
		set: func(s *Settings, v string) error {
			return setInt(&s.BSSAirtime.CapPercent, strings.TrimSuffix(trimBlanks(v), "%"), 1, 100)
		}},
}

// setStaWeight reads "MAC WEIGHT" as hostapd's add_airtime_weight does:
// the address, one blank, a weight that is not 0.
func setStaWeight(s *Settings, v string) error {
	addr, weight, ok := strings.Cut(v, " ")
	mac, err := ieee80211.ParseMAC(addr)
	if !ok || err != nil || mac.IsMulticast() || mac.IsZero() {
		return errWant
	}
	n, err := strconv.ParseUint(trimBlanks(weight), 10, 16)
	if err != nil || n == 0 {
		return errWant
	}
	w := &s.BSSAirtime.StaWeights
	for i := range *w {
		if (*w)[i].Addr == mac {
			(*w)[i].Weight = uint16(n)
			return nil
		}
	}
	*w = append(*w, StaWeight{mac, uint16(n)})
	return nil
}

// checkAirtime refuses a zero update interval where hostapd does, and
// warns of the airtime keys the mode leaves unused.
func (f *File) checkAirtime(s *Settings, last map[string]line, _ map[string]bool) Problems {
	var ps Problems
	warn := func(key, msg string) {
		p := f.problem(last[key], msg)
		p.Warning = true
		ps = append(ps, *p)
	}
	has := func(key string) bool { _, ok := last[key]; return ok }
	mode := s.Airtime.Mode
	if has("airtime_update_interval") {
		switch {
		case mode >= AirtimeDynamic && s.Airtime.UpdateInterval == 0: // hostapd's words
			ps = append(ps, *f.problem(last["airtime_update_interval"], "Airtime update interval cannot be zero (with airtime_mode 2 and 3): want 1 to 3600000 ms"))
		case mode < AirtimeDynamic:
			warn("airtime_update_interval", fmt.Sprintf("changes nothing here: airtime_mode is %d; only 2 and 3 update weights", mode))
		}
	}
	if has("airtime_bss_weight") && mode == AirtimeOff {
		warn("airtime_bss_weight", "changes nothing here: airtime_mode is 0 (off), as in hostapd")
	}
	if has("airtime_bss_limit") && s.BSSAirtime.Limit && mode != AirtimeLimit {
		warn("airtime_bss_limit", fmt.Sprintf("changes nothing here: airtime_mode is %d; only 3 (limit) limits a BSS, as in hostapd", mode))
	}
	if has("airtime_sta_weight") && mode != AirtimeStatic {
		warn("airtime_sta_weight", fmt.Sprintf("changes nothing here: airtime_mode is %d; only 1 (static) weighs the stations listed, as in hostapd", mode))
	}
	return ps
}

// CoreAirtime is the airtime policy as the core takes it: the radio's
// mode and interval, and each BSS's keys in the file's order.
func (s *Settings) CoreAirtime() ap.Airtime {
	c := ap.Airtime{Mode: policy.Mode(s.Airtime.Mode), Interval: s.Airtime.UpdateInterval}
	c.BSS = append(c.BSS, s.BSSAirtime.core())
	for _, b := range s.BSSes {
		c.BSS = append(c.BSS, b.Settings.BSSAirtime.core())
	}
	return c
}

func (b BSSAirtime) core() ap.BSSAirtime {
	c := ap.BSSAirtime{Weight: b.Weight, Limit: b.Limit, CapPercent: b.CapPercent}
	if len(b.StaWeights) > 0 {
		c.StaWeights = make(map[ieee80211.MAC]uint16, len(b.StaWeights))
		for _, w := range b.StaWeights {
			c.StaWeights[w.Addr] = w.Weight
		}
	}
	return c
}
