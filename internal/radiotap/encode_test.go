package radiotap

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/airq/airq/radio"
)

func TestAppendTx(t *testing.T) {
	tests := []struct {
		name string
		p    radio.TxParams
		want string
	}{
		{"none", radio.TxParams{}, "00 00 0c 00 02 80 00 00 | 00 | 00 | 00 00"},
		{"none noack", radio.TxParams{Flags: radio.TxNoAck | radio.TxNoSeqNo}, "00 00 0c 00 02 80 00 00 | 00 | 00 | 18 00"},
		{"legacy 54", radio.TxParams{Rate: radio.LegacyRate(54000)}, "00 00 0c 00 06 80 00 00 | 00 | 6c | 00 00"},
		{"legacy retries", radio.TxParams{Rate: radio.LegacyRate(6000), Retries: 3}, "00 00 0d 00 06 80 02 00 | 00 | 0c | 00 00 | 03"},
		{"ht mcs7 sgi", radio.TxParams{Rate: radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW20, ShortGI: true}},
			"00 00 0f 00 02 80 08 00 | 00 | 00 | 00 00 | 7f 04 07"},
		{"ht mcs15 bw40 ldpc retries", radio.TxParams{Rate: radio.Rate{Mode: radio.ModeHT, MCS: 15, Bandwidth: radio.BW40, LDPC: true}, Retries: 1},
			"00 00 10 00 02 80 0a 00 | 00 | 00 | 00 00 | 01 | 7f 11 0f"},
		{"vht 9/1/80 sgi", radio.TxParams{Rate: radio.Rate{Mode: radio.ModeVHT, MCS: 9, NSS: 1, Bandwidth: radio.BW80, ShortGI: true}},
			"00 00 18 00 02 80 20 00 | 00 | 00 | 00 00 | 45 00 04 04 91 00 00 00 00 00 00 00"},
		{"vht 160 retries", radio.TxParams{Rate: radio.Rate{Mode: radio.ModeVHT, MCS: 3, NSS: 2, Bandwidth: radio.BW160}, Retries: 2, Flags: radio.TxOrder},
			"00 00 1a 00 02 80 22 00 | 00 | 00 | 20 00 | 02 | 00 | 45 00 00 0b 32 00 00 00 00 00 00 00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AppendTx([]byte{0xee}, tt.p)[1:]
			if want := unhex(t, tt.want); !bytes.Equal(got, want) {
				t.Errorf("AppendTx = %s\nwant       %s", hex.EncodeToString(got), hex.EncodeToString(want))
			}
			if n := TxHeaderLen(tt.p); n != len(got) {
				t.Errorf("TxHeaderLen = %d, want %d", n, len(got))
			}
			// The parser must read back what the kernel will read.
			var rx radio.RxInfo
			var tx radio.TxStatus
			n, echo, err := Parse(got, &rx, &tx)
			if err != nil || n != len(got) || !echo {
				t.Fatalf("Parse = %d, %v, %v", n, echo, err)
			}
			if tx.Flags != tt.p.Flags || tx.Retries != tt.p.Retries || tx.Rate != tt.p.Rate {
				t.Errorf("Parse = %+v, want %+v", tx, tt.p)
			}
		})
	}
}

// The FLAGS byte of every TX header is zero, whatever is asked: mac80211
// sends an injected frame with the long preamble and without an FCS, and
// would act on FCS, WEP and FRAG. A short preamble asked for reads back as
// the long one the kernel uses.
func TestAppendTxFlags(t *testing.T) {
	for _, r := range rates() {
		p := radio.TxParams{Rate: r, Flags: 0xffff, Retries: 2}
		b := AppendTx(nil, p)
		if b[4]&(1<<Flags) == 0 || b[headerLen] != 0 {
			t.Errorf("%+v: present %x, FLAGS %#x; want FLAGS present and zero", r, b[4:8], b[headerLen])
		}
		var rx radio.RxInfo
		var tx radio.TxStatus
		if _, _, err := Parse(b, &rx, &tx); err != nil || rx.FCSIncl || rx.DataPad || tx.Rate.ShortPre {
			t.Errorf("%+v: Parse = %+v, %+v, %v", r, rx, tx, err)
		}
	}
}

