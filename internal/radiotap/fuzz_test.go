package radiotap

import (
	"testing"

	"github.com/airq/airq/radio"
)

// FuzzParse checks that Parse never panics, that a header it accepts lies
// within the input, and that re-encoding what it read in the kernel's layout
// parses back to the same values.
func FuzzParse(f *testing.F) {
	for _, h := range []string{hwsimRxLegacy, hwsimRxHT, hwsimEcho, hwsimEchoFail, hwsimEchoMCS, hwsimEchoVHT,
		"00 00 26 00 2b 40 00 a0 20 08 00 a0 20 08 00 00 01 00 00 00 00 00 00 00 10 00 3c 14 40 01 c4 00 00 00 c2 00 c0 01",
		"00 00 1c 00 02 00 00 c0 01 00 00 a0 20 00 00 00 10 00 00 11 22 05 03 00 aa bb cc d0"} {
		f.Add(unhex(f, h))
	}
	f.Add(unhex(f, heHeader("e0 40", "02 00", "00 2b", "12 00", "02 00")))
	f.Fuzz(func(t *testing.T, b []byte) {
		var rx radio.RxInfo
		var tx radio.TxStatus
		n, echo, err := Parse(b, &rx, &tx)
		if err != nil {
			if n != 0 {
				t.Fatalf("error with hdrLen %d", n)
			}
			return
		}
		if n < 8 || n > len(b) {
			t.Fatalf("hdrLen %d outside [8, %d]", n, len(b))
		}
		if echo {
			if tx.Acked != (tx.Flags&radio.TxFail == 0) {
				t.Fatalf("Acked %v with flags %#x", tx.Acked, tx.Flags)
			}
			return
		}
		// Noise is never written by mac80211; the rest must survive.
		rx.Noise, rx.HasNoise = 0, false
		var again radio.RxInfo
		if _, _, err := Parse(AppendRx(nil, rx), &again, nil); err != nil || again != rx {
			t.Fatalf("re-encode: %v\n got %+v\nwant %+v", err, again, rx)
		}
	})
}

// FuzzAppendTx checks that every TX header parses back to its parameters,
// less a short preamble, which injection cannot ask for.
func FuzzAppendTx(f *testing.F) {
	f.Add(uint8(1), uint8(108), uint8(0), uint8(0), uint8(20), false, false, uint16(0), uint8(0))
	f.Add(uint8(2), uint8(0), uint8(7), uint8(0), uint8(40), true, true, uint16(8), uint8(3))
	f.Add(uint8(3), uint8(0), uint8(9), uint8(2), uint8(80), true, false, uint16(16), uint8(1))
	f.Fuzz(func(t *testing.T, mode, legacy, mcs, nss, bw uint8, sgi, ldpc bool, flags uint16, retries uint8) {
		r := radio.Rate{Mode: radio.Mode(mode % 4), Bandwidth: radio.BW20}
		switch r.Mode {
		case radio.ModeNone:
			r.Bandwidth = 0
		case radio.ModeLegacy:
			if legacy == 0 {
				legacy = 2
			}
			r.Legacy = legacy
			r.ShortPre = sgi // asked for, never sent: see AppendTx
		case radio.ModeHT:
			r.MCS, r.ShortGI, r.LDPC = mcs, sgi, ldpc
			if bw%2 == 1 {
				r.Bandwidth = radio.BW40
			}
		case radio.ModeVHT:
			r.MCS, r.NSS, r.ShortGI, r.LDPC = mcs%16, nss%8+1, sgi, ldpc
			r.Bandwidth = []radio.Bandwidth{radio.BW20, radio.BW40, radio.BW80, radio.BW160}[bw%4]
		}
		p := radio.TxParams{Rate: r, Flags: flags, Retries: retries}
		b := AppendTx(nil, p)
		if len(b) != TxHeaderLen(p) {
			t.Fatalf("len %d, TxHeaderLen %d", len(b), TxHeaderLen(p))
		}
		var tx radio.TxStatus
		r.ShortPre = false
		if _, echo, err := Parse(b, nil, &tx); err != nil || !echo || tx.Rate != r || tx.Flags != flags || tx.Retries != retries {
			t.Fatalf("Parse(AppendTx(%+v)) = %+v, %v", p, tx, err)
		}
	})
}
