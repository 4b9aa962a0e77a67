package radiotap

import (
	"testing"

	"github.com/airq/airq/radio"
)

// heHeader is FLAGS, CHANNEL (5210 MHz), ANTENNA, RX_FLAGS and an HE field
// laid out as mac80211 writes it for an HE SU PPDU, with data1/data2/
// data3/data5/data6 given as "lo hi" byte pairs.
func heHeader(d1, d2, d3, d5, d6 string) string {
	return "00 00 1e 00 0a 48 80 00 " + // len 30; FLAGS CHANNEL ANTENNA RX_FLAGS HE
		"00 00 5a 14 40 01 00 00 00 00 " + // flags, pad, channel, antenna, pad
		d1 + " " + d2 + " " + d3 + " 00 00 " + d5 + " " + d6 // HE at offset 18
}

func TestParseHE(t *testing.T) {
	for _, tt := range []struct {
		name string
		hdr  string
		want radio.Rate
	}{
		{"MCS 11, 2 streams, 80 MHz, 1.6 µs GI, LDPC", heHeader("e0 40", "02 00", "00 2b", "12 00", "02 00"),
			radio.Rate{Mode: radio.ModeHE, MCS: 11, NSS: 2, Bandwidth: radio.BW80, HEGI: radio.HEGI16, LDPC: true}},
		{"MCS 0, 1 stream, bandwidth not known", heHeader("e0 00", "00 00", "00 00", "03 00", "01 00"),
			radio.Rate{Mode: radio.ModeHE, MCS: 0, NSS: 1, Bandwidth: radio.BW20}},
		{"160 MHz, 3.2 µs GI, coding not known", heHeader("60 40", "02 00", "00 27", "23 00", "01 00"),
			radio.Rate{Mode: radio.ModeHE, MCS: 7, NSS: 1, Bandwidth: radio.BW160, HEGI: radio.HEGI32}},
		{"a resource unit: no rate", heHeader("e0 40", "02 00", "00 05", "04 00", "01 00"), radio.Rate{}},
		{"dual-carrier modulation: no rate", heHeader("e0 40", "02 00", "00 13", "00 00", "01 00"), radio.Rate{}},
		{"MCS not known: no rate", heHeader("c0 40", "02 00", "00 05", "00 00", "01 00"), radio.Rate{}},
		{"MCS 12 is not HE: no rate", heHeader("e0 40", "02 00", "00 0c", "00 00", "01 00"), radio.Rate{}},
		{"no streams: no rate", heHeader("e0 40", "02 00", "00 05", "00 00", "00 00"), radio.Rate{}},
		{"reserved GI: no rate", heHeader("e0 40", "02 00", "00 05", "30 00", "01 00"), radio.Rate{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := unhex(t, tt.hdr)
			var rx radio.RxInfo
			n, echo, err := Parse(b, &rx, nil)
			if err != nil || n != 30 || echo {
				t.Fatalf("Parse: n %d echo %v err %v", n, echo, err)
			}
			if rx.Rate != tt.want || rx.Freq != 5210 {
				t.Fatalf("rate %+v at %d MHz, want %+v", rx.Rate, rx.Freq, tt.want)
			}
			if tt.want.Mode != radio.ModeHE {
				return
			}
			var again radio.RxInfo
			if _, _, err := Parse(AppendRx(nil, rx), &again, nil); err != nil || again.Rate != rx.Rate {
				t.Fatalf("re-encoded: %+v, %v", again.Rate, err)
			}
		})
	}
}
