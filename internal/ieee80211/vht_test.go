package ieee80211

import (
	"bytes"
	"testing"
)

// hwsimVHTCap is a mac80211_hwsim station's VHT Capabilities body: 11454
// octet MPDUs, 160 MHz, RX LDPC, SGI80/160, TX STBC, RX STBC 4, SU/MU
// beamformer and beamformee, A-MPDU exponent 7, MCS 0-9 for 8 streams.
const hwsimVHTCap = "f6799b0faaaa0000aaaa0000"

// hostapdVHTOper80 is hostapd's VHT Operation for channel 36, 80 MHz
// (centre 42), basic MCS 0-7 of one stream.
const hostapdVHTOper80 = "012a00fcff"

func TestVHTCapView(t *testing.T) {
	c, err := ParseVHTCap(unhex(t, hwsimVHTCap))
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxMPDU() != 11454 || c.MaxWidth() != 160 || !c.LDPC() || !c.SGI80() || !c.SGI160() {
		t.Errorf("info %#x mpdu %d width %d", c.Info(), c.MaxMPDU(), c.MaxWidth())
	}
	for nss := 1; nss <= 8; nss++ {
		if c.RxMaxMCS(nss) != 9 {
			t.Errorf("nss %d: %d", nss, c.RxMaxMCS(nss))
		}
	}
	if c.RxMaxMCS(0) != -1 || c.RxMaxMCS(9) != -1 || c.RxHighest() != 0 || c.TxMCSMap() != 0xaaaa {
		t.Errorf("map edges")
	}
	if _, err := ParseVHTCap(make([]byte, 11)); err != ErrBody {
		t.Errorf("short: %v", err)
	}
}

func TestVHTMap(t *testing.T) {
	if VHTMap(1) != 0xfffe || VHTMap(2) != 0xfffa || VHTMap(8) != 0xaaaa || VHTMap(0) != 0xffff {
		t.Errorf("maps %#x %#x %#x", VHTMap(1), VHTMap(2), VHTMap(8))
	}
	m := uint16(VHTMCS07 | VHTMCS08<<2 | VHTMCSNone<<4 | 0xffc0)
	if VHTMapMaxMCS(m, 1) != 7 || VHTMapMaxMCS(m, 2) != 8 || VHTMapMaxMCS(m, 3) != -1 {
		t.Errorf("decode")
	}
}

func TestOurVHTCap(t *testing.T) {
	s := VHTPHY{Streams: 2, Width: 80, SGI80: true, SGI160: true}.Cap()
	c, _ := ParseVHTCap(AppendVHTCap(nil, s)[2:])
	if c.MaxMPDU() != 3895 || c.MaxWidth() != 80 || !c.SGI80() || c.SGI160() || c.LDPC() {
		t.Errorf("80 MHz: info %#x", c.Info())
	}
	beam := uint32(VHTCapSUBeamformer | VHTCapSUBeamformee | VHTCapMUBeamformer | VHTCapMUBeamformee)
	if c.Info()&(beam|VHTCapTxSTBC|VHTCapRxSTBCMask) != 0 || c.Info()>>VHTCapMaxAMPDUShift != 0 {
		t.Errorf("promises beyond injection: %#x", c.Info())
	}
	if c.RxMaxMCS(2) != 9 || c.RxMaxMCS(3) != -1 || c.TxMCSMap() != c.RxMCSMap() {
		t.Errorf("map %#x", c.RxMCSMap())
	}
	s = VHTPHY{Streams: 1, Width: 160, SGI160: true, LDPC: true}.Cap()
	if s.Info&VHTCapWidthMask != VHTCapWidth160 || s.Info&VHTCapSGI160 == 0 || s.Info&VHTCapRxLDPC == 0 {
		t.Errorf("160 MHz: %#x", s.Info)
	}
	for _, n := range []int{0, 3895, 7991, 11454, 5000} {
		c, _ := ParseVHTCap(AppendVHTCap(nil, VHTPHY{Streams: 1, Width: 80, MaxMPDU: n}.Cap())[2:])
		if want := max(n, 3895); n == 5000 && c.MaxMPDU() != 3895 || n != 5000 && c.MaxMPDU() != want {
			t.Errorf("MaxMPDU %d: announced %d", n, c.MaxMPDU())
		}
	}
}

