package ctl

import (
	"strings"
	"testing"
)

// TestDevPHYLine: each BSS's PHY line names its standard and what it adds
// to legacy rates, and its WMM; a reply without the standard (a daemon
// that did not say) still names the rest.
func TestDevPHYLine(t *testing.T) {
	for _, c := range []struct {
		d    Dev
		want string
	}{
		{Dev{WMM: true, HT: true, VHT: true, PHYMode: "802.11ac"}, "\tphy 802.11ac (HT, VHT), wmm yes\n"},
		{Dev{WMM: true, HT: true, PHYMode: "802.11n"}, "\tphy 802.11n (HT), wmm yes\n"},
		{Dev{PHYMode: "802.11b"}, "\tphy 802.11b (legacy), wmm no\n"},
		{Dev{WMM: true}, "\tphy legacy, wmm yes\n"},
	} {
		if got := string(AppendDevs(nil, []Dev{c.d})); !strings.Contains(got, c.want) {
			t.Errorf("%+v: no line %q in\n%s", c.d, c.want, got)
		}
	}
}
