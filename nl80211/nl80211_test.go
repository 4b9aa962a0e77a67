package nl80211

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/genetlink/genltest"
	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"
)

// ack stands in for the kernel's acknowledgement of a command without a
// reply; the fake socket needs some message to end the exchange.
var ack = []genetlink.Message{{}}

var testFamily = genetlink.Family{ID: 0x23, Version: 1, Name: "nl80211"}

// testConn returns a Conn whose nl80211 requests go to fn.
func testConn(t *testing.T, fn genltest.Func) *Conn {
	t.Helper()
	c, err := NewConn(genltest.Dial(genltest.ServeFamily(testFamily, fn)))
	if err != nil {
		t.Fatalf("NewConn: %v", err)
	}
	c.isUp = func(int) (bool, error) { return false, nil }
	t.Cleanup(func() { c.Close() })
	return c
}

// attrs decodes a flat attribute set into a map of raw values, failing the
// test on malformed input.
func attrs(t *testing.T, b []byte) map[uint16][]byte {
	t.Helper()
	ad, err := netlink.NewAttributeDecoder(b)
	if err != nil {
		t.Fatalf("decoder: %v", err)
	}
	m := make(map[uint16][]byte)
	for ad.Next() {
		m[ad.Type()] = ad.Bytes()
	}
	if err := ad.Err(); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return m
}

func u32(t *testing.T, m map[uint16][]byte, typ uint16) uint32 {
	t.Helper()
	v, ok := m[typ]
	if !ok || len(v) != 4 {
		t.Fatalf("attribute %#x: missing or not u32: %x", typ, v)
	}
	return binary.NativeEndian.Uint32(v)
}

func encode(t *testing.T, fn func(ae *netlink.AttributeEncoder)) []byte {
	t.Helper()
	ae := netlink.NewAttributeEncoder()
	fn(ae)
	b, err := ae.Encode()
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

// Hand-built; TestRecordedNewMonitor replays the kernel's reply to the same
// request. This one checks the request attribute by attribute.
func TestNewMonitorRequest(t *testing.T) {
	addr := [6]byte{0x02, 0, 0, 0, 0x02, 0}
	var gotFlags []uint16
	c := testConn(t, genltest.CheckRequest(testFamily.ID, cmdNewInterface, netlink.Request,
		func(greq genetlink.Message, _ netlink.Message) ([]genetlink.Message, error) {
			m := attrs(t, greq.Data)
			if got := u32(t, m, attrWiphy); got != 2 {
				t.Errorf("wiphy = %d, want 2", got)
			}
			if got := string(m[attrIfname]); got != "mon0\x00" {
				t.Errorf("ifname = %q, want NUL-terminated mon0", got)
			}
			if got := u32(t, m, attrIftype); got != uint32(IfTypeMonitor) {
				t.Errorf("iftype = %d, want monitor", got)
			}
			if got := m[attrMac]; string(got) != string(addr[:]) {
				t.Errorf("mac = %x", got)
			}
			if v, ok := m[attrSocketOwner]; !ok || len(v) != 0 {
				t.Errorf("socket owner flag missing or not a flag: %x %v", v, ok)
			}
			gotFlags = nestedFlags(t, greq.Data, attrMntrFlags)
			return []genetlink.Message{{Data: encode(t, func(ae *netlink.AttributeEncoder) {
				ae.Uint32(attrIfindex, 7)
				ae.String(attrIfname, "mon0")
				ae.Uint32(attrWiphy, 2)
				ae.Uint32(attrIftype, uint32(IfTypeMonitor))
				ae.Bytes(attrMac, addr[:])
			})}}, nil
		}))

	ifi, err := c.NewMonitor(2, "mon0", addr, MonitorActive|MonitorControl|MonitorOtherBSS)
	if err != nil {
		t.Fatalf("NewMonitor: %v", err)
	}
	want := Interface{Index: 7, Name: "mon0", PHY: 2, Type: IfTypeMonitor, Addr: addr}
	if ifi != want {
		t.Errorf("interface = %+v, want %+v", ifi, want)
	}
	if want := []uint16{3, 4, 6}; !slices.Equal(gotFlags, want) {
		t.Errorf("monitor flags = %v, want %v (CONTROL, OTHER_BSS, ACTIVE)", gotFlags, want)
	}
}

// nestedFlags returns the types of the empty (flag) attributes nested in typ,
// checking that typ carries NLA_F_NESTED.
func nestedFlags(t *testing.T, b []byte, typ uint16) []uint16 {
	t.Helper()
	ad, err := netlink.NewAttributeDecoder(b)
	if err != nil {
		t.Fatal(err)
	}
	var out []uint16
	found := false
	for ad.Next() {
		if ad.Type() != typ {
			continue
		}
		found = true
		if ad.TypeFlags()&netlink.Nested == 0 {
			t.Errorf("attribute %#x lacks NLA_F_NESTED", typ)
		}
		ad.Nested(func(nad *netlink.AttributeDecoder) error {
			for nad.Next() {
				if len(nad.Bytes()) != 0 {
					t.Errorf("flag %d has a payload", nad.Type())
				}
				out = append(out, nad.Type())
			}
			return nil
		})
	}
	if err := ad.Err(); err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Fatalf("attribute %#x missing", typ)
	}
	return out
}

