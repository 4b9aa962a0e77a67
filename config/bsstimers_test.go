package config

import (
	"strings"
	"testing"
	"time"
)

// Each bss= section's ap_max_inactivity, auth_timeout, assoc_resp_timeout,
// utf8_ssid, bss_load_update_period and chan_util_avg_period are its own
// BSS's, as in hostapd's struct hostapd_bss_config: a value other than the
// first BSS's is served, not refused, and reaches the core as that BSS's;
// a section that sets none has hostapd's defaults, not the first's.
func TestSectionsOwnTimersAndAnnouncements(t *testing.T) {
	text := "ssid=m\nap_max_inactivity=60\nauth_timeout=1s\nbss_load_update_period=10\n" +
		"bss=guest\nssid=g\nap_max_inactivity=600\nauth_timeout=2s\nassoc_resp_timeout=500ms\nutf8_ssid=1\nbss_load_update_period=50\nchan_util_avg_period=100\n" +
		"bss=iot\nssid=i\n"
	s, _, ps := loadText(t, text)
	if len(ps) != 0 {
		t.Fatalf("%v", ps)
	}
	if c := s.Core; c.InactivityTimeout != time.Minute || c.AuthTimeout != time.Second || c.Advert.BSSLoadPeriod != 10 || c.Advert.UTF8SSID {
		t.Errorf("the first BSS: inactivity %v, auth %v, advert %+v", c.InactivityTimeout, c.AuthTimeout, c.Advert)
	}
	b := s.CoreBSSes()
	if len(b) != 2 {
		t.Fatalf("%+v", b)
	}
	if g := b[0]; g.InactivityTimeout != 10*time.Minute || g.AuthTimeout != 2*time.Second || g.AssocResponseTimeout != 500*time.Millisecond ||
		!g.UTF8SSID || g.BSSLoadPeriod != 50 || g.ChanUtilAvgPeriod != 100 {
		t.Errorf("guest: %+v", g)
	}
	if i := b[1]; i.InactivityTimeout != 0 || i.AuthTimeout != 0 || i.AssocResponseTimeout != 0 || i.UTF8SSID || i.BSSLoadPeriod != 0 || i.ChanUtilAvgPeriod != 0 {
		t.Errorf("iot, which sets none: %+v, want hostapd's defaults (zero)", i)
	}
}

// A section's bad value, and its chan_util_avg_period without its own
// bss_load_update_period, are problems of that section, whatever the
// first BSS sets.
func TestSectionsOwnTimersChecked(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"ssid=m\nbss=guest\nssid=g\nbss_load_update_period=101\n", "bss guest: line 4: bss_load_update_period: \"101\": want 0 (no BSS Load element) to 100"},
		{"ssid=m\nbss=guest\nssid=g\nauth_timeout=10ms\n", "bss guest: line 4: auth_timeout: \"10ms\": want a duration from 100ms to 1h"},
		{"ssid=m\nbss=guest\nssid=g\nap_max_inactivity=0\n", "bss guest: line 4: ap_max_inactivity: \"0\": want 1 to 86400 seconds"},
		{"ssid=m\nbss_load_update_period=10\nbss=guest\nssid=g\nchan_util_avg_period=20\n", "bss guest: line 5: warning: chan_util_avg_period: changes nothing here"},
	} {
		_, _, ps := loadText(t, c.text)
		if len(ps) != 1 || !strings.Contains(ps[0].String(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, ps, c.want)
		}
	}
}
