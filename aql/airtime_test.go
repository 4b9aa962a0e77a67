package aql

import (
	"testing"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

func vht(bw radio.Bandwidth, nss, mcs uint8, sgi bool) radio.Rate {
	return radio.Rate{Mode: radio.ModeVHT, Bandwidth: bw, NSS: nss, MCS: mcs, ShortGI: sgi}
}

func ht(bw radio.Bandwidth, mcs uint8, sgi bool) radio.Rate {
	return radio.Rate{Mode: radio.ModeHT, Bandwidth: bw, MCS: mcs, ShortGI: sgi}
}

func legacy(kbps int, short bool) radio.Rate {
	r := radio.LegacyRate(kbps)
	r.ShortPre = short
	return r
}

// Reference values: shared/reference/mac80211.md C.4 (skb->len 1500).
func TestKernelExpectedReference(t *testing.T) {
	tests := []struct {
		name          string
		rate          radio.Rate
		agg, charged  uint32
		nonAgg        uint32
		checkNonAgg   bool
		checkAggCharg bool
	}{
		{"VHT80 1SS MCS9 SGI", vht(radio.BW80, 1, 9, true), 29, 28, 68, true, true},
		{"VHT80 2SS MCS9 SGI", vht(radio.BW80, 2, 9, true), 15, 12, 58, true, true},
		{"HT20 1SS MCS7 LGI", ht(radio.BW20, 7, false), 191, 188, 229, true, true},
		{"VHT20 1SS MCS0 LGI", vht(radio.BW20, 1, 0, false), 1912, 1912, 1932, true, true},
		{"1M DSSS long", legacy(1000, false), 12506, 4092, 12506, true, true},
		{"1M DSSS short", legacy(1000, true), 12410, 4092, 12410, true, true},
		{"6M OFDM", legacy(6000, false), 2086, 2084, 2086, true, true},
		{"54M OFDM", legacy(54000, false), 263, 260, 263, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := KernelExpected(tc.rate, 1500, true); got != tc.agg {
				t.Errorf("aggregated = %d, want %d", got, tc.agg)
			}
			if got := KernelCharge(tc.rate, 1500, true); got != tc.charged {
				t.Errorf("charged = %d, want %d", got, tc.charged)
			}
			if got := KernelExpected(tc.rate, 1500, false); got != tc.nonAgg {
				t.Errorf("non-aggregated = %d, want %d", got, tc.nonAgg)
			}
		})
	}
}

// Table durations quoted in mac80211.md C.4 (1/1024 µs per 1024 bytes).
func TestKernelTable(t *testing.T) {
	tests := []struct {
		rate radio.Rate
		want uint32
	}{
		{vht(radio.BW80, 1, 9, true), 19360},
		{vht(radio.BW80, 2, 9, true), 9680},
		{ht(radio.BW20, 7, false), 129056},
		{vht(radio.BW20, 1, 0, false), 1290528},
	}
	for _, tc := range tests {
		if got, _ := kernRate(tc.rate); got != tc.want {
			t.Errorf("%+v: duration %d, want %d", tc.rate, got, tc.want)
		}
	}
}

func TestKernelEdges(t *testing.T) {
	// Without the +38: ieee80211_calc_rx_airtime(len=1500) at 1 Mbit/s.
	if got := KernelRxAirtime(legacy(1000, false), 1500); got != 12202 {
		t.Errorf("rx airtime = %d, want 12202", got)
	}
	// The 4 µs floor of the aggregated path.
	if got := KernelExpected(vht(radio.BW160, 4, 9, true), 0, true); got != 4 {
		t.Errorf("tiny frame = %d, want 4", got)
	}
	// No usable rate: the kernel accounts nothing.
	for _, r := range []radio.Rate{{}, vht(radio.BW80, 5, 0, false), legacy(7000, false), ht(radio.BW80, 0, false)} {
		if got := KernelExpected(r, 1500, true); got != 0 {
			t.Errorf("%+v = %d, want 0", r, got)
		}
	}
	// u32 wrap: HT20 MCS0 LGI, 1290528 * (4000+38) > 2^32.
	r := ht(radio.BW20, 0, false)
	want := uint32(1290528*uint64(4038)%(1<<32))/1024/1024 + 40
	if got := KernelExpected(r, 4000, false); got != want {
		t.Errorf("wrapped = %d, want %d", got, want)
	}
	if got := KernelTxTimeEst(4095); got != 4092 {
		t.Errorf("clamp = %d", got)
	}
}

