package monitor

import (
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// A known ht_capab flag the radio lacks is refused in hostapd's words.
func TestCheckHTFlags(t *testing.T) {
	hwsim := testBands(0x117e, 0) // hwsim's, with RX-STBC1: no TX-STBC, RX-STBC12, DELAYED-BA, L-SIG
	for _, c := range []struct {
		asked uint16
		want  string
	}{
		{0, ""},
		{ieee80211.HTCapDSSSCCK40, ""},
		{ieee80211.HTCapTxSTBC, "driver does not support configured HT capability [TX-STBC]"},
		{0x0200, "[RX-STBC*]"}, // RX-STBC12 on a one-stream radio
		{0x0100, ""},
		{ieee80211.HTCapGreenfield, ""},
		{ieee80211.HTCapMaxAMSDU7935, "[MAX-AMSDU-7935]"},
		{ieee80211.HTCapLSIGTXOPProt, "[LSIG-TXOP-PROT]"},
	} {
		err := checkHTFlags(hwsim, 2412, c.asked)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%#x: %v, want %q", c.asked, err, c.want)
		}
	}
}

// A known vht_capab flag the radio lacks is refused in hostapd's words:
// a capability bit it does not have, or a count above its own.
func TestCheckVHTFlags(t *testing.T) {
	hwsim := testBands(0x107e, 0x038001b2) // RXLDPC, SGI-80, TX-STBC, RX-STBC-1, A-MPDU exponent 7
	for _, c := range []struct {
		asked uint32
		want  string
	}{
		{0, ""},
		{0x00000100 | 0x03800000, ""},
		{0x00000200, "driver does not support configured VHT capability [RX-STBC-*]"},
		{0x00000800, "[SU-BEAMFORMER]"},
		{0x00000004, "[VHT160]"},
		{0x10000000, "[RX-ANTENNA-PATTERN]"},
	} {
		err := checkVHTFlags(hwsim, 5180, c.asked)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%#x: %v, want %q", c.asked, err, c.want)
		}
	}
}
