package ieee80211

import (
	"bytes"
	"testing"
)

func TestDecap(t *testing.T) {
	for _, tt := range []struct {
		name string
		body string
		et   uint16
		n    int
		ok   bool
	}{
		{"rfc1042 ipv4", "aa aa 03 00 00 00 08 00 45", 0x0800, 1, true},
		{"bridge tunnel ipx", "aa aa 03 00 00 f8 81 37 ff", 0x8137, 1, true},
		{"bridge tunnel any", "aa aa 03 00 00 f8 08 06", 0x0806, 0, true},
		{"rfc1042 aarp kept", "aa aa 03 00 00 00 80 f3 00", 0, 0, false},
		{"rfc1042 ipx kept", "aa aa 03 00 00 00 81 37 00", 0, 0, false},
		{"other oui", "aa aa 03 00 00 0c 20 00", 0, 0, false},
		{"length not type", "aa aa 03 00 00 00 05 dc", 0, 0, false},
		{"short", "aa aa 03 00 00 00 08", 0, 0, false},
	} {
		et, p, ok := Decap(unhex(t, tt.body))
		if et != tt.et || len(p) != tt.n || ok != tt.ok {
			t.Errorf("%s: Decap = %#x, %d, %v", tt.name, et, len(p), ok)
		}
	}
	if b := AppendLLCSNAP(nil, EtherTypeAARP); !bytes.Equal(b, unhex(t, "aa aa 03 00 00 f8 80 f3")) {
		t.Errorf("AARP: %x", b)
	}
	if b := AppendLLCSNAP(nil, 0x86dd); !bytes.Equal(b, unhex(t, "aa aa 03 00 00 00 86 dd")) {
		t.Errorf("IPv6: %x", b)
	}
}

func TestBridgeRoundTrip(t *testing.T) {
	host := MAC{0x52, 0x54, 0, 0, 0, 1}
	eth := AppendEtherHdr(nil, staMAC, host, 0x0800)
	eth = append(eth, []byte("ipv4 packet")...)
	for _, h := range []DataHeader{
		{Flags: FCFromDS, Seq: 9},
		{Flags: FCFromDS, Seq: 9, QoS: true, TID: 6},
		{Flags: FCToDS},
		{},
		{Flags: FCToDS | FCFromDS, Addr1: staMAC, Addr2: apMAC},
	} {
		b, err := EthernetToData(make([]byte, 0, 256), eth, apMAC, h)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ParseFrame(b)
		if err != nil {
			t.Fatal(err)
		}
		if f.DA() != staMAC || f.SA() != host {
			t.Errorf("%+v: DA %v SA %v", h, f.DA(), f.SA())
		}
		if h.Flags == FCFromDS && (f.Addr2() != apMAC || f.Addr1() != staMAC) {
			t.Errorf("FromDS addresses %v %v", f.Addr1(), f.Addr2())
		}
		back, err := DataToEthernet(nil, f)
		if err != nil || !bytes.Equal(back, eth) {
			t.Errorf("%+v: DataToEthernet = %x, %v", h, back, err)
		}
	}
	// 802.3 with a length field and its own LLC goes through unchanged.
	raw := AppendEtherHdr(nil, staMAC, host, 6)
	raw = append(raw, 0x42, 0x42, 0x03, 1, 2, 3)
	b, _ := EthernetToData(nil, raw, apMAC, DataHeader{Flags: FCFromDS})
	f, _ := ParseFrame(b)
	if back, err := DataToEthernet(nil, f); err != nil || !bytes.Equal(back, raw) {
		t.Errorf("802.3: %x %v", back, err)
	}
	if _, err := EthernetToData(nil, raw[:13], apMAC, DataHeader{}); err != ErrShort {
		t.Errorf("short ethernet: %v", err)
	}
	nf, _ := ParseFrame(unhex(t, frameNullPM))
	if _, err := DataToEthernet(nil, nf); err != ErrNotData {
		t.Errorf("null: %v", err)
	}
}

func TestAMSDU(t *testing.T) {
	host := MAC{0x52, 0x54, 0, 0, 0, 1}
	h := DataHeader{Flags: FCFromDS, Addr1: staMAC, Addr2: apMAC, Addr3: apMAC, QoS: true, AMSDU: true}
	b := AppendDataHeader(nil, h)
	start := len(b)
	payloads := [][]byte{[]byte("one"), []byte("second msdu"), []byte("3rd")}
	for _, p := range payloads {
		b = AppendAMSDUSubframe(b, start, staMAC, host, 0x0800, p)
	}
	f, err := ParseFrame(b)
	if err != nil || !f.AMSDUPresent() {
		t.Fatal(err)
	}
	it := AMSDUSubframes(f.Body())
	i := 0
	for it.Next() {
		et, p, ok := Decap(it.Payload())
		if !ok || et != 0x0800 || !bytes.Equal(p, payloads[i]) || it.DA() != staMAC || it.SA() != host {
			t.Errorf("subframe %d: %x %q %v", i, et, p, ok)
		}
		i++
	}
	if it.Err() != nil || i != 3 {
		t.Errorf("n=%d err=%v", i, it.Err())
	}
	// The last subframe padded anyway is accepted, as Linux does.
	body := append(f.Body(), 0, 0)
	it = AMSDUSubframes(body)
	for it.Next() {
	}
	if it.Err() != nil {
		t.Errorf("trailing pad: %v", it.Err())
	}
	// Truncated length.
	it = AMSDUSubframes(f.Body()[:len(f.Body())-1])
	for it.Next() {
	}
	if it.Err() != ErrAMSDU {
		t.Errorf("truncated: %v", it.Err())
	}
	// A plain MSDU whose A-MSDU bit was flipped: the first "DA" is an LLC header.
	fake := append(unhex(t, "aa aa 03 00 00 00 08 00 45 00 00 00 00 00"), make([]byte, 20)...)
	it = AMSDUSubframes(fake)
	if it.Next() || it.Err() != ErrAMSDUInjection {
		t.Error("LLC-looking DA accepted")
	}
}
