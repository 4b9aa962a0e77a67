package ap

import (
	"errors"
	"fmt"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
)

// MaxBSSes is how many networks one radio carries, as hostapd's usual
// limit and mt76x02's address slots.
const MaxBSSes = 8

// BSSConfig is a network the radio carries beside the first one (whose
// keys are Config's own): its address and how it announces itself. The
// radio's keys (channel, rates, beacon interval, scheduler) are Config's.
type BSSConfig struct {
	// Name is the BSS's name: its bss= section's, its TAP's and its
	// control socket's.
	Name        string
	BSSID       ieee80211.MAC
	SSID        string
	HideSSID    bool
	DTIMPeriod  int // beacons per DTIM; default 2
	MaxStations int // 1..2007; default 2007
	ACL         bss.ACL
	// APIsolate keeps the BSS's stations from reaching each other: their
	// frames go to its wired side instead (hostapd's ap_isolate).
	APIsolate bool
	// NoWMM leaves WMM out of the BSS (hostapd's wmm_enabled=0): no WMM
	// Parameter element, and its stations get non-QoS data, every frame
	// best effort, and no HT (mac80211 stations drop HT without WMM).
	// The zero value is hostapd's default, WMM on.
	NoWMM bool
	// NoHT and NoVHT turn the radio's HT (and VHT), or VHT, off in the BSS
	// (hostapd's disable_11n and disable_11ac), as Config's do in the
	// first.
	NoHT, NoVHT bool
	// MulticastToUnicast sends the BSS's group-addressed ARP, IPv4 and
	// IPv6 frames as unicast copies to each of its stations.
	MulticastToUnicast bool
	// RSN secures the network (WPA2/WPA3-Personal, PMF: RSNConfig and its
	// SAE part), as a bss= section's own wpa keys: the BSS has its own
	// authenticator, GTK and IGTK with their rekey timer, PSKs, SAE PTs
	// (derived with its SSID) and PMKSA cache; nil: an open network.
	RSN *RSNConfig
	// InactivityTimeout, AuthTimeout and AssocResponseTimeout are the
	// BSS's own timers for its stations, as Config's fields of the same
	// names are the first BSS's (ap_max_inactivity, auth_timeout,
	// assoc_resp_timeout); zero: their defaults.
	InactivityTimeout, AuthTimeout, AssocResponseTimeout time.Duration
	// UTF8SSID, BSSLoadPeriod and ChanUtilAvgPeriod are the BSS's own
	// announcements (bss.Advert's fields of the same names: utf8_ssid,
	// bss_load_update_period, chan_util_avg_period); the rest of
	// Config.Advert is the radio's.
	UTF8SSID                         bool
	BSSLoadPeriod, ChanUtilAvgPeriod int

	// Holder is the interface that carries the BSS's address, so that the
	// hardware ACKs its frames (the monitor for the first BSS, its ACK
	// holder for the others), TAP its wired side's interface: the core
	// shows them (airqctl dev) and uses neither.
	Holder, TAP string
}

// checkBSSes validates the BSSes beside the first, filling in defaults.
func (c *Config) checkBSSes() error {
	if len(c.BSSes)+1 > MaxBSSes {
		return fmt.Errorf("bss: %d networks, want at most %d", len(c.BSSes)+1, MaxBSSes)
	}
	seen := map[ieee80211.MAC]bool{c.BSSID: true}
	for i := range c.BSSes {
		x := &c.BSSes[i]
		n := i + 2 // the first BSS is Config's own
		switch {
		case x.SSID == "" || len(x.SSID) > 32:
			return fmt.Errorf("bss %d: ssid %q, want 1 to 32 bytes", n, x.SSID)
		case x.BSSID.IsMulticast() || x.BSSID.IsZero():
			return fmt.Errorf("bss %d (%s): bssid %v, want a unicast address", n, x.SSID, x.BSSID)
		case seen[x.BSSID]:
			return fmt.Errorf("bss %d (%s): bssid %v is another BSS's", n, x.SSID, x.BSSID)
		}
		seen[x.BSSID] = true
		if x.DTIMPeriod == 0 {
			x.DTIMPeriod = 2
		}
		if x.DTIMPeriod < 1 || x.DTIMPeriod > 255 {
			return fmt.Errorf("bss %d (%s): dtim_period %d, want 1 to 255", n, x.SSID, x.DTIMPeriod)
		}
		if x.MaxStations == 0 {
			x.MaxStations = maxAID
		}
		if x.MaxStations < 1 || x.MaxStations > maxAID {
			return fmt.Errorf("bss %d (%s): max_num_sta %d, want 1 to %d", n, x.SSID, x.MaxStations, maxAID)
		}
		if x.RSN != nil {
			if err := x.RSN.validate(); err != nil {
				return fmt.Errorf("bss %d (%s): %w", n, x.SSID, err)
			}
		}
		if err := x.checkTimers(); err != nil {
			return fmt.Errorf("bss %d (%s): %w", n, x.SSID, err)
		}
	}
	if len(c.BSSes) > 0 && c.ACS != nil {
		return errors.New("bss: the start-up channel selection runs with one BSS only")
	}
	return nil
}

