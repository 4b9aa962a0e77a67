package hwsimnl

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

var (
	apHW  = ieee80211.MAC{0x42, 0, 0, 0, 0, 0}
	staHW = ieee80211.MAC{0x42, 0, 0, 0, 1, 0}
)

func sampleFrame() Frame {
	return Frame{
		Transmitter: apHW,
		Data:        []byte{0x88, 0x02, 0, 0, 2, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0xaa}, // 27 octets: padding
		Flags:       TxCtlReqTxStatus,
		Freq:        5180,
		Rates: [MaxRates]TxRate{
			{Idx: 0x03, Count: 2, Flags: RateVHTMCS | Rate80MHz | RateShortGI},
			{Idx: 0x02, Count: 2, Flags: RateVHTMCS | Rate80MHz},
			{Idx: -1}, {Idx: -1},
		},
		Cookie: 0x1122334455667788,
	}
}

func TestFrameRoundTrip(t *testing.T) {
	want := sampleFrame()
	b := appendFrame(nil, 0x22, &want)
	m, rest, err := Split(b)
	if err != nil || len(rest) != 0 {
		t.Fatalf("Split: %v, %d left", err, len(rest))
	}
	if cmd, _ := m.Cmd(); m.Type != 0x22 || cmd != CmdFrame {
		t.Fatalf("type %#x cmd %d", m.Type, cmd)
	}
	got, err := DecodeFrame(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Data, want.Data) || got.Transmitter != want.Transmitter || got.Flags != want.Flags ||
		got.Freq != want.Freq || got.Rates != want.Rates || got.Cookie != want.Cookie {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

func TestDecodeFrameMissing(t *testing.T) {
	f := sampleFrame()
	b := appendFrame(nil, 0x22, &f)
	// drop the trailing cookie attribute (12 octets)
	b = b[:len(b)-12]
	binary.LittleEndian.PutUint32(b, uint32(len(b)))
	m, _, err := Split(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeFrame(m); err != ErrMissing {
		t.Fatalf("err = %v, want ErrMissing", err)
	}
}

// TestTxInfoLayout checks the message byte by byte where the driver reads it.
func TestTxInfoLayout(t *testing.T) {
	ti := TxInfo{Transmitter: apHW, Flags: TxStatAck | TxCtlReqTxStatus, Signal: -50, Cookie: 7,
		Rates: [MaxRates]TxRate{{Idx: 3, Count: 1}, {Idx: -1}, {Idx: -1}, {Idx: -1}}}
	b := AppendTxInfo(nil, 0x22, 9, &ti)
	if got := binary.LittleEndian.Uint32(b); int(got) != len(b) {
		t.Fatalf("length %d, message %d", got, len(b))
	}
	if b[16] != CmdTxInfoFrame {
		t.Fatalf("cmd %d", b[16])
	}
	m, _, _ := Split(b)
	seen := map[uint16][]byte{}
	if err := m.attrs(func(typ uint16, v []byte) error { seen[typ] = v; return nil }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(seen[attrAddrTransmitter], apHW[:]) ||
		binary.LittleEndian.Uint32(seen[attrFlags]) != TxStatAck|TxCtlReqTxStatus ||
		int32(binary.LittleEndian.Uint32(seen[attrSignal])) != -50 ||
		!bytes.Equal(seen[attrTxInfo], []byte{3, 1, 0xff, 0, 0xff, 0, 0xff, 0}) ||
		binary.LittleEndian.Uint64(seen[attrCookie]) != 7 {
		t.Fatalf("attributes %v", seen)
	}
	if m.Seq != 9 || m.Flags != nlmFRequest {
		t.Fatalf("seq %d flags %#x", m.Seq, m.Flags)
	}
}

func TestRxFrameLayout(t *testing.T) {
	f := RxFrame{Receiver: staHW, Data: []byte{1, 2, 3}, RxRate: 4, Signal: -50, Freq: 5180}
	m, _, err := Split(AppendRxFrame(nil, 0x22, 1, &f))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint16][]byte{}
	_ = m.attrs(func(typ uint16, v []byte) error { seen[typ] = v; return nil })
	if !bytes.Equal(seen[attrAddrReceiver], staHW[:]) || !bytes.Equal(seen[attrFrame], f.Data) ||
		binary.LittleEndian.Uint32(seen[attrRxRate]) != 4 || binary.LittleEndian.Uint32(seen[attrFreq]) != 5180 {
		t.Fatalf("attributes %v", seen)
	}
}

func TestAddrChangeAndFamily(t *testing.T) {
	want := AddrChange{Add: true, Transmitter: apHW, Receiver: ieee80211.MAC{2, 0, 0, 0, 0, 0}}
	b := appendAddrChange(nil, 0x22, want)
	b = appendFamilyReply(b, 0x22)
	m, rest, err := Split(b)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := DecodeAddrChange(m); err != nil || got != want {
		t.Fatalf("got %+v, %v", got, err)
	}
	m, rest, err = Split(rest)
	if err != nil || len(rest) != 0 {
		t.Fatalf("second message: %v, %d left", err, len(rest))
	}
	if id, err := DecodeFamilyID(m); err != nil || id != 0x22 {
		t.Fatalf("family %#x, %v", id, err)
	}
}

func TestErrorMessage(t *testing.T) {
	b := make([]byte, 20)
	binary.LittleEndian.PutUint32(b, 20)
	binary.LittleEndian.PutUint16(b[4:], nlmsgError)
	binary.LittleEndian.PutUint32(b[16:], uint32(0xffffffef)) // -17, EEXIST... as errno 17
	m, _, err := Split(b)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := m.Error(); !ok || e != 17 {
		t.Fatalf("errno %d ok %v", e, ok)
	}
}

func TestSplitRejects(t *testing.T) {
	for _, b := range [][]byte{nil, make([]byte, 15), {100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}} {
		if _, _, err := Split(b); err != ErrShort {
			t.Errorf("Split(% x) = %v", b, err)
		}
	}
}

// FuzzDecode: the decoders never panic, never read outside the message,
// and a decoded frame re-encodes to the same fields.
func FuzzDecode(f *testing.F) {
	s := sampleFrame()
	f.Add(appendFrame(nil, 0x22, &s))
	f.Add(appendAddrChange(nil, 0x22, AddrChange{Transmitter: apHW, Receiver: staHW}))
	f.Add(appendFamilyReply(nil, 0x22))
	f.Fuzz(func(t *testing.T, b []byte) {
		for len(b) > 0 {
			m, rest, err := Split(b)
			if err != nil {
				return
			}
			if fr, err := DecodeFrame(m); err == nil {
				m2, _, err := Split(appendFrame(nil, m.Type, &fr))
				if err != nil {
					t.Fatal(err)
				}
				fr2, err := DecodeFrame(m2)
				if err != nil || !bytes.Equal(fr2.Data, fr.Data) || fr2.Rates != fr.Rates || fr2.Cookie != fr.Cookie {
					t.Fatalf("re-encoding changed the frame: %+v vs %+v (%v)", fr2, fr, err)
				}
			}
			_, _ = DecodeAddrChange(m)
			_, _ = DecodeFamilyID(m)
			_, _ = m.Error()
			b = rest
		}
	})
}
