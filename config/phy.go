package config

import (
	"errors"
	"fmt"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/scan"
)

// CorePHY checks the HT/VHT, A-MSDU and scan settings for channel, every
// problem at once, and returns the core's PHY. shortGI, when set, is
// -short-gi: the short guard interval at every width the channel uses,
// over the file's flags. name(flag, key) names a setting in a message: its
// key when the file gave it, else its flag (File.Source).
func (s *Settings) CorePHY(channel int, shortGI *bool, name func(flag, key string) string) (bss.PHY, error) {
	p := s.PHY
	ph := bss.PHY{HT: p.HT || p.VHT, VHT: p.VHT, LDPC: p.LDPC, Width: p.Width,
		SGI20: p.SGI20, SGI40: p.SGI40, SGI80: p.SGI80, SGI160: p.SGI160, MaxMPDU: p.MaxMPDU,
		OBSSInterval: p.OBSSInterval}
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	switch p.HT40 {
	case "":
	case "+", "-":
		if !ph.HT {
			fail("%s: a 40 MHz channel needs HT (ieee80211n=1 or -ht)", name("ht40", "ht_capab"))
		}
		ph.Secondary = map[string]int{"+": 1, "-": -1}[p.HT40]
		if ph.Width == 0 {
			ph.Width = 40
		}
	default:
		fail("-ht40: %q, want + or -", p.HT40)
	}
	if ph.Width == 0 && ph.VHT {
		ph.Width = 80
	}
	switch {
	case ph.Width != 0 && ph.Width != 20 && ph.Width != 40 && ph.Width != 80 && ph.Width != 160:
		fail("-width: %d MHz, want 20, 40, 80 or 160", ph.Width)
	case ph.Width >= 80 && !ph.VHT:
		fail("%s: %d MHz needs VHT (ieee80211ac=1 or -vht)", name("width", "vht_oper_chwidth"), ph.Width)
	}
	if shortGI != nil {
		sgi := *shortGI
		ph.SGI20, ph.SGI40, ph.SGI80, ph.SGI160 = sgi, sgi && ph.Width >= 40, sgi && ph.Width >= 80, sgi && ph.Width == 160
	}
	if p.AMSDU != 0 && (p.AMSDU < 3839 || p.AMSDU > 11424) {
		fail("%s: %d octets, want 0 (off) or 3839 to 11424", name("amsdu", "amsdu"), p.AMSDU)
	}
	if p.AMSDU != 0 && !ph.HT {
		fail("%s: A-MSDUs go to HT/VHT stations only; add ieee80211n=1 or -ht (ieee80211ac=1 or -vht)", name("amsdu", "amsdu"))
	}
	if c := CenterOf(channel, ph.Width); p.Center != 0 && ph.Width >= 80 && p.Center != c {
		fail("vht_oper_centr_freq_seg0_idx: %d, want %d for channel %d at %d MHz", p.Center, c, channel, ph.Width)
	}
	if s.Scan.Mode != "continuous" && s.Scan.Mode != "periodic" {
		fail("%s: %q, want continuous or periodic", name("scan-mode", "scan_mode"), s.Scan.Mode)
	}
	if s.Scan.Period < time.Second {
		fail("%s: %v, want at least 1s", name("scan-period", "scan_period"), s.Scan.Period)
	}
	return ph, errors.Join(errs...)
}

// DefaultAMSDU is the longest A-MSDU body airq builds when the settings
// name none: the most an HT station may announce (7935 octets) or a VHT
// one (an 11454-octet MPDU less its header and FCS); each station's own
// limit and airtime budget cut it further. Every frame injected costs a
// channel access, an echo and a trip through the kernel, so HT stations
// that take A-MSDUs get them unless amsdu=0 turns them off.
func DefaultAMSDU(ph bss.PHY) int {
	switch {
	case ph.VHT:
		return 11424
	case ph.HT:
		return 7935
	}
	return 0
}

// ServedPHY is the radio's PHY ph less what every BSS turns off
// (disable_11n, disable_11ac): what its stations may use, for what only
// they need, such as DefaultAMSDU's buffers.
func (s *Settings) ServedPHY(ph bss.PHY) bss.PHY {
	ht, vht := false, false
	for _, b := range s.AllBSSes() {
		c := &b.Settings.Core
		ht = ht || !c.NoHT
		vht = vht || !c.NoHT && !c.NoVHT
	}
	ph.HT, ph.VHT = ph.HT && ht, ph.VHT && vht
	return ph
}

// CenterOf is the centre channel number of the 80 or 160 MHz block holding
// 5 GHz channel ch, as hostapd's vht_oper_centr_freq_seg0_idx names it.
func CenterOf(ch, width int) int {
	c := ap.Config{Channel: ch, Freq: 5000 + 5*ch, PHY: bss.PHY{Width: width}}
	return (c.CenterFreq() - 5000) / 5
}

// Config is the background scan the settings ask for, over the given
// channels; nil when it is off.
func (s Scan) Config(chans []scan.Channel, retune time.Duration) *ap.ScanConfig {
	if !s.On {
		return nil
	}
	mode := scan.Continuous
	if s.Mode == "periodic" {
		mode = scan.Periodic
	}
	sc := &ap.ScanConfig{Planner: scan.Config{
		Channels: chans, Retune: retune, Mode: mode, Period: s.Period, MissBeacon: s.MissBeacon,
	}}
	s.Bounds(&sc.Planner)
	return sc
}