// Exact exchange airtimes, worked by hand from the 802.11 TXTIME formulas.
func TestAirtimeExact(t *testing.T) {
	five := NewEstimator(DefaultChannel())
	b := Channel{Band2GHz: true, LongSlot: true, EDCA: DefaultEDCA(31)}
	twoLong := NewEstimator(b)
	g := Channel{Band2GHz: true, EDCA: DefaultEDCA(15)}
	twoShort := NewEstimator(g)
	tests := []struct {
		name string
		e    *Estimator
		rate radio.Rate
		ac   ieee80211.AC
		n    int
		want uint32
	}{
		// 5 GHz BE: AIFS 16+3*9=43, backoff 15*9/2=67.5->68.
		// VHT preamble 40; PSDU 4+1500 -> 12054 bits / 1560 = 8 sym,
		// SGI 28.8->32; SIFS 16 + ACK@24 (20+2*4=28).
		{"VHT80 1SS MCS9 SGI BE", five, vht(radio.BW80, 1, 9, true), ieee80211.ACBE, 1500, 43 + 68 + 40 + 32 + 16 + 28},
		// VO: AIFS 16+2*9=34, backoff 3*9/2=13.5->14.
		{"VHT80 1SS MCS9 SGI VO", five, vht(radio.BW80, 1, 9, true), ieee80211.ACVO, 1500, 34 + 14 + 40 + 32 + 16 + 28},
		// 2.4 GHz 802.11b: AIFS 10+3*20=70, backoff 31*20/2=310,
		// 192 + 12000 + SIFS 10 + ACK (192+112).
		{"1M DSSS long BE", twoLong, legacy(1000, false), ieee80211.ACBE, 1500, 70 + 310 + 192 + 12000 + 10 + 304},
		// 11 Mbit/s short preamble: 96 + ceil(12000/11)=1091, ACK 96+11.
		{"11M CCK short BE", twoLong, legacy(11000, true), ieee80211.ACBE, 1500, 70 + 310 + 96 + 1091 + 10 + 107},
		// 6 Mbit/s 5 GHz BK: AIFS 16+63, backoff 68; 20 + 4*ceil(12022/24)=501 sym; ACK@6 44.
		{"6M OFDM BK", five, legacy(6000, false), ieee80211.ACBK, 1500, 79 + 68 + 20 + 2004 + 16 + 44},
		// 54 Mbit/s 2.4 GHz short slot VI: AIFS 10+18, backoff 7*9/2=31.5->32;
		// 20 + 4*ceil(12022/216)=56 sym; +6 ext +10 SIFS + ACK@24 28 + 6 ext.
		{"54M ERP VI", twoShort, legacy(54000, false), ieee80211.ACVI, 1500, 28 + 32 + 20 + 224 + 6 + 10 + 28 + 6},
		// HT20 MCS7 LGI: preamble 36; 12022/260 = 47 sym = 188; ACK@24.
		{"HT20 MCS7 BE", five, ht(radio.BW20, 7, false), ieee80211.ACBE, 1500, 111 + 36 + 188 + 16 + 28},
		// HT40 MCS15 SGI (2SS): preamble 40; 12022/1080 = 12 sym -> 10.8 -> 44 µs.
		{"HT40 MCS15 SGI BE", five, ht(radio.BW40, 15, true), ieee80211.ACBE, 1500, 111 + 40 + 44 + 16 + 28},
		// VHT20 3SS MCS9: NDBPS 1040 exactly; preamble 36+16; 12054/1040 = 12 sym.
		{"VHT20 3SS MCS9", five, vht(radio.BW20, 3, 9, false), ieee80211.ACBE, 1500, 111 + 52 + 48 + 16 + 28},
		// LDPC has no tail bits: HT20 MCS7 1493 B is 11960 bits = 46 symbols
		// exactly; BCC's 6 tail bits need a 47th.
		{"HT20 MCS7 BCC boundary", five, ht(radio.BW20, 7, false), ieee80211.ACBE, 1493, 111 + 36 + 4*47 + 16 + 28},
		{"HT20 MCS7 LDPC boundary", five, radio.Rate{Mode: radio.ModeHT, Bandwidth: radio.BW20, MCS: 7, LDPC: true}, ieee80211.ACBE, 1493, 111 + 36 + 4*46 + 16 + 28},
		// No rate: the lowest basic rate, 6 Mbit/s on 5 GHz.
		{"ModeNone 5 GHz = 6M", five, radio.Rate{}, ieee80211.ACBE, 100, 111 + 20 + 4*((16+800+6+23)/24) + 16 + 44},
		{"invalid VHT20 1SS MCS9", five, vht(radio.BW20, 1, 9, false), ieee80211.ACBE, 1500, 0},
		{"invalid legacy", five, legacy(7000, false), ieee80211.ACBE, 1500, 0},
		{"invalid HT MCS32", five, ht(radio.BW20, 32, false), ieee80211.ACBE, 1500, 0},
		{"invalid AC", five, legacy(6000, false), 4, 1500, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.e.Airtime(tc.rate, tc.ac, tc.n); got != tc.want {
				t.Errorf("Airtime = %d, want %d", got, tc.want)
			}
		})
	}
	if got := Airtime(vht(radio.BW80, 1, 9, true), ieee80211.ACBE, 1500); got != 227 {
		t.Errorf("default Airtime = %d, want 227", got)
	}
}

