package radiotap

import (
	"testing"

	"github.com/airq/airq/radio"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// decodeGP decodes b with gopacket's radiotap layer. The payload carries a
// dummy FCS and FLAGS is not touched: gopacket invents an FCS when F_FCS is
// absent, which we do not want to test here.
func decodeGP(t *testing.T, b []byte) *layers.RadioTap {
	t.Helper()
	var rt layers.RadioTap
	if err := rt.DecodeFromBytes(b, gopacket.NilDecodeFeedback); err != nil {
		t.Fatalf("gopacket: %v", err)
	}
	return &rt
}

func TestGopacketTx(t *testing.T) {
	for _, r := range rates() {
		p := radio.TxParams{Rate: r, Flags: radio.TxNoAck, Retries: 4}
		b := AppendTx(nil, p)
		rt := decodeGP(t, b)
		v := rt.RadioTapValues[0]
		if int(rt.Length) != len(b) || uint16(v.TxFlags) != p.Flags || v.DataRetries != p.Retries {
			t.Errorf("%+v: gopacket len=%d txflags=%v retries=%d", p, rt.Length, v.TxFlags, v.DataRetries)
		}
		switch r.Mode {
		case radio.ModeLegacy:
			if uint8(v.Rate) != r.Legacy {
				t.Errorf("rate %v, want %d", v.Rate, r.Legacy)
			}
		case radio.ModeHT:
			if v.MCS.MCS != r.MCS || v.MCS.Flags.ShortGI() != r.ShortGI || (v.MCS.Flags.Bandwidth() == 1) != (r.Bandwidth == radio.BW40) {
				t.Errorf("mcs %v, want %+v", v.MCS, r)
			}
		case radio.ModeVHT:
			u := v.VHT.MCSNSS[0]
			if uint8(u>>4) != r.MCS || uint8(u&15) != r.NSS || v.VHT.Bandwidth != vhtBWCode(r.Bandwidth) || v.VHT.Flags.SGI() != r.ShortGI {
				t.Errorf("vht %+v, want %+v", v.VHT, r)
			}
		}
	}
}

func TestGopacketRx(t *testing.T) {
	for _, r := range rates() {
		rx := radio.RxInfo{Rate: r, Freq: 5180, TSFT: 12345, HasTSFT: true, Signal: -42, HasSignal: true, Antenna: 1, FCSIncl: true}
		b := AppendRx(nil, rx)
		rt := decodeGP(t, b)
		v := rt.RadioTapValues[0]
		if int(rt.Length) != len(b) || v.TSFT != rx.TSFT || uint16(v.ChannelFrequency) != rx.Freq ||
			v.DBMAntennaSignal != rx.Signal || v.Antenna != rx.Antenna || !v.Flags.FCS() {
			t.Errorf("%+v: gopacket %+v", rx, v)
		}
		if r.Mode == radio.ModeHT && v.MCS.MCS != r.MCS {
			t.Errorf("mcs %v, want %d", v.MCS, r.MCS)
		}
	}
	// And the reverse: the kernel's own bytes decode the same in both.
	for _, h := range []string{hwsimRxLegacy, hwsimRxHT, hwsimEcho, hwsimEchoMCS, hwsimEchoVHT} {
		b := unhex(t, h)
		var rx radio.RxInfo
		if _, _, err := Parse(b, &rx, nil); err != nil {
			t.Fatal(err)
		}
		rt := decodeGP(t, b)
		if uint16(rt.RadioTapValues[0].ChannelFrequency) != rx.Freq {
			t.Errorf("%s: freq %v vs %d", h, rt.RadioTapValues[0].ChannelFrequency, rx.Freq)
		}
	}
}
