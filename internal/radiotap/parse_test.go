package radiotap

import (
	"github.com/airq/airq/internal/hextest"
	"testing"

	"github.com/airq/airq/radio"
)

// unhex decodes a hex dump that may contain spaces and '|' separators.
var unhex = hextest.Bytes

// Headers as mac80211_hwsim delivered them on a 6.1 kernel (hwsim findings).
const (
	// RX legacy: TSFT FLAGS RATE(1M) CHANNEL(2412, CCK|2GHz) -30dBm ANTENNA RX_FLAGS.
	hwsimRxLegacy = "00 00 1a 00 2f 48 00 00 | 10 32 54 76 00 00 00 00 | 00 | 02 | 6c 09 a0 00 | e2 | 00 | 00 00"
	// RX HT: MCS 7, 20 MHz, SGI (no RATE bit; its byte is padding for CHANNEL).
	hwsimRxHT = "00 00 1d 00 2b 48 08 00 | 10 32 54 76 00 00 00 00 | 00 | 00 | 6c 09 80 04 | e2 | 00 | 00 00 | 07 04 07"
	// Echo legacy: RATE(1M) pad TX_FLAGS=0 DATA_RETRIES=0.
	hwsimEcho = "00 00 0d 00 04 80 02 00 | 02 00 | 00 00 | 00"
	// Echo of an unacked frame at 54 Mb/s.
	hwsimEchoFail = "00 00 0d 00 04 80 02 00 | 6c 00 | 01 00 | 00"
	// Echo MCS 7 20 MHz LGI.
	hwsimEchoMCS = "00 00 0e 00 00 80 0a 00 | 00 00 | 00 | 07 00 07"
	// Echo VHT MCS 9 NSS 1 80 MHz SGI.
	hwsimEchoVHT = "00 00 18 00 00 80 22 00 | 00 00 | 00 | 00 | 44 00 04 04 91 00 00 00 00 00 00 00"
)

func TestParseTable(t *testing.T) {
	tests := []struct {
		name   string
		hdr    string
		hdrLen int
		echo   bool
		rx     radio.RxInfo
		tx     radio.TxStatus
	}{
		{"rx legacy", hwsimRxLegacy, 26, false, radio.RxInfo{
			TSFT: 0x76543210, HasTSFT: true, Freq: 2412, Signal: -30, HasSignal: true,
			Rate: radio.LegacyRate(1000),
		}, radio.TxStatus{}},
		{"rx ht", hwsimRxHT, 29, false, radio.RxInfo{
			TSFT: 0x76543210, HasTSFT: true, Freq: 2412, Signal: -30, HasSignal: true,
			Rate: radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW20, ShortGI: true},
		}, radio.TxStatus{}},
		{"echo legacy", hwsimEcho, 13, true, radio.RxInfo{Rate: radio.LegacyRate(1000)},
			radio.TxStatus{Acked: true, Rate: radio.LegacyRate(1000)}},
		{"echo fail", hwsimEchoFail, 13, true, radio.RxInfo{Rate: radio.LegacyRate(54000)},
			radio.TxStatus{Acked: false, Flags: radio.TxFail, Rate: radio.LegacyRate(54000)}},
		{"echo mcs", hwsimEchoMCS, 14, true, radio.RxInfo{Rate: radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW20}},
			radio.TxStatus{Acked: true, Rate: radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW20}}},
		{"echo vht", hwsimEchoVHT, 24, true, radio.RxInfo{Rate: radio.Rate{Mode: radio.ModeVHT, MCS: 9, NSS: 1, Bandwidth: radio.BW80, ShortGI: true}},
			radio.TxStatus{Acked: true, Rate: radio.Rate{Mode: radio.ModeVHT, MCS: 9, NSS: 1, Bandwidth: radio.BW80, ShortGI: true}}},
		{"injected plain", "00 00 08 00 00 00 00 00", 8, false, radio.RxInfo{}, radio.TxStatus{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := append(unhex(t, tt.hdr), 0x80, 0x00) // a frame follows
			var rx radio.RxInfo
			var tx radio.TxStatus
			n, echo, err := Parse(b, &rx, &tx)
			if err != nil {
				t.Fatal(err)
			}
			if n != tt.hdrLen || echo != tt.echo {
				t.Errorf("hdrLen, echo = %d, %v; want %d, %v", n, echo, tt.hdrLen, tt.echo)
			}
			if rx != tt.rx {
				t.Errorf("rx = %+v\nwant %+v", rx, tt.rx)
			}
			if tx != tt.tx {
				t.Errorf("tx = %+v\nwant %+v", tx, tt.tx)
			}
		})
	}
}

func TestParseFlags(t *testing.T) {
	// FLAGS with FCS, bad FCS, data padding and short preamble, then RATE 2 Mb/s.
	b := unhex(t, "00 00 0a 00 06 00 00 00 | 72 | 04")
	var rx radio.RxInfo
	if _, _, err := Parse(b, &rx, nil); err != nil {
		t.Fatal(err)
	}
	if !rx.FCSIncl || !rx.BadFCS || !rx.DataPad || !rx.Rate.ShortPre || rx.Rate.Legacy != 4 {
		t.Errorf("rx = %+v", rx)
	}
}

