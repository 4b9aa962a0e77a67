package nl80211

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/genetlink/genltest"
	"github.com/mdlayher/netlink"
)

// hwsimUS is the channel list hwsim reports with the US domain applied (the
// flags the regulatory core sets per channel, simplified to what matters).
func hwsimUS() PHY {
	b24 := Band{Index: 0}
	for f := 2412; f <= 2472; f += 5 {
		b24.Channels = append(b24.Channels, ChannelInfo{Freq: f, NoHT40Minus: f < 2432, NoHT40Plus: f > 2452})
	}
	b24.Channels = append(b24.Channels, ChannelInfo{Freq: 2484, Disabled: true})
	b5 := Band{Index: 1}
	for _, f := range []int{5180, 5200, 5220, 5240} {
		b5.Channels = append(b5.Channels, ChannelInfo{Freq: f})
	}
	for _, f := range []int{5260, 5280, 5300, 5320} {
		b5.Channels = append(b5.Channels, ChannelInfo{Freq: f, Radar: true, NoIR: true})
	}
	b5.Channels = append(b5.Channels, ChannelInfo{Freq: 5745, NoIR: true, No80MHz: true})
	return PHY{Name: "phy0", Bands: []Band{b24, b5}}
}

func TestValidateOperating(t *testing.T) {
	p := hwsimUS()
	ok := func(freq int, w Width, above bool) Channel {
		t.Helper()
		ch, err := NewChannel(freq, w, above)
		if err != nil {
			t.Fatalf("NewChannel(%d, %v): %v", freq, w, err)
		}
		return ch
	}
	for _, ch := range []Channel{ok(2412, Width20NoHT, false), ok(2437, Width40, true), ok(5180, Width80, false), ok(5240, Width40, false)} {
		if err := p.ValidateOperating(ch); err != nil {
			t.Errorf("%+v: %v", ch, err)
		}
	}
	for _, c := range []struct {
		ch   Channel
		want string
	}{
		{ok(2484, Width20, false), "channel 14 (2484 MHz): disabled"},
		{ok(5260, Width20, false), "channel 52 (5260 MHz): radar"},
		{ok(5745, Width20, false), "channel 149 (5745 MHz): no initiating radiation"},
		{ok(5745, Width80, false), "80 MHz not allowed"},
		{ok(5260, Width80, false), "channel 52 (5260 MHz): radar"},
		{ok(2412, Width40, false), "HT40- not allowed"},
		{ok(2462, Width40, true), "HT40+ not allowed"},
		{Channel{Freq: 5500}, "not supported by phy0"},
		{Channel{Freq: 5180, Width: Width80, Center1: 5230}, "not a 20 MHz channel"},
	} {
		err := p.ValidateOperating(c.ch)
		var ce *ChannelError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want %q", c.ch, err, c.want)
		}
	}
}

func TestNewChannel(t *testing.T) {
	for _, c := range []struct {
		freq  int
		w     Width
		above bool
		want  int
		subs  []int
	}{
		{2437, Width40, true, 2447, []int{2437, 2457}},
		{2437, Width40, false, 2427, []int{2417, 2437}},
		{5180, Width80, false, 5210, []int{5180, 5200, 5220, 5240}},
		{5240, Width80, false, 5210, nil},
		{5745, Width80, false, 5775, nil},
		{5500, Width160, false, 5570, nil},
		{5955, Width80, false, 5985, nil},
		{6115, Width160, false, 6185, nil}, // channel 33: block 33-61, centre channel 47,
	} {
		ch, err := NewChannel(c.freq, c.w, c.above)
		if err != nil || ch.Center1 != c.want {
			t.Errorf("NewChannel(%d, %v, %v) = %+v, %v; want centre %d", c.freq, c.w, c.above, ch, err, c.want)
		}
		if c.subs != nil && !slices.Equal(ch.Subchannels(), c.subs) {
			t.Errorf("%+v subchannels = %v, want %v", ch, ch.Subchannels(), c.subs)
		}
	}
	if _, err := NewChannel(2412, Width80, false); err == nil {
		t.Error("80 MHz on 2.4 GHz accepted")
	}
}

