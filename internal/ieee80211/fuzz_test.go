package ieee80211

import (
	"bytes"
	"testing"
)

func seedFrames(f *testing.F) {
	for _, h := range []string{frameAuthReq, frameQoSData, frameNullPM, framePSPoll, frameACK, frameWDS} {
		f.Add(unhex(f, h))
	}
	f.Add(append(AppendBeaconFixed(AppendMgmtHeader(nil, SubtypeBeacon, Broadcast, apMAC, apMAC, 1), 1, 100, CapESS), beaconIEs()...))
	f.Add(AppendAssocResp(AppendMgmtHeader(nil, SubtypeAssocResp, staMAC, apMAC, apMAC, 2), 0x421, 0, 1))
}

// FuzzParseFrame: an accepted frame holds its whole header, every accessor
// is safe, and a data header re-encoded from the accessors is byte-identical.
func FuzzParseFrame(f *testing.F) {
	seedFrames(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := ParseFrame(b)
		if err != nil {
			return
		}
		n := fr.HeaderLen()
		if n > len(b) || n+len(fr.Body()) != len(b) {
			t.Fatalf("header %d body %d len %d", n, len(fr.Body()), len(b))
		}
		_, _, _, _ = fr.Addr1(), fr.Addr2(), fr.Addr3(), fr.Addr4()
		_, _, _, _, _ = fr.Seq(), fr.Frag(), fr.TID(), fr.AMSDUPresent(), fr.AID()
		_, _ = fr.DA(), fr.SA()
		if fr.Type() != TypeData {
			return
		}
		qc := fr.QoSControl()
		h := DataHeader{Flags: fr.FC() & 0xff00, Duration: fr.Duration(), Addr1: fr.Addr1(), Addr2: fr.Addr2(),
			Addr3: fr.Addr3(), Addr4: fr.Addr4(), Seq: fr.Seq(), Frag: fr.Frag(), QoS: fr.IsQoS(), TID: fr.TID(),
			AMSDU: fr.AMSDUPresent(), EOSP: qc&QoSEOSP != 0, NoAck: qc&QoSAckMask == QoSNoAck, Null: fr.IsNullData()}
		if fr.Subtype()&3 != 0 || qc&^(QoSTIDMask|QoSEOSP|QoSAMSDU|QoSAckMask) != 0 || qc&QoSAckMask > QoSNoAck {
			return // CF subtypes and QoS bits the encoder does not produce
		}
		if fr.IsQoS() && fr.Order() && !bytes.Equal(b[n-4:n], []byte{0, 0, 0, 0}) {
			return
		}
		if got := AppendDataHeader(nil, h); !bytes.Equal(got, b[:n]) {
			t.Fatalf("re-encoded %x\n        was %x", got, b[:n])
		}
		var out [4096]byte
		DataToEthernet(out[:0], fr)
	})
}

// FuzzElements: iteration consumes exactly the well-formed prefix, and
// re-encoding the elements reproduces it.
func FuzzElements(f *testing.F) {
	f.Add(beaconIEs())
	f.Add([]byte{0, 0})
	f.Add([]byte{221, 3, 0, 0x50})
	f.Fuzz(func(t *testing.T, b []byte) {
		var out []byte
		it := Elements(b).Iter()
		for it.Next() {
			out = AppendElement(out, it.ID(), it.Body()...)
		}
		if !bytes.Equal(out, b[:len(out)]) {
			t.Fatal("re-encoding differs")
		}
		if (it.Err() == nil) != (len(out) == len(b)) {
			t.Fatalf("err %v with %d of %d bytes", it.Err(), len(out), len(b))
		}
		e := Elements(b)
		e.Find(ElemSSID)
		e.FindExt(35)
		e.WMMQoSInfo()
		if q, found, err := e.StationWMM(); (!found || err != nil) && q != 0 {
			t.Fatalf("StationWMM: QoS info %#x without a valid element", q)
		}
		if p, q, ok := e.WMMParams(); ok {
			if _, _, ok2 := Elements(AppendWMMParam(nil, p, q)).WMMParams(); !ok2 {
				t.Fatal("WMM re-encode")
			}
		}
		if tb, ok := e.Find(ElemTIM); ok {
			if tim, err := ParseTIM(tb); err == nil {
				for aid := uint16(0); aid <= MaxAID; aid += 7 {
					tim.HasAID(aid)
				}
			}
		}
	})
}