func TestParseExtended(t *testing.T) {
	// mac80211 with two antenna chains: word 0 = TSFT FLAGS CHANNEL DBM_ANTSIGNAL
	// RX_FLAGS + radiotap NS + EXT; words 1 and 2 = DBM_ANTSIGNAL ANTENNA per chain.
	b := unhex(t, `00 00 26 00 | 2b 40 00 a0 | 20 08 00 a0 | 20 08 00 00
		| 01 00 00 00 00 00 00 00 | 10 | 00 | 3c 14 40 01 | c4 | 00 | 00 00 | c2 00 | c0 01`)
	var rx radio.RxInfo
	n, echo, err := Parse(b, &rx, nil)
	if err != nil || n != 38 || echo {
		t.Fatalf("Parse = %d, %v, %v", n, echo, err)
	}
	want := radio.RxInfo{TSFT: 1, HasTSFT: true, Freq: 5180, Signal: -60, HasSignal: true, FCSIncl: true}
	if rx != want {
		t.Errorf("rx = %+v\nwant %+v", rx, want)
	}
}

func TestParseVendorNamespace(t *testing.T) {
	// Word 0: FLAGS + vendor NS + EXT; word 1 (vendor): bit 0 + radiotap NS + EXT;
	// word 2 (radiotap again, index reset): DBM_ANTSIGNAL.
	// Data: FLAGS(1) pad(1) vendor hdr(6: OUI, subns, skip=3) vendor data(3) signal.
	b := unhex(t, `00 00 1c 00 | 02 00 00 c0 | 01 00 00 a0 | 20 00 00 00
		| 10 | 00 | 00 11 22 05 03 00 | aa bb cc | d0`)
	b[2] = byte(len(b))
	var rx radio.RxInfo
	n, _, err := Parse(b, &rx, nil)
	if err != nil || n != len(b) {
		t.Fatalf("Parse = %d, %v", n, err)
	}
	// The second radiotap block is not the first, so its signal is not taken.
	if !rx.FCSIncl || rx.HasSignal {
		t.Errorf("rx = %+v", rx)
	}
	// Skip length past it_len is an error.
	b[22] = 0x40
	if _, _, err := Parse(b, &rx, nil); err != ErrNamespace {
		t.Errorf("long skip: err = %v", err)
	}
}

func TestParseUnknownFieldStops(t *testing.T) {
	// FLAGS, then bit 25 (unassigned) and DBM_ANTSIGNAL after it: parsing
	// stops at bit 25, keeps FLAGS and still reports the full length.
	b := unhex(t, "00 00 0c 00 02 00 00 02 | 10 ff ff ff")
	var rx radio.RxInfo
	n, _, err := Parse(b, &rx, nil)
	if err != nil || n != 12 || !rx.FCSIncl {
		t.Fatalf("Parse = %d, %v, %+v", n, err, rx)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		hdr  string
		err  error
	}{
		{"short", "00 00 08 00 00 00 00", ErrShort},
		{"version", "01 00 08 00 00 00 00 00", ErrVersion},
		{"len beyond", "00 00 20 00 00 00 00 00", ErrLength},
		{"len below 8", "00 00 04 00 00 00 00 00", ErrLength},
		{"bitmaps", "00 00 0c 00 00 00 00 80 00 00 00 80", ErrBitmaps},
		{"field", "00 00 0c 00 01 00 00 00 00 00 00 00", ErrField},
		{"mcs cut", "00 00 0a 00 00 00 08 00 07 00", ErrField},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := unhex(t, tt.hdr)
			n, _, err := Parse(b, nil, nil)
			if err != tt.err || n != 0 {
				t.Errorf("Parse = %d, %v; want 0, %v", n, err, tt.err)
			}
		})
	}
}

func TestParseAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race; make norace runs this test without it")
	}
	bufs := [][]byte{unhex(t, hwsimRxLegacy), unhex(t, hwsimEchoVHT), unhex(t, "00 00 04 00")}
	var rx radio.RxInfo
	var tx radio.TxStatus
	for _, b := range bufs {
		if n := testing.AllocsPerRun(100, func() { Parse(b, &rx, &tx) }); n != 0 {
			t.Errorf("Parse allocates %v times", n)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	for _, bc := range []struct{ name, hdr string }{
		{"rx", hwsimRxLegacy}, {"rxHT", hwsimRxHT}, {"echo", hwsimEcho}, {"echoVHT", hwsimEchoVHT},
	} {
		buf := unhex(b, bc.hdr)
		b.Run(bc.name, func(b *testing.B) { benchParse(b, buf) })
	}
	// The same echo with a byte of padding after its fields: mac80211's
	// layout no longer, so the general walk reads it.
	walked := append(unhex(b, hwsimEcho), 0)
	walked[2]++
	b.Run("echoWalked", func(b *testing.B) { benchParse(b, walked) })
}

func benchParse(b *testing.B, buf []byte) {
	b.ReportAllocs()
	var rx radio.RxInfo
	var tx radio.TxStatus
	for b.Loop() {
		Parse(buf, &rx, &tx)
	}
}
