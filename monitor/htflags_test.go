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
