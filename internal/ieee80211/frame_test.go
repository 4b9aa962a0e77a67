package ieee80211

import (
	"bytes"
	"github.com/airq/airq/internal/hextest"
	"testing"
)

var unhex = hextest.Bytes

var (
	apMAC  = MAC{0x02, 0, 0, 0, 0x02, 0}
	staMAC = MAC{0x02, 0, 0, 0, 0x01, 0}
)

// Frames as the hwsim experiments exchanged them (station 02:00:00:00:01:00,
// AP 02:00:00:00:02:00).
const (
	// Open-system auth from the station, seq 1.
	frameAuthReq = "b0 00 3a 01 | 02 00 00 00 02 00 | 02 00 00 00 01 00 | 02 00 00 00 02 00 | 10 00 | 00 00 01 00 00 00"
	// QoS data (ToDS), TID 0, seq 5: LLC/SNAP IPv4 header start.
	frameQoSData = "88 01 2c 00 | 02 00 00 00 02 00 | 02 00 00 00 01 00 | ff ff ff ff ff ff | 50 00 | 00 00 | aa aa 03 00 00 00 08 00 45 00"
	// Null data with PM set.
	frameNullPM = "48 11 00 00 | 02 00 00 00 02 00 | 02 00 00 00 01 00 | 02 00 00 00 02 00 | 20 00"
	// PS-Poll AID 1.
	framePSPoll = "a4 10 01 c0 | 02 00 00 00 02 00 | 02 00 00 00 01 00"
	// ACK.
	frameACK = "d4 00 00 00 | 02 00 00 00 01 00"
	// 4-address QoS data with Order (+HTC), TID 5, A-MSDU.
	frameWDS = "88 83 00 00 | 02 00 00 00 02 00 | 02 00 00 00 01 00 | 02 00 00 00 03 00 | 70 00 | 02 00 00 00 04 00 | 85 00 | 00 00 00 00 | de ad"
)

func TestParseFrame(t *testing.T) {
	tests := []struct {
		name                 string
		hex                  string
		typ, sub             uint8
		hdrLen               int
		a1, a2, a3, a4       MAC
		seq                  uint16
		tid                  uint8
		qos, amsdu, pm, tods bool
		bodyLen              int
	}{
		{"auth", frameAuthReq, TypeMgmt, SubtypeAuth, 24, apMAC, staMAC, apMAC, MAC{}, 1, 0, false, false, false, false, 6},
		{"qos data", frameQoSData, TypeData, SubtypeQoSData, 26, apMAC, staMAC, Broadcast, MAC{}, 5, 0, true, false, false, true, 10},
		{"null pm", frameNullPM, TypeData, SubtypeNull, 24, apMAC, staMAC, apMAC, MAC{}, 2, 0, false, false, true, true, 0},
		{"pspoll", framePSPoll, TypeCtrl, SubtypePSPoll, 16, apMAC, staMAC, MAC{}, MAC{}, 0, 0, false, false, true, false, 0},
		{"ack", frameACK, TypeCtrl, SubtypeACK, 10, staMAC, MAC{}, MAC{}, MAC{}, 0, 0, false, false, false, false, 0},
		{"wds htc amsdu", frameWDS, TypeData, SubtypeQoSData, 36, apMAC, staMAC, MAC{2, 0, 0, 0, 3, 0}, MAC{2, 0, 0, 0, 4, 0}, 7, 5, true, true, false, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFrame(unhex(t, tt.hex))
			if err != nil {
				t.Fatal(err)
			}
			if f.Type() != tt.typ || f.Subtype() != tt.sub || f.HeaderLen() != tt.hdrLen {
				t.Errorf("type %d/%d hdr %d", f.Type(), f.Subtype(), f.HeaderLen())
			}
			if f.Addr1() != tt.a1 || f.Addr2() != tt.a2 || f.Addr3() != tt.a3 || f.Addr4() != tt.a4 {
				t.Errorf("addrs %v %v %v %v", f.Addr1(), f.Addr2(), f.Addr3(), f.Addr4())
			}
			if f.Seq() != tt.seq || f.TID() != tt.tid || f.IsQoS() != tt.qos || f.AMSDUPresent() != tt.amsdu ||
				f.PwrMgt() != tt.pm || f.ToDS() != tt.tods || len(f.Body()) != tt.bodyLen {
				t.Errorf("seq %d tid %d qos %v amsdu %v pm %v tods %v body %d", f.Seq(), f.TID(), f.IsQoS(),
					f.AMSDUPresent(), f.PwrMgt(), f.ToDS(), len(f.Body()))
			}
		})
	}
}

func TestParseFrameErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		hex  string
		err  error
	}{
		{"tiny", "b0 00 00", ErrShort},
		{"version", "b1 00 00 00 02 00 00 00 02 00", ErrVersion},
		{"ext type", "0c 00 00 00 02 00 00 00 02 00", ErrFrameType},
		{"mgmt short", "b0 00 00 00 02 00 00 00 02 00 02 00 00 00 01 00", ErrShort},
		{"rts short", "b4 00 00 00 02 00 00 00 02 00", ErrShort},
		{"qos short", "88 01 2c 00 02 00 00 00 02 00 02 00 00 00 01 00 ff ff ff ff ff ff 50 00", ErrShort},
		{"mgmt htc short", "b0 80 00 00 02 00 00 00 02 00 02 00 00 00 01 00 02 00 00 00 02 00 10 00", ErrShort},
	} {
		if _, err := ParseFrame(unhex(t, tt.hex)); err != tt.err {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.err)
		}
	}
}

func TestFrameSetters(t *testing.T) {
	f, _ := ParseFrame(unhex(t, frameQoSData))
	f.SetSeq(4095, 3)
	f.SetPwrMgt(true)
	f.SetRetry(true)
	f.SetMoreData(true)
	f.SetEOSP(true)
	f.SetDuration(44)
	if f.Seq() != 4095 || f.Frag() != 3 || !f.PwrMgt() || !f.Retry() || !f.MoreData() || f.QoSControl()&QoSEOSP == 0 || f.Duration() != 44 {
		t.Errorf("setters: %x", []byte(f))
	}
	f.SetPwrMgt(false)
	if f.PwrMgt() || !f.Retry() {
		t.Error("clear PwrMgt")
	}
	ack, _ := ParseFrame(unhex(t, frameACK))
	ack.SetSeq(1, 1) // no Sequence Control: must not write
	if !bytes.Equal(ack, unhex(t, frameACK)) {
		t.Error("SetSeq wrote into an ACK")
	}
}

func TestMAC(t *testing.T) {
	m, err := ParseMAC("02:00:00:00:01:00")
	if err != nil || m != staMAC || m.String() != "02:00:00:00:01:00" {
		t.Fatalf("ParseMAC = %v, %v", m, err)
	}
	if m2, err := ParseMAC("0A-bC-00-00-01-FF"); err != nil || m2.String() != "0a:bc:00:00:01:ff" {
		t.Errorf("dash form: %v %v", m2, err)
	}
	for _, s := range []string{"", "02:00:00:00:01", "02:00:00:00:01:0g", "02:00-00:00:01:00", "02:00:00:00:01:000"} {
		if _, err := ParseMAC(s); err == nil {
			t.Errorf("ParseMAC(%q) accepted", s)
		}
	}
	if !Broadcast.IsBroadcast() || !Broadcast.IsMulticast() || staMAC.IsMulticast() || !(MAC{1}).IsMulticast() || !(MAC{}).IsZero() {
		t.Error("predicates")
	}
}