func TestFreqToChannel(t *testing.T) {
	for f, want := range map[int]int{2412: 1, 2484: 14, 5180: 36, 5825: 165, 5955: 1, 6415: 93, 100: 0} {
		if got := FreqToChannel(f); got != want {
			t.Errorf("FreqToChannel(%d) = %d, want %d", f, got, want)
		}
	}
}

func TestBlockers(t *testing.T) {
	ours := [6]byte{2, 0, 0, 0, 2, 0}
	ifs := []Interface{
		{Index: 3, Name: "wlan0", PHY: 0, Type: IfTypeStation, Up: true},
		{Index: 4, Name: "wlan1", PHY: 0, Type: IfTypeStation, Up: false},
		{Index: 5, Name: "airq0", PHY: 0, Type: IfTypeMonitor},
		{Index: 6, Name: "mon7", PHY: 0, Type: IfTypeMonitor, Addr: ours, Up: true},
		{Index: 7, Name: "mon8", PHY: 0, Type: IfTypeMonitor, Up: true},
		{Index: 8, Name: "wlan2", PHY: 1, Type: IfTypeStation, Up: true},
	}
	bs := Blockers(ifs, 0, ours, "airq")
	var names []string
	for _, b := range bs {
		names = append(names, b.Name)
	}
	if !slices.Equal(names, []string{"wlan0", "airq0", "mon7"}) {
		t.Fatalf("blockers = %v", bs)
	}
	if bs[0].Delete || !bs[1].Delete || !bs[2].Delete {
		t.Errorf("takeover plan: %+v", bs)
	}
	if s := bs[0].String(); !strings.Contains(s, "wlan0 (managed, up)") || !strings.Contains(s, "EBUSY") {
		t.Errorf("String = %q", s)
	}

	var deleted []int
	c := testConn(t, genltest.CheckRequest(testFamily.ID, cmdDelInterface, netlink.Request|netlink.Acknowledge,
		func(greq genetlink.Message, _ netlink.Message) ([]genetlink.Message, error) {
			deleted = append(deleted, int(u32(t, attrs(t, greq.Data), attrIfindex)))
			return ack, nil
		}))
	if err := c.Takeover(bs[1:]); err != nil || !slices.Equal(deleted, []int{5, 6}) {
		t.Errorf("Takeover: %v, deleted %v", err, deleted)
	}
}

func TestInterfacesUp(t *testing.T) {
	c := testConn(t, func(genetlink.Message, netlink.Message) ([]genetlink.Message, error) {
		mk := func(idx, phy int) genetlink.Message {
			return genetlink.Message{Data: encode(t, func(ae *netlink.AttributeEncoder) {
				ae.Uint32(attrIfindex, uint32(idx))
				ae.Uint32(attrWiphy, uint32(phy))
				ae.Uint32(attrIftype, uint32(IfTypeStation))
			})}
		}
		return []genetlink.Message{mk(3, 0), mk(4, 1), mk(5, 0)}, nil
	})
	c.isUp = func(i int) (bool, error) { return i == 5, nil }
	ifs, err := c.InterfacesOf(0)
	if err != nil || len(ifs) != 2 || ifs[0].Up || !ifs[1].Up {
		t.Errorf("InterfacesOf(0) = %+v, %v", ifs, err)
	}
}

func TestPHYAddresses(t *testing.T) {
	a1, a2 := []byte{2, 0, 0, 0, 0, 0}, []byte{0x42, 0, 0, 0, 0, 0}
	var p PHY
	b := encode(t, func(ae *netlink.AttributeEncoder) {
		ae.Uint32(attrWiphy, 0)
		ae.Nested(attrMacAddrs, func(nae *netlink.AttributeEncoder) error {
			nae.Bytes(1, a1)
			nae.Bytes(2, a2)
			return nil
		})
		ae.Bytes(attrMacMask, []byte{0, 0, 0, 0, 0, 0x0f})
		ae.Flag(attrWiphySelfManagedReg, true)
	})
	if err := p.merge(b); err != nil {
		t.Fatal(err)
	}
	if len(p.Addresses) != 2 || p.Addresses[1] != [6]byte(a2) || p.AddrMask[5] != 0x0f || !p.SelfManagedReg {
		t.Errorf("phy = %+v", p)
	}
}