// FuzzMgmtBodies runs every body parser and its accessors on the same input.
func FuzzMgmtBodies(f *testing.F) {
	f.Add(append(AppendBeaconFixed(nil, 1, 100, 1), beaconIEs()...))
	f.Add(AppendAuth(nil, 0, 1, 0))
	f.Add(AppendReassocReq(nil, 1, 10, apMAC))
	f.Add(AppendAction(nil, CategoryBlockAck, 0, 1, 2, 3, 4, 5, 6, 7))
	f.Fuzz(func(t *testing.T, b []byte) {
		if x, err := ParseBeacon(b); err == nil {
			_, _, _ = x.Timestamp(), x.Interval(), x.Capability()
			x.Elements().Validate()
		}
		if x, err := ParseProbeReq(b); err == nil {
			x.Elements().Validate()
		}
		if x, err := ParseAuth(b); err == nil {
			if !bytes.Equal(AppendAuth(nil, x.Algorithm(), x.Transaction(), x.Status()), b[:6]) {
				t.Fatal("auth round trip")
			}
		}
		if x, err := ParseAssocReq(b); err == nil {
			_, _ = x.Capability(), x.ListenInterval()
			x.Elements().Validate()
		}
		if x, err := ParseReassocReq(b); err == nil {
			if !bytes.Equal(AppendReassocReq(nil, x.Capability(), x.ListenInterval(), x.CurrentAP()), b[:10]) {
				t.Fatal("reassoc round trip")
			}
		}
		if x, err := ParseAssocResp(b); err == nil {
			_, _, _ = x.Capability(), x.Status(), x.AID()
		}
		if x, err := ParseDeauth(b); err == nil {
			_ = x.Reason()
		}
		if x, err := ParseAction(b); err == nil {
			if !bytes.Equal(AppendAction(nil, x.Category(), x.Code(), x.Body()...), b) {
				t.Fatal("action round trip")
			}
		}
		if x, err := ParseTIM(b); err == nil {
			_, _, _ = x.DTIMCount(), x.DTIMPeriod(), x.Multicast()
			x.HasAID(uint16(len(b)) * 8)
		}
	})
}

// FuzzAMSDU: subframes are re-encoded byte for byte (with padding).
func FuzzAMSDU(f *testing.F) {
	b := AppendAMSDUSubframe(nil, 0, staMAC, apMAC, 0x0800, []byte("one"))
	b = AppendAMSDUSubframe(b, 0, staMAC, apMAC, 0x86dd, []byte("second"))
	f.Add(b)
	f.Add(b[:len(b)-1])
	f.Fuzz(func(t *testing.T, b []byte) {
		var out []byte
		it := AMSDUSubframes(b)
		for it.Next() {
			for len(out)&3 != 0 && len(out) < len(b) {
				out = append(out, b[len(out)]) // padding content is not checked
			}
			da, sa, p := it.DA(), it.SA(), it.Payload()
			out = append(out, da[:]...)
			out = append(out, sa[:]...)
			out = append(out, byte(len(p)>>8), byte(len(p)))
			out = append(out, p...)
			var eth [4096]byte
			MSDUToEthernet(eth[:0], da, sa, p)
		}
		if len(out) > len(b) {
			t.Fatalf("re-encoded %d > %d", len(out), len(b))
		}
		if !bytes.Equal(out, b[:len(out)]) && it.Err() == nil {
			t.Fatalf("re-encoding differs: %x vs %x", out, b)
		}
	})
}

// FuzzDecap: a stripped header re-encodes to the original, except RFC 1042
// vs 802.1H for EtherTypes that Linux maps to the other one.
func FuzzDecap(f *testing.F) {
	f.Add(unhex(f, "aa aa 03 00 00 00 08 00 45 00"))
	f.Add(unhex(f, "aa aa 03 00 00 f8 81 37"))
	f.Add(unhex(f, "aa aa 03 00 00 00 80 f3"))
	f.Fuzz(func(t *testing.T, b []byte) {
		et, p, ok := Decap(b)
		if !ok {
			return
		}
		re := append(AppendLLCSNAP(nil, et), p...)
		if !bytes.Equal(re[6:], b[6:]) || (re[5] != b[5] && et != EtherTypeAARP && et != EtherTypeIPX && b[5] != 0xf8) {
			t.Fatalf("Decap(%x) = %x, %x; re-encoded %x", b, et, p, re)
		}
		if et2, p2, ok2 := Decap(re); !ok2 || et2 != et || !bytes.Equal(p2, p) {
			t.Fatal("second Decap")
		}
	})
}

// FuzzParseMAC: accepted text round-trips through String.
func FuzzParseMAC(f *testing.F) {
	f.Add("02:00:00:00:01:00")
	f.Add("FF-ff-00-00-01-0A")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMAC(s)
		if err != nil {
			return
		}
		if m2, err := ParseMAC(m.String()); err != nil || m2 != m {
			t.Fatalf("%q -> %v -> %v", s, m, m2)
		}
	})
}
