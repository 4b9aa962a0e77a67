package monitor

import (
	"strings"
	"testing"

	"github.com/airq/airq/bss"
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

func TestCheckPHY(t *testing.T) {
	full := testBands(0x116e|ieee80211.HTCapLDPC, 0x0380017e|ieee80211.VHTCapWidthMask)
	allSGI := func(p bss.PHY) bss.PHY { p.SGI20, p.SGI40, p.SGI80, p.SGI160 = true, true, true, true; return p }
	for _, tt := range []struct {
		name    string
		phy     nl80211.PHY
		freq    int
		in      bss.PHY
		wantErr string
	}{
		{"legacy is not checked", testBands(0, 0), 2412, bss.PHY{SGI20: true}, ""},
		{"HT on an HT band", full, 2412, bss.PHY{HT: true, SGI20: true}, ""},
		{"HT without band HT", testBands(0, 0), 2412, bss.PHY{HT: true}, "-ht: phy0's band at 2412 MHz has no HT"},
		{"VHT without band VHT", testBands(0x116e, 0), 5180, bss.PHY{HT: true, VHT: true, Width: 80}, "-vht: phy0's band at 5180 MHz has no VHT"},
		{"40 MHz on a 20 MHz radio", testBands(0x0060, 0), 2412, bss.PHY{HT: true, Width: 40, Secondary: 1}, "supports 20 MHz only"},
		{"160 MHz on an 80 MHz radio", testBands(0x116e, 0x03800032), 5180, bss.PHY{HT: true, VHT: true, Width: 160}, "up to 80 MHz"},
		{"160 MHz where declared", full, 5180, allSGI(bss.PHY{HT: true, VHT: true, Width: 160}), ""},
		{"LDPC asked, not decoded", testBands(0x116e, 0), 2412, bss.PHY{HT: true, LDPC: true}, "-ldpc"},
		{"LDPC where declared", full, 5180, bss.PHY{HT: true, VHT: true, Width: 80, LDPC: true}, ""},
		{"[SHORT-GI-40] without it", testBands(0x0022, 0), 2412, bss.PHY{HT: true, Width: 40, Secondary: 1, SGI40: true},
			"[SHORT-GI-40] (-short-gi): phy0's band at 2412 MHz has no short guard interval at 40 MHz"},
		{"[SHORT-GI-20] where the band has it", testBands(0x0022, 0), 2412, bss.PHY{HT: true, Width: 40, Secondary: 1, SGI20: true}, ""},
		{"long GI on a band without short GI", testBands(0x0002, 0), 2412, bss.PHY{HT: true, Width: 40, Secondary: 1}, ""},
		{"[SHORT-GI-80] without it", testBands(0x116e, 0x03800002), 5180, bss.PHY{HT: true, VHT: true, Width: 80, SGI80: true}, "[SHORT-GI-80]"},
		{"[SHORT-GI-80] without VHT is not used", testBands(0x116e, 0), 5180, bss.PHY{HT: true, SGI80: true}, ""},
		{"hwsim's recorded band data, VHT 160", testBands(0x107e, 0x038004fa), 5180, allSGI(bss.PHY{HT: true, VHT: true, Width: 160}), ""},
		{"hwsim decodes no HT LDPC", testBands(0x107e, 0x038004fa), 5180, bss.PHY{HT: true, VHT: true, Width: 80, LDPC: true}, "-ldpc"},
		{"a channel the phy lacks is left to the channel check", full, 5745, bss.PHY{HT: true}, ""},
		{"[MAX-MPDU-11454] where declared", testBands(0x107e, 0x038004fa|ieee80211.VHTCapMaxMPDU11454), 5180,
			bss.PHY{HT: true, VHT: true, Width: 80, MaxMPDU: 11454}, ""},
		{"[MAX-MPDU-7991] on an 11454 radio", testBands(0x107e, 0x038004fa|ieee80211.VHTCapMaxMPDU11454), 5180,
			bss.PHY{HT: true, VHT: true, Width: 80, MaxMPDU: 7991}, ""},
		{"[MAX-MPDU-11454] on a 7991 radio", testBands(0x107e, 0x038004f9), 5180, bss.PHY{HT: true, VHT: true, Width: 80, MaxMPDU: 11454},
			"vht_capab [MAX-MPDU-11454]: phy0's band at 5180 MHz receives MPDUs of at most 7991 octets"},
		{"[MAX-MPDU-7991] on a 3895 radio", testBands(0x107e, 0x038004f8), 5180, bss.PHY{HT: true, VHT: true, Width: 80, MaxMPDU: 7991},
			"at most 3895 octets"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := checkPHY(tt.phy, tt.freq, tt.in)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}