// Hand-built after nl80211_new_interface: a managed interface with our
// address, socket-owned, no monitor flags; a driver that has no room for
// another vif refuses it with EBUSY (mt76x02's taken address slot).
func TestNewStationRequest(t *testing.T) {
	addr := [6]byte{0x06, 0, 0, 0, 0, 1}
	calls := 0
	c := testConn(t, genltest.CheckRequest(testFamily.ID, cmdNewInterface, netlink.Request,
		func(greq genetlink.Message, _ netlink.Message) ([]genetlink.Message, error) {
			calls++
			m := attrs(t, greq.Data)
			if got := u32(t, m, attrIftype); got != uint32(IfTypeStation) {
				t.Errorf("iftype = %d, want station", got)
			}
			if got := m[attrMac]; string(got) != string(addr[:]) {
				t.Errorf("mac = %x", got)
			}
			if _, ok := m[attrSocketOwner]; !ok {
				t.Error("socket owner flag missing: the interface would outlive airqd")
			}
			if _, ok := m[attrMntrFlags]; ok {
				t.Error("monitor flags on a managed interface")
			}
			if calls > 1 {
				return nil, genltest.Error(int(unix.EBUSY))
			}
			return []genetlink.Message{{Data: encode(t, func(ae *netlink.AttributeEncoder) {
				ae.Uint32(attrIfindex, 8)
				ae.String(attrIfname, "mon0.1")
				ae.Uint32(attrWiphy, 2)
				ae.Uint32(attrIftype, uint32(IfTypeStation))
				ae.Bytes(attrMac, addr[:])
			})}}, nil
		}))
	ifi, err := c.NewStation(2, "mon0.1", addr)
	if err != nil {
		t.Fatalf("NewStation: %v", err)
	}
	if want := (Interface{Index: 8, Name: "mon0.1", PHY: 2, Type: IfTypeStation, Addr: addr}); ifi != want {
		t.Errorf("interface = %+v, want %+v", ifi, want)
	}
	_, err = c.NewStation(2, "mon0.2", addr)
	if !errors.Is(err, unix.EBUSY) || err.Error() != "nl80211: new interface mon0.2: device or resource busy" {
		t.Errorf("second interface: err = %v, want EBUSY naming mon0.2", err)
	}
}

// Hand-built: hwsim supports monitor interfaces, so it never refuses one.
func TestNewMonitorErrno(t *testing.T) {
	c := testConn(t, func(genetlink.Message, netlink.Message) ([]genetlink.Message, error) {
		return nil, genltest.Error(int(unix.EOPNOTSUPP))
	})
	_, err := c.NewMonitor(0, "mon0", [6]byte{2}, MonitorActive)
	if !errors.Is(err, unix.EOPNOTSUPP) {
		t.Fatalf("err = %v, want EOPNOTSUPP", err)
	}
	if got, want := err.Error(), "nl80211: new interface mon0: operation not supported"; got != want {
		t.Errorf("error text = %q, want %q", got, want)
	}
}

// Hand-built; TestRecordedDelInterface replays the kernel's ACK and ENODEV.
func TestDelInterface(t *testing.T) {
	c := testConn(t, genltest.CheckRequest(testFamily.ID, cmdDelInterface, netlink.Request|netlink.Acknowledge,
		func(greq genetlink.Message, _ netlink.Message) ([]genetlink.Message, error) {
			if got := u32(t, attrs(t, greq.Data), attrIfindex); got != 9 {
				t.Errorf("ifindex = %d, want 9", got)
			}
			return ack, nil
		}))
	if err := c.DelInterface(9); err != nil {
		t.Fatalf("DelInterface: %v", err)
	}
}

// Hand-built; TestRecordedInterfaces replays the kernel's dumps.
func TestInterfaces(t *testing.T) {
	c := testConn(t, genltest.CheckRequest(testFamily.ID, cmdGetInterface, netlink.Request|netlink.Dump,
		func(genetlink.Message, netlink.Message) ([]genetlink.Message, error) {
			mk := func(idx int, name string, typ IfType, freq int) genetlink.Message {
				return genetlink.Message{Data: encode(t, func(ae *netlink.AttributeEncoder) {
					ae.Uint32(attrIfindex, uint32(idx))
					ae.String(attrIfname, name)
					ae.Uint32(attrWiphy, 0)
					ae.Uint32(attrIftype, uint32(typ))
					ae.Bytes(attrMac, []byte{2, 0, 0, 0, 0, byte(idx)})
					if freq != 0 {
						ae.Uint32(attrWiphyFreq, uint32(freq))
					}
				})}
			}
			return []genetlink.Message{mk(3, "wlan0", IfTypeStation, 0), mk(4, "mon0", IfTypeMonitor, 2412)}, nil
		}))
	ifs, err := c.Interfaces()
	if err != nil {
		t.Fatalf("Interfaces: %v", err)
	}
	if len(ifs) != 2 || ifs[0].Name != "wlan0" || ifs[1].Type != IfTypeMonitor || ifs[1].Freq != 2412 || ifs[1].Addr[5] != 4 {
		t.Errorf("interfaces = %+v", ifs)
	}
}