func TestAppendRxKernelLayout(t *testing.T) {
	rx := radio.RxInfo{TSFT: 0x76543210, HasTSFT: true, Freq: 2412, Signal: -30, HasSignal: true, Rate: radio.LegacyRate(1000)}
	if got, want := AppendRx(nil, rx), unhex(t, hwsimRxLegacy); !bytes.Equal(got, want) {
		t.Errorf("AppendRx = %x\nwant       %x", got, want)
	}
	rx.Rate = radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW20, ShortGI: true}
	if got, want := AppendRx(nil, rx), unhex(t, hwsimRxHT); !bytes.Equal(got, want) {
		t.Errorf("AppendRx HT = %x\nwant          %x", got, want)
	}
}

func TestAppendEchoKernelLayout(t *testing.T) {
	tests := []struct {
		st   radio.TxStatus
		want string
	}{
		{radio.TxStatus{Acked: true, Rate: radio.LegacyRate(1000)}, hwsimEcho},
		{radio.TxStatus{Acked: false, Rate: radio.LegacyRate(54000)}, hwsimEchoFail},
		{radio.TxStatus{Acked: true, Rate: radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW20}}, hwsimEchoMCS},
		{radio.TxStatus{Acked: true, Rate: radio.Rate{Mode: radio.ModeVHT, MCS: 9, NSS: 1, Bandwidth: radio.BW80, ShortGI: true}}, hwsimEchoVHT},
	}
	for _, tt := range tests {
		if got, want := AppendEcho(nil, tt.st), unhex(t, tt.want); !bytes.Equal(got, want) {
			t.Errorf("AppendEcho(%+v) = %x\nwant %x", tt.st, got, want)
		}
	}
}

// rates returns a spread of rates of every mode, all valid in radiotap.
func rates() []radio.Rate {
	rs := []radio.Rate{{}}
	for _, l := range []uint8{2, 4, 11, 22, 12, 108} {
		rs = append(rs, radio.Rate{Mode: radio.ModeLegacy, Legacy: l, Bandwidth: radio.BW20},
			radio.Rate{Mode: radio.ModeLegacy, Legacy: l, Bandwidth: radio.BW20, ShortPre: true})
	}
	for _, m := range []uint8{0, 7, 15, 31} {
		for _, bw := range []radio.Bandwidth{radio.BW20, radio.BW40} {
			rs = append(rs, radio.Rate{Mode: radio.ModeHT, MCS: m, Bandwidth: bw},
				radio.Rate{Mode: radio.ModeHT, MCS: m, Bandwidth: bw, ShortGI: true, LDPC: true})
		}
	}
	for _, m := range []uint8{0, 9} {
		for _, bw := range []radio.Bandwidth{radio.BW20, radio.BW40, radio.BW80, radio.BW160} {
			rs = append(rs, radio.Rate{Mode: radio.ModeVHT, MCS: m, NSS: 2, Bandwidth: bw, ShortGI: true},
				radio.Rate{Mode: radio.ModeVHT, MCS: m, NSS: 8, Bandwidth: bw, LDPC: true})
		}
	}
	return rs
}

func TestRxRoundTrip(t *testing.T) {
	for _, r := range rates() {
		for _, rx := range []radio.RxInfo{
			{Rate: r, Freq: 2437},
			{Rate: r, Freq: 5180, TSFT: 1 << 40, HasTSFT: true, Signal: -91, HasSignal: true, Antenna: 1, FCSIncl: true},
			{Rate: r, Freq: 5955, BadFCS: true, DataPad: true, AMPDU: true, AMPDURef: 0xdeadbeef, HasTSFT: true},
		} {
			b := AppendRx(nil, rx)
			var got radio.RxInfo
			n, echo, err := Parse(b, &got, nil)
			if err != nil || n != len(b) || echo {
				t.Fatalf("Parse(AppendRx(%+v)) = %d, %v, %v", rx, n, echo, err)
			}
			if got != rx {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, rx)
			}
		}
	}
}

func TestEchoRoundTrip(t *testing.T) {
	for _, r := range rates() {
		// What the kernel can report: no preamble, no LDPC.
		r.ShortPre, r.LDPC = false, false
		for _, st := range []radio.TxStatus{
			{Acked: true, Rate: r},
			{Acked: false, Flags: radio.TxFail, Retries: 10, Rate: r},
			{Acked: true, Flags: radio.TxRTS | radio.TxCTS, Retries: 1, Rate: r},
		} {
			b := AppendEcho(nil, st)
			var got radio.TxStatus
			n, echo, err := Parse(b, nil, &got)
			if err != nil || n != len(b) || !echo {
				t.Fatalf("Parse(AppendEcho(%+v)) = %d, %v, %v", st, n, echo, err)
			}
			if got != st {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, st)
			}
		}
	}
}

func TestEncodeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race; make norace runs this test without it")
	}
	buf := make([]byte, 0, 64)
	p := radio.TxParams{Rate: radio.Rate{Mode: radio.ModeVHT, MCS: 9, NSS: 1, Bandwidth: radio.BW80}, Retries: 2}
	rx := radio.RxInfo{HasTSFT: true, HasSignal: true, Rate: radio.LegacyRate(6000), AMPDU: true}
	st := radio.TxStatus{Rate: radio.Rate{Mode: radio.ModeHT, MCS: 3}}
	for name, f := range map[string]func(){
		"AppendTx":    func() { buf = AppendTx(buf[:0], p) },
		"TxHeaderLen": func() { _ = TxHeaderLen(p) },
		"AppendRx":    func() { buf = AppendRx(buf[:0], rx) },
		"AppendEcho":  func() { buf = AppendEcho(buf[:0], st) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times", name, n)
		}
	}
}

func BenchmarkAppendTx(b *testing.B) {
	for _, bc := range []struct {
		name string
		p    radio.TxParams
	}{
		{"legacy", radio.TxParams{Rate: radio.LegacyRate(54000), Retries: 3}},
		{"vht", radio.TxParams{Rate: radio.Rate{Mode: radio.ModeVHT, MCS: 9, NSS: 2, Bandwidth: radio.BW80}, Flags: radio.TxNoSeqNo}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 64)
			for b.Loop() {
				buf = AppendTx(buf[:0], bc.p)
			}
		})
	}
}

// TestTxHeaderLenTable: the precomputed TX header lengths are what the
// field walk over each presence word gives, for every rate mode.
func TestTxHeaderLenTable(t *testing.T) {
	for mode := range radio.Mode(8) {
		for _, legacy := range []uint8{0, 12} {
			for _, retries := range []uint8{0, 1, 7} {
				p := radio.TxParams{Rate: radio.Rate{Mode: mode, Legacy: legacy}, Retries: retries}
				if got, want := TxHeaderLen(p), sizeOf(txPresent(p)); got != want {
					t.Errorf("%+v: TxHeaderLen %d, want %d", p, got, want)
				}
			}
		}
	}
}

// TestTxHeadersFit: every layout's header fits the one TxHeaders keeps.
func TestTxHeadersFit(t *testing.T) {
	for _, n := range txLens {
		if n > maxTxLen {
			t.Errorf("a %d-byte TX header does not fit TxHeaders' %d bytes", n, maxTxLen)
		}
	}
}

// TestTxHeaders: TxHeaders.Append writes what AppendTx does, through runs
// of the same parameters and changes of any field, and allocates nothing
// into a buffer with room.
func TestTxHeaders(t *testing.T) {
	ps := []radio.TxParams{
		{Rate: radio.LegacyRate(54000)},
		{Rate: radio.LegacyRate(54000)},
		{Rate: radio.LegacyRate(54000), Retries: 3},
		{Rate: radio.LegacyRate(54000), Retries: 3, Flags: radio.TxNoAck},
		{Rate: radio.LegacyRate(6000)},
		{Rate: radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW20, ShortGI: true}},
		{Rate: radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW40, ShortGI: true}},
		{Rate: radio.Rate{Mode: radio.ModeVHT, MCS: 3, NSS: 2, Bandwidth: radio.BW160}, Retries: 2, Flags: radio.TxOrder},
		{Rate: radio.Rate{Mode: radio.ModeVHT, MCS: 3, NSS: 2, Bandwidth: radio.BW160}, Retries: 2, Flags: radio.TxOrder},
		{},
	}
	var c TxHeaders
	for i, p := range ps {
		got := c.Append([]byte{0xee}, p)
		if want := AppendTx([]byte{0xee}, p); !bytes.Equal(got, want) {
			t.Errorf("frame %d, %+v: Append = %x, want %x", i, p, got, want)
		}
	}
	if raceEnabled {
		return // allocation counts: make norace
	}
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { c.Append(buf, ps[0]); c.Append(buf, ps[7]) }); n != 0 {
		t.Errorf("%.1f allocations per Append, want 0", n)
	}
}
