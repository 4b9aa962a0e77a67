package monitor

import (
	"strings"
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/nl80211"
)

// testBands is a phy with the same HT capabilities on 2.4 and 5 GHz and
// VHT capabilities on 5 GHz.
func testBands(ht uint16, vht uint32) nl80211.PHY {
	return nl80211.PHY{Name: "phy0", Bands: []nl80211.Band{
		{Index: 0, HTCapa: ht, Channels: []nl80211.ChannelInfo{{Freq: 2412}}},
		{Index: 1, HTCapa: ht, VHTCapa: vht, Channels: []nl80211.ChannelInfo{{Freq: 5180}}},
	}}
}

func TestFitPHY(t *testing.T) {
	full := testBands(0x116e|ieee80211.HTCapLDPC, 0x0380017e|ieee80211.VHTCapWidthMask)
	for _, tt := range []struct {
		name    string
		phy     nl80211.PHY
		freq    int
		in      ap.PHY
		want    ap.PHY
		note    bool
		wantErr string
	}{
		{"legacy is untouched", testBands(0, 0), 2412, ap.PHY{ShortGI: true}, ap.PHY{ShortGI: true}, false, ""},
		{"HT on an HT band", full, 2412, ap.PHY{HT: true, ShortGI: true}, ap.PHY{HT: true, ShortGI: true}, false, ""},
		{"HT without band HT", testBands(0, 0), 2412, ap.PHY{HT: true}, ap.PHY{}, false, "-ht: phy0's band at 2412 MHz has no HT"},
		{"VHT without band VHT", testBands(0x116e, 0), 5180, ap.PHY{HT: true, VHT: true, Width: 80}, ap.PHY{}, false, "-vht: phy0's band at 5180 MHz has no VHT"},
		{"40 MHz on a 20 MHz radio", testBands(0x0060, 0), 2412, ap.PHY{HT: true, Width: 40, Secondary: 1}, ap.PHY{}, false, "supports 20 MHz only"},
		{"160 MHz on an 80 MHz radio", testBands(0x116e, 0x03800032), 5180, ap.PHY{HT: true, VHT: true, Width: 160}, ap.PHY{}, false, "up to 80 MHz"},
		{"160 MHz where declared", full, 5180, ap.PHY{HT: true, VHT: true, Width: 160, ShortGI: true}, ap.PHY{HT: true, VHT: true, Width: 160, ShortGI: true}, false, ""},
		{"LDPC asked, not decoded", testBands(0x116e, 0), 2412, ap.PHY{HT: true, LDPC: true}, ap.PHY{}, false, "-ldpc"},
		{"LDPC where declared", full, 5180, ap.PHY{HT: true, VHT: true, Width: 80, LDPC: true}, ap.PHY{HT: true, VHT: true, Width: 80, LDPC: true}, false, ""},
		{"no SGI at 40 MHz: long GI", testBands(0x0022, 0), 2412, ap.PHY{HT: true, Width: 40, Secondary: 1, ShortGI: true}, ap.PHY{HT: true, Width: 40, Secondary: 1}, true, ""},
		{"no SGI at 80 MHz: long GI", testBands(0x116e, 0x03800002), 5180, ap.PHY{HT: true, VHT: true, Width: 80, ShortGI: true}, ap.PHY{HT: true, VHT: true, Width: 80}, true, ""},
		{"hwsim's recorded band data, VHT 160", testBands(0x107e, 0x038004fa), 5180, ap.PHY{HT: true, VHT: true, Width: 160, ShortGI: true}, ap.PHY{HT: true, VHT: true, Width: 160, ShortGI: true}, false, ""},
		{"hwsim decodes no HT LDPC", testBands(0x107e, 0x038004fa), 5180, ap.PHY{HT: true, VHT: true, Width: 80, LDPC: true}, ap.PHY{}, false, "-ldpc"},
		{"a channel the phy lacks is left to the channel check", full, 5745, ap.PHY{HT: true}, ap.PHY{HT: true}, false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, note, err := fitPHY(tt.phy, tt.freq, tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want || (note != "") != tt.note {
				t.Fatalf("got %+v note %q err %v, want %+v note %v", got, note, err, tt.want, tt.note)
			}
		})
	}
}
