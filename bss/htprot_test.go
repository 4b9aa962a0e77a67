package bss

import (
	"testing"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rate"
)

// TestHTOpMode: hostapd_ht_operation_update's rules, case by case.
func TestHTOpMode(t *testing.T) {
	ht40 := ClassOf(true, rate.Caps{HT: true, HT40: true, Greenfield: true})
	ht20 := ClassOf(true, rate.Caps{HT: true, Greenfield: true})
	for _, c := range []struct {
		name    string
		join    []HTClass
		nonHT   bool // a non-HT BSS heard on the channel
		width40 bool
		want    uint16
	}{
		{"no station", nil, false, true, HTProtNone},
		{"20/40 MHz greenfield HT station", []HTClass{ht40}, false, true, HTProtNone},
		{"non-HT station", []HTClass{{}}, false, false, HTProtMixed | HTOpModeOBSSNoHT},
		{"non-HT station beside a 20 MHz one on 40 MHz", []HTClass{{}, ht20}, false, true, HTProtMixed | HTOpModeOBSSNoHT},
		{"20 MHz HT station on 40 MHz", []HTClass{ht20}, false, true, HTProt20MHz},
		{"20 MHz HT station on 20 MHz", []HTClass{ht20}, false, false, HTProtNone},
		{"20 MHz HT station on 40 MHz with a non-HT BSS heard", []HTClass{ht20}, true, true, HTProt20MHz | HTOpModeOBSSNoHT},
		{"non-HT BSS heard", nil, true, true, HTProtNonMember | HTOpModeOBSSNoHT},
		{"non-greenfield HT station", []HTClass{ClassOf(true, rate.Caps{HT: true, HT40: true})}, false, true, HTOpModeNonGF},
	} {
		var p HTProtection
		p.NonHTBSS = c.nonHT
		for _, j := range c.join {
			p.Join(j)
		}
		if got := p.OpMode(c.width40); got != c.want {
			t.Errorf("%s: operation mode %#x, want %#x", c.name, got, c.want)
		}
		for _, j := range c.join {
			p.Leave(j)
		}
		if p != (HTProtection{NonHTBSS: c.nonHT}) {
			t.Errorf("%s: counts %+v after every station left", c.name, p)
		}
	}
}

// TestClassOfNonHT: a station whose HT is not in use (its BSS's HT off,
// no WMM) is non-HT, whatever its HT Capabilities say.
func TestClassOfNonHT(t *testing.T) {
	if c := ClassOf(false, rate.Caps{HT: true, HT40: true}); c.HT || c.NoGF || c.Only20 {
		t.Errorf("ClassOf(false, ...) = %+v, want non-HT", c)
	}
}

// TestAppendHTOperKeepsTheRest: the operation mode is written into the
// element without touching the channel fields around it.
func TestAppendHTOperKeepsTheRest(t *testing.T) {
	s := ieee80211.NewHTOper(6, ieee80211.HTOperSecondaryAbove)
	s.Info[1], s.Info[2] = 0xff, 0xff // every bit set, CCFS2 too
	b := appendHTOper([]byte{0xdd}, ieee80211.AppendHTOper(nil, s), HTProt20MHz)
	o, err := ieee80211.ParseHTOper(b[3:])
	if err != nil {
		t.Fatal(err)
	}
	if o.OpMode() != HTProt20MHz || o.CCFS2() != 0xff || o.PrimaryChannel() != 6 || o.SecondaryOffset() != ieee80211.HTOperSecondaryAbove || b[0] != 0xdd {
		t.Errorf("element % x: operation mode %#x, CCFS2 %#x", b, o.OpMode(), o.CCFS2())
	}
	if b[5]&0x08 == 0 {
		t.Errorf("element % x: reserved bit 3 of the operation mode cleared", b)
	}
}
