package ieee80211

import (
	"bytes"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// gpPacket decodes an 802.11 frame with gopacket. Dot11 always chops a
// trailing FCS, so four dummy bytes are appended.
func gpPacket(t *testing.T, f []byte) gopacket.Packet {
	t.Helper()
	b := append(append([]byte(nil), f...), 0, 0, 0, 0)
	return gopacket.NewPacket(b, layers.LayerTypeDot11, gopacket.Default)
}

func gpDot11(t *testing.T, f []byte) *layers.Dot11 {
	t.Helper()
	p := gpPacket(t, f)
	d, ok := p.Layer(layers.LayerTypeDot11).(*layers.Dot11)
	if !ok {
		t.Fatalf("gopacket: no Dot11 layer: %v", p.ErrorLayer())
	}
	return d
}

func TestGopacketHeaders(t *testing.T) {
	frames := map[string][]byte{
		"auth":   unhex(t, frameAuthReq),
		"qos":    unhex(t, frameQoSData),
		"null":   AppendNullData(nil, apMAC, staMAC, 2, true),
		"pspoll": AppendPSPoll(nil, 3, apMAC, staMAC),
		"wds":    unhex(t, frameWDS),
		"beacon": append(AppendBeaconFixed(AppendMgmtHeader(nil, SubtypeBeacon, Broadcast, apMAC, apMAC, 4095), 1, 100, CapESS), beaconIEs()...),
		"data": AppendDataHeader(nil, DataHeader{Flags: FCFromDS | FCMoreData | FCRetry, Addr1: staMAC, Addr2: apMAC,
			Addr3: apMAC, Seq: 1234, Frag: 2, QoS: true, TID: 7, EOSP: true}),
	}
	for name, b := range frames {
		f, err := ParseFrame(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		d := gpDot11(t, b)
		if uint8(d.Type)&3 != f.Type() || uint8(d.Type)>>2 != f.Subtype() || uint8(d.Flags) != uint8(f.FC()>>8) {
			t.Errorf("%s: gopacket type %v flags %v", name, d.Type, d.Flags)
		}
		if !bytes.Equal(d.Address1, f.Addr1().bytes()) || (len(d.Address2) > 0 && !bytes.Equal(d.Address2, f.Addr2().bytes())) {
			t.Errorf("%s: addrs %v %v", name, d.Address1, d.Address2)
		}
		if f.Type() != TypeCtrl && (d.SequenceNumber != f.Seq() || d.FragmentNumber != uint16(f.Frag()) ||
			!bytes.Equal(d.Address3, f.Addr3().bytes())) {
			t.Errorf("%s: seq %d frag %d a3 %v", name, d.SequenceNumber, d.FragmentNumber, d.Address3)
		}
		if f.Addr4() != (MAC{}) && !bytes.Equal(d.Address4, f.Addr4().bytes()) {
			t.Errorf("%s: a4 %v", name, d.Address4)
		}
		if f.IsQoS() && (d.QOS == nil || d.QOS.TID != f.TID() || d.QOS.EOSP != (f.QoSControl()&QoSEOSP != 0)) {
			t.Errorf("%s: qos %+v", name, d.QOS)
		}
	}
}

func (m MAC) bytes() []byte { return m[:] }

func TestGopacketMgmt(t *testing.T) {
	beacon := append(AppendBeaconFixed(AppendMgmtHeader(nil, SubtypeBeacon, Broadcast, apMAC, apMAC, 1), 77, 100, CapESS|CapQoS), beaconIEs()...)
	p := gpPacket(t, beacon)
	bl, ok := p.Layer(layers.LayerTypeDot11MgmtBeacon).(*layers.Dot11MgmtBeacon)
	if !ok || bl.Timestamp != 77 || bl.Interval != 100 || bl.Flags != CapESS|CapQoS {
		t.Fatalf("beacon: %+v", bl)
	}
	var ids []uint8
	for _, l := range p.Layers() {
		if ie, ok := l.(*layers.Dot11InformationElement); ok {
			ids = append(ids, uint8(ie.ID))
			if ie.ID == layers.Dot11InformationElementIDSSID && string(ie.Info) != "injected" {
				t.Errorf("SSID %q", ie.Info)
			}
		}
	}
	var ours []uint8
	it := Elements(beaconIEs()).Iter()
	for it.Next() {
		ours = append(ours, it.ID())
	}
	if !bytes.Equal(ids, ours) {
		t.Errorf("gopacket IEs %v, ours %v", ids, ours)
	}

	resp := AppendAssocResp(AppendMgmtHeader(nil, SubtypeAssocResp, staMAC, apMAC, apMAC, 2), 0x421, StatusSuccess, 1)
	if r, ok := gpPacket(t, resp).Layer(layers.LayerTypeDot11MgmtAssociationResp).(*layers.Dot11MgmtAssociationResp); !ok ||
		r.CapabilityInfo != 0x421 || r.Status != 0 || r.AID&AIDMask != 1 {
		t.Errorf("assoc resp %+v", r)
	}
	auth := AppendAuth(AppendMgmtHeader(nil, SubtypeAuth, staMAC, apMAC, apMAC, 3), AuthOpen, 2, StatusSuccess)
	if a, ok := gpPacket(t, auth).Layer(layers.LayerTypeDot11MgmtAuthentication).(*layers.Dot11MgmtAuthentication); !ok ||
		a.Algorithm != 0 || a.Sequence != 2 || a.Status != 0 {
		t.Errorf("auth %+v", a)
	}
	de := AppendDeauth(AppendMgmtHeader(nil, SubtypeDeauth, staMAC, apMAC, apMAC, 4), ReasonInactivity)
	if d, ok := gpPacket(t, de).Layer(layers.LayerTypeDot11MgmtDeauthentication).(*layers.Dot11MgmtDeauthentication); !ok ||
		d.Reason != ReasonInactivity {
		t.Errorf("deauth %+v", d)
	}
}