// checkTimers fills in and checks the BSS's own timers and announcement
// periods, as Config's are.
func (x *BSSConfig) checkTimers() error {
	if x.InactivityTimeout == 0 {
		x.InactivityTimeout = defaultInactivity
	}
	for i := range Timers {
		if t := &Timers[i]; t.BSSField != nil {
			if err := t.fill(t.BSSField(x)); err != nil {
				return err
			}
		}
	}
	return x.advert(bss.Advert{}).Validate()
}

// advert is the BSS's announcements: the radio's (first's) with the BSS's
// own keys.
func (x *BSSConfig) advert(first bss.Advert) bss.Advert {
	first.UTF8SSID, first.BSSLoadPeriod, first.ChanUtilAvgPeriod = x.UTF8SSID, x.BSSLoadPeriod, x.ChanUtilAvgPeriod
	return first
}

// label names BSS n (counted from 1, the first BSS's being Config's) in
// errors: by its bss= section's name when it has one.
func (x *BSSConfig) label(n int) string {
	if x.Name != "" {
		return "bss " + x.Name
	}
	return fmt.Sprintf("bss %d (%s)", n, x.SSID)
}

// addBSS makes the network x beside the first BSS, first: the same radio,
// so the same rates, channel and EDCA parameters, its own address, SSID,
// DTIM, WMM, HT and VHT, table and budgets.
func (a *AP) addBSS(x BSSConfig, first *bss.BSS) {
	cfg := &a.cfg
	b := &bss.BSS{BSSID: x.BSSID, ACL: x.ACL, Stations: bss.NewTable(maxAID), Rates: first.Rates}
	b.PHY = bss.NewPHYElems(phyWithout(cfg.PHY, x.NoHT, x.NoVHT), cfg.Channel, cfg.Freq, b.Rates.IE)
	b.Shared = &a.shared
	b.Profile = first.Profile
	b.Profile.SSID, b.Profile.Hidden, b.Profile.DTIMPeriod, b.Profile.RSNE = x.SSID, x.HideSSID, x.DTIMPeriod, nil
	b.Profile.WMM = !x.NoWMM
	b.Profile.Advert = x.advert(first.Profile.Advert)
	b.ExtCap = b.Profile.Advert.ExtCapElem()
	if cfg.PHY.OBSSInterval != 0 { // as hostapd, whatever the HT
		b.ExtCap = bss.WithCoexMgmt(b.ExtCap)
	}
	b.Replies = bss.NewReplyBudget(replyShare(*cfg))
	b.Senders = bss.NewSenders(x.BSSID)
	b.Answered = newAnswered(*cfg, a.est)
	a.bsses = append(a.bsses, b)
	r := a.newBSSRadio(b, x.MaxStations, x.Name, x.Holder, x.TAP)
	r.isolate, r.toUnicast = x.APIsolate, x.MulticastToUnicast
	r.timers = bssTimers{inactivity: x.InactivityTimeout, auth: x.AuthTimeout, assocResp: x.AssocResponseTimeout}
	a.radios = append(a.radios, r)
}

// BSSPHY is the PHY BSS i of the radio (0 the first, 1 BSSes[0], ...)
// advertises and uses: the radio's, less the HT (and VHT), or VHT, it
// turns off; the channel is the radio's whatever it turns off.
func (c *Config) BSSPHY(i int) bss.PHY {
	if i > 0 {
		x := &c.BSSes[i-1]
		return phyWithout(c.PHY, x.NoHT, x.NoVHT)
	}
	return phyWithout(c.PHY, c.NoHT, c.NoVHT)
}

// phyWithout is p less HT (and VHT) with noHT, less VHT with noVHT.
func phyWithout(p bss.PHY, noHT, noVHT bool) bss.PHY {
	p.HT = p.HT && !noHT
	p.VHT = p.VHT && p.HT && !noVHT
	return p
}

// staggerBeacons spreads the BSSes' TBTTs evenly across the beacon
// interval, as ath9k's beacon slots: BSS i beacons i/N of an interval
// after the first, and its TSF runs ahead by the rest of the interval
// (ath9k's tsf_adjust), so that its TSF is a multiple of the interval at
// its own TBTTs, where its stations compute them.
func (a *AP) staggerBeacons(now time.Duration) {
	p := a.beaconPeriod()
	n := time.Duration(len(a.bsses))
	for i, r := range a.radios {
		off := (p * time.Duration(i) / n).Truncate(time.Microsecond)
		r.tbtt = now + off
		r.tsfAdjust = 0
		if off != 0 {
			r.tsfAdjust = uint64((p - off) / time.Microsecond)
		}
	}
	a.nextBeacon = now
}

// beaconDue sends the beacon of each BSS whose TBTT has come and moves its
// clock on; a TBTT passed by more than an interval is skipped, not sent
// late in a burst. It reports whether the first BSS's TBTT was among them
// (the radio's once-an-interval work follows it).
func (a *AP) beaconDue(now time.Duration) (first bool) {
	p := a.beaconPeriod()
	next := never
	for i, r := range a.radios {
		if now >= r.tbtt {
			if a.atHome() {
				a.sendBeacon(now, r.tbtt, r)
			} else {
				// Only a trip the operator allowed to miss one crosses a TBTT.
				a.scanStats.MissedBeacons++
			}
			r.tbtt += p
			if r.tbtt <= now {
				missed := (now-r.tbtt)/p + 1
				r.tbtt += missed * p
				a.beacons.MissedIntervals += uint64(missed)
			}
			first = first || i == 0
		}
		next = min(next, r.tbtt)
	}
	a.nextBeacon = next
	return first
}
