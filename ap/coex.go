package ap

import (
	"fmt"
	"slices"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/scan"
)

// CoexConfig turns on the 20/40 MHz coexistence check of a 40 MHz BSS on
// 2.4 GHz (IEEE 802.11-2020 11.16.3.2; hostapd's ieee80211n_check_40mhz,
// which hostapd runs unless its secondary channel is off): before it
// beacons, the radio listens on each channel within 40 MHz of the pair's
// centre, then scan.Check40MHz2G4 decides over the BSSes heard; when 40
// MHz is not permitted the radio runs at 20 MHz on its primary (HT
// Operation: no secondary channel) and the core reports EventNo40MHz.
// With automatic channel selection the check applies to the chosen pair,
// as hostapd's after ACS: over the BSSes the selection heard, and those
// heard on the pair's other channels within 40 MHz that the selection did
// not visit, listened to once it has chosen. It is ignored on 5 GHz and
// at 20 MHz.
type CoexConfig struct {
	// Channels are the band's channels: disabled ones are never visited.
	// Every visit is passive, as hostapd's scan, which names no SSID.
	Channels []scan.Channel
	// Dwell is the listening time per channel; default
	// scan.DefaultPassiveMax (110 ms, mac80211's passive dwell, longer
	// than a beacon interval of 100 TU).
	Dwell time.Duration
}

// coexCheck is the start-up scan's 20/40 MHz check.
type coexCheck struct {
	pri, sec int // MHz
	result   scan.Coex40
	done     bool
	// afterACS: the check of the pair automatic selection chose.
	afterACS bool
	// forbid is the first BSS heard while listening that forbids 40 MHz
	// (forbidden set): the verdict stays even if a flood of forged BSSes
	// pushes that BSS out of the table before the check is made.
	forbid    scan.Coex40
	forbidden bool
}

// heard takes the table's entry of a BSS just heard: the first that
// forbids 40 MHz is kept.
func (k *coexCheck) heard(b scan.BSS) {
	if k.forbidden {
		return
	}
	one := [1]scan.BSS{b}
	if r := scan.Check40MHz2G4(k.pri, k.sec, one[:]); !r.Permitted {
		k.forbid, k.forbidden = r, true
	}
}

// coexPending reports whether c, resolved, asks for the 20/40 MHz check;
// never before automatic selection has chosen the channel.
func (c Config) coexPending() bool {
	return c.Coex != nil && c.Freq != 0 && c.pair2G4()
}

// pair2G4 reports whether c runs a 40 MHz pair on 2.4 GHz: what 20/40
// MHz coexistence applies to, at start and at run time.
func (c Config) pair2G4() bool {
	return c.Freq < 3000 && c.PHY.HT && c.PHY.Width == 40 && c.PHY.Secondary != 0
}

// held20 is p at 20 MHz on its primary, held there by coexistence.
func held20(p bss.PHY) bss.PHY {
	p.Width, p.Secondary, p.Held20 = 20, 0, true
	return p
}

// newCoexScan prepares the start-up listening of a resolved configuration
// for which coexPending holds. It reuses the start-up selection's stages
// (acs.go) with the channels of the affected range as its visits.
func newCoexScan(c Config) (*acsState, error) {
	dwell, err := c.coexDwell()
	if err != nil {
		return nil, err
	}
	pri, sec := c.coexPair()
	freqs := scan.CoexScanFreqs(nil, c.Coex.Channels, pri, sec)
	if len(freqs) == 0 {
		// No channel to listen on: nothing heard, nothing against 40 MHz,
		// but the operating channel is listened to all the same.
		freqs = []int{pri}
	}
	s := &acsState{table: scan.NewTable(scan.TableConfig{Freqs: freqs}), coex: &coexCheck{pri: pri, sec: sec}}
	s.visits = coexVisits(nil, freqs, dwell)
	return s, nil
}

// coexDwell is the check's listening time per channel.
func (c Config) coexDwell() (time.Duration, error) {
	dwell := c.Coex.Dwell
	if dwell == 0 {
		dwell = scan.DefaultPassiveMax
	}
	if dwell < acsMinDwell || dwell > time.Second {
		return 0, fmt.Errorf("coex dwell: %v, want %v to 1s", dwell, acsMinDwell)
	}
	return dwell, nil
}

// coexPair is the primary and secondary channel (MHz) the check is for.
func (c Config) coexPair() (pri, sec int) {
	return c.Freq, c.Freq + 20*c.PHY.Secondary
}

func coexVisits(dst []scan.Visit, freqs []int, dwell time.Duration) []scan.Visit {
	for _, f := range freqs {
		dst = append(dst, scan.Visit{Freq: f, Dwell: dwell})
	}
	return dst
}

// coexAfterACS starts the check of the pair the selection chose, whose
// configuration the core has adopted: the channels the selection did not
// visit are listened to first; when it visited them all, the check is
// made at once over what it heard.
func (a *AP) coexAfterACS(now time.Duration) {
	s := a.acs
	pri, sec := a.cfg.coexPair()
	s.coex = &coexCheck{pri: pri, sec: sec, afterACS: true}
	var missing []int
	for _, f := range scan.CoexScanFreqs(nil, a.cfg.Coex.Channels, pri, sec) {
		if !slices.ContainsFunc(s.visits, func(v scan.Visit) bool { return v.Freq == f }) {
			missing = append(missing, f)
		}
	}
	if len(missing) == 0 {
		a.coexDecide(now)
		return
	}
	dwell, _ := a.cfg.coexDwell() // validated by New
	s.visits, s.visit = coexVisits(s.visits[:0], missing, dwell), 0
	// The listening is passive and keeps the chosen channel's rates.
	s.rates24, s.rates5 = a.bss.Rates, a.bss.Rates
	a.acsTune(now, missing[0], acsTuning)
}

// coexDecide applies the check to what was heard and asks for the retune
// home, at 20 MHz when 40 MHz is not permitted.
func (a *AP) coexDecide(now time.Duration) {
	s := a.acs
	k := s.coex
	k.result, k.done = scan.Check40MHz2G4(k.pri, k.sec, s.table.All(nil, now)), true
	if k.result.Permitted && k.forbidden {
		k.result = k.forbid
	}
	s.took = now - s.began
	if !k.result.Permitted {
		a.setRadioPHY(held20(a.cfg.PHY))
		a.event(Event{At: now, Kind: EventNo40MHz, Addr: k.result.BSSID, Why: k.result.Reason,
			Primary: ieee80211.FreqToChannel(k.pri), Secondary: ieee80211.FreqToChannel(k.sec), Freq: k.result.Freq})
	}
	a.acsTune(now, a.cfg.Freq, acsHoming)
}

// Coex40 returns the outcome of the 20/40 MHz check once it was made;
// false if there was none (see CoexConfig) or it has not ended yet.
func (a *AP) Coex40() (scan.Coex40, bool) {
	if a.acs == nil || a.acs.coex == nil || !a.acs.coex.done {
		return scan.Coex40{}, false
	}
	return a.acs.coex.result, true
}