func TestAckTime(t *testing.T) {
	e := NewEstimator(DefaultChannel())
	if got := e.AckTime(vht(radio.BW80, 1, 9, true)); got != 16+28 {
		t.Errorf("VHT ack = %d", got)
	}
	if got := e.AckTime(legacy(6000, false)); got != 16+44 {
		t.Errorf("6M ack = %d", got)
	}
}

// Airtime grows with length and an A-MSDU pays access and ACK once.
func TestAirtimeMonotoneAndAMSDU(t *testing.T) {
	for _, r := range []radio.Rate{legacy(1000, false), legacy(24000, false), ht(radio.BW40, 31, true), vht(radio.BW160, 4, 9, true)} {
		prev := uint32(0)
		for n := 0; n < 12000; n += 7 {
			a := Airtime(r, ieee80211.ACBE, n)
			if a < prev {
				t.Fatalf("%+v: airtime(%d)=%d < %d", r, n, a, prev)
			}
			prev = a
		}
	}
	if got := AMSDUSubframeLen(1, false); got != 16 {
		t.Errorf("padded subframe = %d", got)
	}
	if got := AMSDUSubframeLen(1, true); got != 15 {
		t.Errorf("last subframe = %d", got)
	}
	// Two 1508-byte MSDUs: 26 + (14+1508=1522->1524) + 1522 + 4.
	if got := AMSDULen(26, []int{1508, 1508}); got != 26+1524+1522+4 {
		t.Errorf("AMSDULen = %d", got)
	}
	r := vht(radio.BW80, 2, 9, true)
	one := Airtime(r, ieee80211.ACBE, 26+1508+4)
	both := Airtime(r, ieee80211.ACBE, AMSDULen(26, []int{1508, 1508}))
	if both >= 2*one {
		t.Errorf("A-MSDU %d not cheaper than two MPDUs %d", both, 2*one)
	}
}
