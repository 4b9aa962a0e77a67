package bss

import (
	"fmt"

	"github.com/airq/airq/internal/ieee80211"
)

// Advert are the optional announcements of beacons and probe responses,
// each as hostapd 2.10 makes them from its key of the same meaning.
type Advert struct {
	// UTF8SSID sets the Extended Capabilities element's UTF-8 SSID bit
	// (bit 48): the SSID is to be shown as UTF-8 (utf8_ssid).
	UTF8SSID bool
	// SpectrumMgmt sets the capability's Spectrum Management bit on 5 GHz
	// (spectrum_mgmt_required; hostapd sets it on radar channels too,
	// where airq never operates).
	SpectrumMgmt bool
	// PowerConstraint, on 5 GHz, sends a Power Constraint element of
	// LocalPowerConstraint dB (local_pwr_constraint).
	PowerConstraint      bool
	LocalPowerConstraint uint8
	// BSSLoadPeriod, when not zero, sends a BSS Load element whose channel
	// utilization is taken anew every BSSLoadPeriod beacon intervals
	// (bss_load_update_period, 1 to 100).
	BSSLoadPeriod int
	// ChanUtilAvgPeriod, with BSSLoadPeriod, averages the channel
	// utilization over that many beacon intervals (chan_util_avg_period),
	// for the status's ChanUtilAvg.
	ChanUtilAvgPeriod int
}

// Validate checks the periods, naming hostapd's keys.
func (v Advert) Validate() error {
	if v.BSSLoadPeriod < 0 || v.BSSLoadPeriod > 100 {
		return fmt.Errorf("bss_load_update_period: %d, want 0 to 100 beacon intervals", v.BSSLoadPeriod)
	}
	if v.ChanUtilAvgPeriod < 0 {
		return fmt.Errorf("chan_util_avg_period: %d, want 0 or more beacon intervals", v.ChanUtilAvgPeriod)
	}
	return nil
}

const (
	// ElemPowerConstraint is the Power Constraint element's ID.
	ElemPowerConstraint = 32
	extCapUTF8SSID      = 48 // bit of the Extended Capabilities field
)

// SpectrumCap is the Spectrum Management bit where it applies, at freq MHz.
func (v *Advert) SpectrumCap(freq int) uint16 {
	if v.SpectrumMgmt && freq >= 5000 {
		return CapSpectrumMgmt
	}
	return 0
}

// AppendPowerConstraint follows the Country element on 5 GHz.
func (v *Advert) AppendPowerConstraint(b []byte, freq int) []byte {
	if !v.PowerConstraint || freq < 5000 {
		return b
	}
	return append(b, ElemPowerConstraint, 1, v.LocalPowerConstraint)
}

// WithCoexMgmt is Extended Capabilities element e (nil: none) with the
// 20/40 BSS Coexistence Management Support bit (bit 0) set, as hostapd sets
// it with obss_interval.
func WithCoexMgmt(e []byte) []byte {
	if len(e) < 3 {
		return []byte{ieee80211.ElemExtCap, 1, 0x01}
	}
	e = append([]byte(nil), e...)
	e[2] |= 0x01
	return e
}

// ExtCapElem is the Extended Capabilities element, as long as its last
// bit set; nil when none is.
func (v *Advert) ExtCapElem() []byte {
	var bits [8]byte
	if v.UTF8SSID {
		bits[extCapUTF8SSID/8] |= 1 << (extCapUTF8SSID % 8)
	}
	n := len(bits)
	for n > 0 && bits[n-1] == 0 {
		n--
	}
	if n == 0 {
		return nil
	}
	return append([]byte{ieee80211.ElemExtCap, byte(n)}, bits[:n]...)
}
