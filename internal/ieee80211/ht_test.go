package ieee80211

import (
	"bytes"
	"testing"
)

// hwsimHTCap is the HT Capabilities body a mac80211_hwsim station sends in
// its association request (info 0x107e: 20/40, SMPS disabled, greenfield,
// SGI20/40, DSSS/CCK in 40 MHz; A-MPDU 64 KiB with 8 µs spacing; MCS 0-15).
const hwsimHTCap = "7e101bffff000000000000000000000100000000000000000000"

// hostapdHTOper is hostapd's HT Operation for channel 36 with HT40+.
const hostapdHTOper = "24050000000000000000000000000000000000000000"

func TestHTCapView(t *testing.T) {
	c, err := ParseHTCap(unhex(t, hwsimHTCap))
	if err != nil {
		t.Fatal(err)
	}
	if c.Info() != 0x107e || !c.Width40() || !c.SGI20() || !c.SGI40() || c.LDPC() {
		t.Errorf("info %#x width40 %v sgi %v/%v ldpc %v", c.Info(), c.Width40(), c.SGI20(), c.SGI40(), c.LDPC())
	}
	if c.SMPS() != HTCapSMPSDisabled || c.MaxAMSDU() != 3839 || c.MaxAMPDU() != 65535 {
		t.Errorf("smps %#x amsdu %d ampdu %d", c.SMPS(), c.MaxAMSDU(), c.MaxAMPDU())
	}
	if c.MCSMask() != 0xffff || c.Streams() != 2 || !c.MCS(15) || c.MCS(16) || c.MCS(-1) || c.MCS(80) {
		t.Errorf("mask %#x streams %d", c.MCSMask(), c.Streams())
	}
	if c.RxHighest() != 0 || c.AMPDUParams() != 0x1b {
		t.Errorf("highest %d ampdu %#x", c.RxHighest(), c.AMPDUParams())
	}
	if _, err := ParseHTCap(make([]byte, 25)); err != ErrBody {
		t.Errorf("short body: %v", err)
	}
}

func TestHTCapRoundTrip(t *testing.T) {
	body := unhex(t, hwsimHTCap)
	c, _ := ParseHTCap(body)
	got := AppendHTCap(nil, c.Spec())
	if !bytes.Equal(got[2:], body) || got[0] != ElemHTCap || int(got[1]) != len(body) {
		t.Fatalf("re-encoded %x\n        was %x", got[2:], body)
	}
	ies := Elements(AppendSSID(got, "x"))
	if v, ok := ies.HTCap(); !ok || v.Spec() != c.Spec() {
		t.Fatalf("Elements.HTCap: %v", ok)
	}
}

// TestOurHTCap: what airq announces matches what injection can deliver.
func TestOurHTCap(t *testing.T) {
	s := HTPHY{Streams: 2, Width40: true, SGI20: true, SGI40: true}.Cap()
	c, _ := ParseHTCap(AppendHTCap(nil, s)[2:])
	if c.SMPS() != HTCapSMPSDisabled || c.MaxAMSDU() != 3839 || c.AMPDUParams() != 0 || s.TxBF != 0 || s.Ext != 0 {
		t.Errorf("promises beyond injection: %+v", s)
	}
	if !c.Width40() || !c.SGI40() || c.Streams() != 2 || c.MCSMask() != 0xffff || s.TxMCS != HTTxMCSSetDefined {
		t.Errorf("rates: %+v", s)
	}
	if c.Info()&(HTCapTxSTBC|HTCapRxSTBCMask|HTCapDelayedBA|HTCapLDPC) != 0 {
		t.Errorf("info %#x", c.Info())
	}
	// On a 20 MHz channel neither the 40 MHz bit nor SGI40 is announced.
	s = HTPHY{Streams: 1, SGI20: true, SGI40: true, LDPC: true, MaxAMSDU: 7935}.Cap()
	if s.Info&(HTCapWidth40|HTCapSGI40) != 0 || s.Info&HTCapLDPC == 0 || s.Info&HTCapMaxAMSDU7935 == 0 ||
		s.RxMCS != [10]byte{0xff} {
		t.Errorf("20 MHz: %+v", s)
	}
}

func TestHTOper(t *testing.T) {
	o, err := ParseHTOper(unhex(t, hostapdHTOper))
	if err != nil {
		t.Fatal(err)
	}
	if o.PrimaryChannel() != 36 || o.SecondaryOffset() != HTOperSecondaryAbove || !o.AnyWidth() || o.Protection() != 0 {
		t.Errorf("primary %d offset %d any %v", o.PrimaryChannel(), o.SecondaryOffset(), o.AnyWidth())
	}
	got := AppendHTOper(nil, NewHTOper(36, HTOperSecondaryAbove))
	if !bytes.Equal(got[2:], unhex(t, hostapdHTOper)) {
		t.Errorf("ours %x", got)
	}
	if s := NewHTOper(6, HTOperSecondaryNone); s.Info[0] != 0 || s.Primary != 6 {
		t.Errorf("20 MHz: %+v", s)
	}
	if s := NewHTOper(40, HTOperSecondaryBelow); s.Info[0] != HTOperSecondaryBelow|HTOperAnyWidth {
		t.Errorf("HT40-: %+v", s)
	}
	if _, err := ParseHTOper(make([]byte, 21)); err != ErrBody {
		t.Errorf("short: %v", err)
	}
	b := make([]byte, 22)
	b[2], b[3] = 0xe0, 0x1f // CCFS2 = 0xff
	if o, _ := ParseHTOper(b); o.CCFS2() != 0xff {
		t.Errorf("ccfs2 %d", o.CCFS2())
	}
}

// FuzzHTElements: every accepted HT Capabilities or Operation body
// re-encodes to its first defined octets, and the accessors stay in range.
func FuzzHTElements(f *testing.F) {
	f.Add(unhex(f, hwsimHTCap))
	f.Add(unhex(f, hostapdHTOper))
	f.Add(AppendHTCap(nil, HTPHY{Streams: 4, Width40: true, SGI40: true}.Cap())[2:])
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		if c, err := ParseHTCap(b); err == nil {
			if got := AppendHTCap(nil, c.Spec()); !bytes.Equal(got[2:], b[:htCapLen]) {
				t.Fatalf("HT cap %x -> %x", b, got)
			}
			if n := c.Streams(); n < 0 || n > 4 || (n > 0) != (c.MCSMask() != 0) {
				t.Fatalf("streams %d mask %#x", n, c.MCSMask())
			}
			if a := c.MaxAMSDU(); a != 3839 && a != 7935 {
				t.Fatalf("amsdu %d", a)
			}
		}
		if o, err := ParseHTOper(b); err == nil {
			if got := AppendHTOper(nil, o.Spec()); !bytes.Equal(got[2:], b[:htOperLen]) {
				t.Fatalf("HT oper %x -> %x", b, got)
			}
			_, _, _, _ = o.PrimaryChannel(), o.SecondaryOffset(), o.AnyWidth(), o.CCFS2()
		}
		if len(b) <= 255 {
			ies := Elements(AppendElement(AppendElement(nil, ElemHTCap, b...), ElemHTOper, b...))
			c, okc := ies.HTCap()
			o, oko := ies.HTOper()
			if okc != (len(b) >= htCapLen) || oko != (len(b) >= htOperLen) || okc && !bytes.Equal(c, b) || oko && !bytes.Equal(o, b) {
				t.Fatalf("Elements: %v %v", okc, oko)
			}
		}
	})
}
