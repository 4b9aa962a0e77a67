package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
)

// 20/40 MHz coexistence at run time (IEEE 802.11-2020 11.16.12, hostapd's
// ht40_intolerant_add/remove, hostapd_2040_coex_action and
// ap_ht2040_timeout): a 40 MHz radio on 2.4 GHz drops to 20 MHz, every BSS
// of it (the width is the radio's), while an associated HT station says 40
// MHz Intolerant, and when a 20/40 BSS Coexistence Management frame asks
// for it. airq is its own driver, so it can always change its width (the
// WPA_DRIVER_FLAGS_HT_2040_COEX hostapd asks of a driver). 40 MHz comes
// back overlapDelayFactor × obss_interval after the last intolerant
// station left (at once with obss_interval 0), as ap_ht2040_timeout; after
// a Management frame only with obss_interval set, as in hostapd.
//
// Unlike hostapd, whose timeout restores the configured secondary channel
// whatever the start-up check said, a radio the start-up check kept at 20
// MHz stays there: its neighbours forbade 40 MHz.

// overlapDelayFactor is hostapd's OVERLAPPING_BSS_TRANS_DELAY_FACTOR, the
// standard's dot11BSSWidthChannelTransitionDelayFactor default.
const overlapDelayFactor = 5

// coexRun is the radio's width at run time.
type coexRun struct {
	on         bool    // a 40 MHz radio on 2.4 GHz that may run at 40 MHz
	phy40      bss.PHY // what it runs at 40 MHz
	at20       bool
	intolerant int // the intolerant stations last counted
	restoreAt  time.Duration
	restoring  bool
}

// coexStart arms the switch once the radio's width is settled: after the
// start-up check, or at once without one.
func (a *AP) coexStart() {
	c := &a.cfg
	a.coex = coexRun{on: c.pair2G4(), phy40: c.PHY}
}

// followIntolerant follows the count of associated 40 MHz Intolerant
// stations: the first makes the radio 20 MHz and cancels a restore; the
// last leaving starts the restore timer.
func (a *AP) followIntolerant(now time.Duration) {
	k := &a.coex
	n := a.shared.HT.Intolerant40
	if !k.on || n == k.intolerant {
		return
	}
	was := k.intolerant
	k.intolerant = n
	switch {
	case n > was:
		k.restoring = false
		a.coexTo20(now, ieee80211.MAC{}, "40 MHz Intolerant station associated")
	case n == 0:
		a.coexRestoreAfter(now)
	}
}

// coexRestoreAfter (re)starts the timer that brings 40 MHz back.
func (a *AP) coexRestoreAfter(now time.Duration) {
	k := &a.coex
	k.restoring, k.restoreAt = true, now+time.Duration(overlapDelayFactor*a.cfg.PHY.OBSSInterval)*time.Second
	a.coexTick(now)
}

// coexTick brings 40 MHz back when the restore timer is due.
func (a *AP) coexTick(now time.Duration) {
	k := &a.coex
	if !k.restoring || now < k.restoreAt {
		return
	}
	k.restoring = false
	if !k.at20 {
		return
	}
	k.at20 = false
	a.setRadioPHY(k.phy40)
	a.cnt[counter.WidthChanges]++
	a.event(Event{At: now, Kind: EventWidth, Why: "40 MHz permitted again", Primary: a.cfg.Channel,
		Secondary: a.cfg.Channel + 4*k.phy40.Secondary})
}

// TunedConfig is the configuration the radio's channel is tuned by: the
// one in force, but for a width that coexistence holds at 20 MHz at run
// time, where the radio stays tuned to its 40 MHz pair (its primary hears
// and sends 20 MHz frames all the same) so that a trip home from a scan
// does not leave it tuned at 20 MHz once 40 MHz is back. A radio the
// start-up check kept at 20 MHz is tuned at 20 MHz.
func (a *AP) TunedConfig() Config {
	c := a.cfg
	if a.coex.on {
		c.PHY = a.coex.phy40
	}
	return c
}

// coexDeadline is when coexTick next has something to do.
func (a *AP) coexDeadline() (time.Duration, bool) {
	return a.coex.restoreAt, a.coex.restoring
}

// coexTo20 makes the radio 20 MHz, if it is not already.
func (a *AP) coexTo20(now time.Duration, from ieee80211.MAC, why string) {
	k := &a.coex
	if k.at20 {
		return
	}
	k.at20 = true
	a.setRadioPHY(held20(k.phy40))
	a.cnt[counter.WidthChanges]++
	a.event(Event{At: now, Kind: EventWidth, Addr: from, Why: why, Primary: a.cfg.Channel})
}

// setRadioPHY changes the radio's width: every BSS's HT elements, and
// every station's rate selection, built again at its next frame.
func (a *AP) setRadioPHY(p bss.PHY) {
	a.cfg.PHY = p
	for i, b := range a.bsses {
		b.PHY = bss.NewPHYElems(a.cfg.BSSPHY(i), a.cfg.Channel, a.cfg.Freq, b.Rates.IE)
	}
	for i := range a.sta.slots {
		if s := &a.sta.slots[i]; s.rc != nil || s.rcTried {
			s.rc, s.rcTried = nil, false
		}
	}
}

// handleCoexMgmt takes a 20/40 BSS Coexistence Management frame to BSS b
// from sender s (nil if unknown), as hostapd_2040_coex_action: the 20 MHz
// BSS Width Request counts from a station associated with b alone (from
// anyone else the whole frame is ignored, as there); the 40
// MHz Intolerant bit and an intolerant channel within the affected range
// other than our primary count from anyone, as the standard lets any
// station report them (so an unassociated sender can make the radio 20
// MHz, in hostapd too).
func (a *AP) handleCoexMgmt(now time.Duration, b *bss.BSS, s *station, fr ieee80211.Frame, body []byte) {
	m, err := ieee80211.ParseCoex2040Mgmt(body)
	if err != nil {
		a.cnt[counter.RxMalformed]++
		return
	}
	a.cnt[counter.CoexMgmtFrames]++
	k := &a.coex
	if !k.on {
		return // no 40 MHz to give up
	}
	allowed := true
	if m.Info()&ieee80211.Coex2040WidthRequest != 0 {
		if s == nil || s.bss != b || s.State != bss.StateAssociated {
			return // hostapd ignores the whole frame: an intra-BSS request from outside the BSS
		}
		allowed = false
	}
	if m.Info()&ieee80211.Coex2040Intolerant != 0 {
		allowed = false
	}
	m.IntolerantChannels(func(ch uint8) bool {
		if int(ch) != a.cfg.Channel && a.affects(int(ch)) {
			allowed = false
		}
		return allowed
	})
	if allowed {
		return
	}
	a.coexTo20(now, fr.Addr2(), "20/40 BSS Coexistence Management frame")
	if k.intolerant == 0 && a.cfg.PHY.OBSSInterval != 0 {
		a.coexRestoreAfter(now)
	}
}

// affects reports whether a BSS on 2.4 GHz channel ch lies in the 40 MHz
// affected range of the radio's pair (hostapd's is_40_allowed, which
// takes the secondary below while the radio runs at 20 MHz).
func (a *AP) affects(ch int) bool {
	pri := a.cfg.Freq
	sec := pri - 20
	if a.cfg.PHY.Secondary > 0 {
		sec = pri + 20
	}
	f := 2407 + 5*ch // hostapd's formula, channel 14 included
	c := (pri + sec) / 2
	return f >= c-25 && f <= c+25
}
