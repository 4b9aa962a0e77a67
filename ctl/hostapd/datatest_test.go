package hostapd

import (
	"encoding/binary"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

func TestParseDataTest(t *testing.T) {
	dst, src := ieee80211.MAC{2, 0, 0, 0, 1, 0}, ieee80211.MAC{2, 0, 0, 0, 2, 0}
	for in, want := range map[string]Command{
		"DATA_TEST_CONFIG 1":                                         {Kind: DataTestConfig, ProbeEvents: -1, On: true},
		"DATA_TEST_CONFIG 1 ifname=br0":                              {Kind: DataTestConfig, ProbeEvents: -1, On: true, Value: "br0"},
		"DATA_TEST_CONFIG 0":                                         {Kind: DataTestConfig, ProbeEvents: -1},
		"DATA_TEST_TX 02:00:00:00:01:00 02:00:00:00:02:00 0x20":      {Kind: DataTestTx, ProbeEvents: -1, Addr: dst, Src: src, Reason: 0x20, Level: 1486},
		"DATA_TEST_TX 02:00:00:00:01:00 02:00:00:00:02:00 0 len=100": {Kind: DataTestTx, ProbeEvents: -1, Addr: dst, Src: src, Level: 100},
		"GET_PMK 02:00:00:00:01:00":                                  {Kind: GetPMK, ProbeEvents: -1, Addr: dst},
	} {
		if got, err := Parse([]byte(in)); err != nil || got != want {
			t.Errorf("%q: %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"DATA_TEST_TX 02:00:00:00:01:00 02:00:00:00:02:00", "DATA_TEST_TX x y 0",
		"DATA_TEST_TX 02:00:00:00:01:00 02:00:00:00:02:00 256", "DATA_TEST_TX 02:00:00:00:01:00 02:00:00:00:02:00 0 len=19",
		"DATA_TEST_TX 02:00:00:00:01:00 02:00:00:00:02:00 0 len=1487", "GET_PMK nobody"} {
		if _, err := Parse([]byte(bad)); err != ErrFail {
			t.Errorf("%q: %v, want FAIL", bad, err)
		}
	}
}

// A test frame as DATA_TEST_TX sends it is one DATA-TEST-RX reports, with
// a valid IPv4 header checksum; other frames are not.
func TestDataTestFrame(t *testing.T) {
	dst, src := ieee80211.MAC{2, 0, 0, 0, 1, 0}, ieee80211.MAC{2, 0, 0, 0, 2, 0}
	f := AppendDataTestFrame(nil, dst, src, 0x20, DataTestIPLen)
	if len(f) != 14+DataTestIPLen || f[15] != 0x20 {
		t.Fatalf("frame of %d bytes, TOS %#x", len(f), f[15])
	}
	var sum uint32
	for i := 14; i < 34; i += 2 {
		sum += uint32(binary.BigEndian.Uint16(f[i:]))
	}
	if sum = sum&0xffff + sum>>16; sum != 0xffff {
		t.Errorf("IPv4 header checksum does not add up: %#x", sum)
	}
	if ev, ok := AppendDataTestRx(nil, f); !ok || string(ev) != "<3>DATA-TEST-RX 02:00:00:00:01:00 02:00:00:00:02:00" {
		t.Errorf("RX: %q %v", ev, ok)
	}
	short := AppendDataTestFrame(nil, dst, src, 0, 100)
	if ev, ok := AppendDataTestRx(nil, short); !ok || string(ev) != "<3>DATA-TEST-RX 02:00:00:00:01:00 02:00:00:00:02:00 len=100" {
		t.Errorf("RX len=100: %q %v", ev, ok)
	}
	short[14+20+5] ^= 1
	if _, ok := AppendDataTestRx(nil, short); ok {
		t.Error("a frame with a wrong payload taken as a test frame")
	}
	if _, ok := AppendDataTestRx(nil, f[:30]); ok {
		t.Error("a truncated frame taken as a test frame")
	}
}

// The lengths are hostapd's and wpa_supplicant's (HWSIM_PACKETLEN 1500
// bytes of Ethernet frame, HWSIM_IP_LEN 1486 of IP): the default frame is
// one the station reports without len=, and the station's default frame,
// 1500 bytes in all, is reported without len= too. A longer frame is not a
// test frame: the peer would drop it.
func TestDataTestLengthsAsHostapd(t *testing.T) {
	dst, src := ieee80211.MAC{2, 0, 0, 0, 1, 0}, ieee80211.MAC{2, 0, 0, 0, 2, 0}
	if c, err := Parse([]byte("DATA_TEST_TX 02:00:00:00:01:00 02:00:00:00:02:00 0")); err != nil || c.Level != 1486 {
		t.Errorf("default IP length %d, %v; want 1486", c.Level, err)
	}
	if _, err := Parse([]byte("DATA_TEST_TX 02:00:00:00:01:00 02:00:00:00:02:00 0 len=1486")); err != nil {
		t.Errorf("len=1486: %v", err)
	}
	f := AppendDataTestFrame(nil, dst, src, 0, 1486)
	if len(f) != 1500 {
		t.Errorf("default frame of %d bytes, want 1500", len(f))
	}
	if ev, ok := AppendDataTestRx(nil, f); !ok || string(ev) != "<3>DATA-TEST-RX 02:00:00:00:01:00 02:00:00:00:02:00" {
		t.Errorf("RX of a 1500-byte frame: %q %v", ev, ok)
	}
	if ev, ok := AppendDataTestRx(nil, AppendDataTestFrame(nil, dst, src, 0, 1487)); ok {
		t.Errorf("a 1501-byte frame taken as a test frame: %q", ev)
	}
}
