package ap

import (
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/rsn"
)

// The status says what the BSS is: its security (open, WPA2-Personal with
// its key managements and 802.11w) and its PHY mode and channel width.
func TestControlStatusDescribesTheBSS(t *testing.T) {
	wpa := func(mfp rsn.MFP, akm rsn.AKM) Config {
		c := wpaConfig(t, akm)
		c.RSN.MFP = mfp
		return c
	}
	with := func(c Config, f func(*Config)) Config { f(&c); return c }
	for _, c := range []struct {
		name                                string
		cfg                                 Config
		security, keyMgmt, pmf, mode, width string
	}{
		{"open g", Config{Channel: 6}, "open", "", "off", "802.11g", "20 MHz (no HT)"},
		{"open b", Config{Channel: 1, Rates: []int{1000, 2000, 5500, 11000}, BasicRates: []int{1000, 2000}},
			"open", "", "off", "802.11b", "20 MHz (no HT)"},
		{"open a", Config{Channel: 36}, "open", "", "off", "802.11a", "20 MHz (no HT)"},
		{"wpa2 n", with(wpa(rsn.MFPDisabled, rsn.AKMPSK), func(c *Config) { c.Channel, c.PHY = 6, bss.PHY{HT: true} }),
			"WPA2-Personal", "WPA-PSK", "off", "802.11n", "HT20"},
		{"wpa2 pmf optional HT40-", with(wpa(rsn.MFPOptional, rsn.AKMPSK), func(c *Config) {
			c.Channel, c.PHY = 6, bss.PHY{HT: true, Width: 40, Secondary: -1}
		}), "WPA2-Personal", "WPA-PSK", "optional", "802.11n", "HT40-"},
		{"wpa2 pmf required ac", with(wpa(rsn.MFPRequired, rsn.AKMPSKSHA256), func(c *Config) {
			c.Channel, c.PHY = 36, bss.PHY{VHT: true, Width: 80}
		}), "WPA2-Personal", "WPA-PSK-SHA256", "required", "802.11ac", "VHT80"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newHarness(t, c.cfg).askOK("status").Status
			if s.Security != c.security || s.KeyMgmt != c.keyMgmt || s.PMF != c.pmf || s.PHYMode != c.mode || s.Width != c.width {
				t.Errorf("security %q key_mgmt %q pmf %q phy_mode %q width %q; want %q %q %q %q %q",
					s.Security, s.KeyMgmt, s.PMF, s.PHYMode, s.Width, c.security, c.keyMgmt, c.pmf, c.mode, c.width)
			}
		})
	}
}