func TestVHTOper(t *testing.T) {
	o, err := ParseVHTOper(unhex(t, hostapdVHTOper80))
	if err != nil {
		t.Fatal(err)
	}
	if o.Width() != 80 || o.CCFS0() != 42 || o.CCFS1() != 0 || o.BasicMCSMap() != 0xfffc {
		t.Errorf("%+v", o.Spec())
	}
	if got := AppendVHTOper(nil, NewVHTOper(80, 36, 42)); !bytes.Equal(got[2:], unhex(t, hostapdVHTOper80)) {
		t.Errorf("ours %x", got)
	}
	for _, c := range []struct {
		width           int
		primary, center uint8
		w, ccfs0, ccfs1 uint8
		decoded         int
	}{
		{20, 36, 36, 0, 0, 0, 0},
		{40, 36, 38, 0, 0, 0, 0},
		{160, 36, 50, 1, 42, 50, 160},
		{160, 64, 50, 1, 58, 50, 160},
	} {
		s := NewVHTOper(c.width, c.primary, c.center)
		if s.Width != c.w || s.CCFS0 != c.ccfs0 || s.CCFS1 != c.ccfs1 {
			t.Errorf("%+v: %+v", c, s)
		}
		o, _ := ParseVHTOper(AppendVHTOper(nil, s)[2:])
		if o.Width() != c.decoded {
			t.Errorf("%+v: decoded width %d", c, o.Width())
		}
	}
	// The deprecated encodings and 80+80.
	for b, w := range map[[5]byte]int{{2, 50, 0}: 160, {3, 42, 106}: 160, {1, 42, 106}: 160, {1, 42, 58}: 80, {9, 0, 0}: 0} {
		if o, _ := ParseVHTOper(b[:]); o.Width() != w {
			t.Errorf("%x: %d want %d", b, o.Width(), w)
		}
	}
}

// FuzzVHTElements: accepted bodies re-encode exactly and decode in range.
func FuzzVHTElements(f *testing.F) {
	f.Add(unhex(f, hwsimVHTCap))
	f.Add(unhex(f, hostapdVHTOper80))
	f.Add([]byte{1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		if c, err := ParseVHTCap(b); err == nil {
			if got := AppendVHTCap(nil, c.Spec()); !bytes.Equal(got[2:], b[:vhtCapLen]) {
				t.Fatalf("VHT cap %x -> %x", b, got)
			}
			for nss := 0; nss <= 9; nss++ {
				if m := c.RxMaxMCS(nss); m != -1 && (m < 7 || m > 9) {
					t.Fatalf("nss %d mcs %d", nss, m)
				}
			}
			if w := c.MaxWidth(); w != 80 && w != 160 {
				t.Fatalf("width %d", w)
			}
		}
		if o, err := ParseVHTOper(b); err == nil {
			if got := AppendVHTOper(nil, o.Spec()); !bytes.Equal(got[2:], b[:vhtOperLen]) {
				t.Fatalf("VHT oper %x -> %x", b, got)
			}
			if w := o.Width(); w != 0 && w != 80 && w != 160 {
				t.Fatalf("width %d", w)
			}
		}
	})
}

func TestHTVHTZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race; make norace runs this test without it")
	}
	buf := make([]byte, 0, 256)
	ht, vht := HTPHY{Streams: 2, Width40: true}.Cap(), VHTPHY{Streams: 2, Width: 80}.Cap()
	n := testing.AllocsPerRun(100, func() {
		b := AppendHTCap(buf[:0], ht)
		b = AppendHTOper(b, NewHTOper(36, HTOperSecondaryAbove))
		b = AppendVHTCap(b, vht)
		b = AppendVHTOper(b, NewVHTOper(80, 36, 42))
		e := Elements(b)
		c, _ := e.HTCap()
		o, _ := e.HTOper()
		v, _ := e.VHTCap()
		vo, _ := e.VHTOper()
		_, _, _, _ = c.Spec(), o.Spec(), v.RxMaxMCS(2), vo.Width()
		_ = HTPHY{Streams: 2}.Cap()
	})
	if n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
