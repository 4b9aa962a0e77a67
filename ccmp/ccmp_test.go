package ccmp

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

var tk = []byte("0123456789abcdef")

// randomFrame builds a plaintext data or management MPDU with random header
// fields and body.
func randomFrame(r *rand.Rand) []byte {
	var f []byte
	mac := func() ieee80211.MAC {
		var m ieee80211.MAC
		for i := range m {
			m[i] = byte(r.Uint32())
		}
		return m
	}
	if r.IntN(4) == 0 {
		f = ieee80211.AppendMgmtHeader(nil, []uint8{ieee80211.SubtypeDeauth, ieee80211.SubtypeDisassoc, ieee80211.SubtypeAction}[r.IntN(3)],
			mac(), mac(), mac(), uint16(r.IntN(4096)))
		f[1] |= byte(r.Uint32()) & 0x38 // Retry, PwrMgt, MoreData
	} else {
		h := ieee80211.DataHeader{Flags: uint16(r.Uint32()) & (ieee80211.FCToDS | ieee80211.FCFromDS | ieee80211.FCRetry |
			ieee80211.FCPwrMgt | ieee80211.FCMoreData | ieee80211.FCMoreFrag),
			Addr1: mac(), Addr2: mac(), Addr3: mac(), Addr4: mac(), Seq: uint16(r.IntN(4096)), Frag: uint8(r.IntN(16)),
			QoS: r.IntN(2) == 0, TID: uint8(r.IntN(16)), AMSDU: r.IntN(2) == 0, EOSP: r.IntN(2) == 0}
		f = ieee80211.AppendDataHeader(nil, h)
	}
	body := make([]byte, r.IntN(300))
	for i := range body {
		body[i] = byte(r.Uint32())
	}
	return append(f, body...)
}

// mutable lists (byte offset, bit mask) pairs 12.5.3.3.3 leaves out of the
// AAD: changing them must not break the MIC; any other header bit must.
func mutable(f ieee80211.Frame) [][2]int {
	m := [][2]int{{1, 0x08}, {1, 0x10}, {1, 0x20}, {2, 0xff}, {3, 0xff}, {22, 0xf0}, {23, 0xff}} // and Duration
	if f.Type() == ieee80211.TypeData {
		m = append(m, [2]int{0, 0x70}) // subtype b4-b6 (QoS stays: it changes the layout)
	}
	if f.IsQoS() {
		q := 24
		if f.ToDS() && f.FromDS() {
			q = 30
		}
		m = append(m, [2]int{q, 0xf0}, [2]int{q + 1, 0xff})
	}
	return m
}

func maskOf(f ieee80211.Frame, off int) byte {
	var b byte
	for _, m := range mutable(f) {
		if m[0] == off {
			b |= byte(m[1])
		}
	}
	return b
}

// TestAADMasking flips every header bit of random protected frames: the
// masked ones leave the MIC valid, all others break it.
func TestAADMasking(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	k, _ := New(tk, 0)
	for it := 0; it < 300; it++ {
		plain := randomFrame(r)
		h := ieee80211.Frame(plain).HeaderLen()
		enc, err := k.Encrypt(withGap(t, plain), uint64(1+r.IntN(MaxPN)))
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off < h; off++ {
			for bit := 0; bit < 8; bit++ {
				if off == 0 && (bit < 4 || bit == 7) || off == 1 && (bit <= 1 || bit >= 6) {
					continue // version, type, QoS, DS bits and Order change the layout; Protected is checked apart
				}
				fl := bytes.Clone(enc)
				fl[off] ^= 1 << bit
				_, err := k.Decrypt(fl)
				masked := maskOf(ieee80211.Frame(enc), off)&(1<<bit) != 0
				if masked && err != nil {
					t.Fatalf("frame %x: flipping masked bit %d of byte %d: %v", enc[:h], bit, off, err)
				}
				if !masked && err == nil {
					t.Fatalf("frame %x: flipping authenticated bit %d of byte %d went unnoticed", enc[:h], bit, off)
				}
			}
		}
		for _, off := range []int{h + 8, len(enc) - 1} {
			if off >= len(enc) {
				continue
			}
			fl := bytes.Clone(enc)
			fl[off] ^= 0x01
			if _, err := k.Decrypt(fl); !errors.Is(err, ErrMIC) {
				t.Fatalf("flipped byte %d of %d: %v", off, len(enc), err)
			}
		}
		body, err := k.Decrypt(enc)
		if err != nil || !bytes.Equal(body, plain[h:]) {
			t.Fatalf("round trip: %v", err)
		}
	}
}

// TestManagementFlag: a management frame's nonce differs from a data
// frame's, so protected management bytes do not verify as data.
func TestManagementFlag(t *testing.T) {
	k, _ := New(unhex(t, mpdus[4].tk), 0)
	enc := unhex(t, mpdus[4].encrypted)
	k.prepare(ieee80211.Frame(enc), 1)
	if k.nonce[0] != 0x10 {
		t.Fatalf("nonce flags %#x, want the Management bit", k.nonce[0])
	}
	enc[0] = 0x08 // the same bytes as a data frame
	if _, err := k.Decrypt(enc); !errors.Is(err, ErrMIC) {
		t.Fatalf("management frame accepted as data: %v", err)
	}
}

func TestErrors(t *testing.T) {
	k, _ := New(tk, 1)
	plain := unhex(t, mpdus[0].plain)
	good, err := k.Encrypt(withGap(t, plain), 7)
	if err != nil {
		t.Fatal(err)
	}
	mod := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	for _, c := range []struct {
		name  string
		frame []byte
		want  error
	}{
		{"short", good[:30], ErrShort},
		{"header only", good[:20], ErrShort},
		{"control", mod(func(b []byte) []byte { b[0] = 0xd4; return b }), ErrFrameType},
		{"not protected", mod(func(b []byte) []byte { b[1] &^= 0x40; return b }), ErrNotProtected},
		{"no ExtIV", mod(func(b []byte) []byte { b[27] &^= 0x20; return b }), ErrExtIV},
		{"other key ID", mod(func(b []byte) []byte { b[27] ^= 0xc0; return b }), ErrKeyID},
		{"MIC", mod(func(b []byte) []byte { b[len(b)-1]++; return b }), ErrMIC},
	} {
		if _, err := k.Decrypt(c.frame); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	for _, pn := range []uint64{0, MaxPN + 1} {
		if _, err := k.Encrypt(withGap(t, plain), pn); !errors.Is(err, ErrPN) {
			t.Errorf("PN %#x: %v", pn, err)
		}
	}
	if _, err := k.Encrypt(withGap(t, plain), MaxPN); err != nil {
		t.Errorf("PN 2^48-1: %v", err)
	}
	tight := withGap(t, plain)
	if _, err := k.Encrypt(tight[:len(tight):len(tight)], 1); !errors.Is(err, ErrRoom) {
		t.Errorf("no room for the MIC: %v", err)
	}
	if _, err := k.Encrypt(plain[:24+4], 1); !errors.Is(err, ErrShort) {
		t.Errorf("no room for the CCMP header: %v", err)
	}
	for _, c := range []struct {
		tk []byte
		id uint8
	}{{tk[:15], 0}, {tk, 4}} {
		if _, err := New(c.tk, c.id); !errors.Is(err, ErrKey) {
			t.Errorf("New(%d bytes, %d): %v", len(c.tk), c.id, err)
		}
	}
	if s := k.String(); s != "ccmp key 1" {
		t.Errorf("String %q", s)
	}
}

func TestReplay(t *testing.T) {
	var r Replay
	qos := ieee80211.Frame(unhex(t, mpdus[2].plain))
	if i := CounterIndex(qos); i != 13 {
		t.Fatalf("QoS TID 13 counter %d", i)
	}
	if i := CounterIndex(ieee80211.Frame(unhex(t, mpdus[0].plain))); i != 0 {
		t.Fatalf("non-QoS data counter %d", i)
	}
	if i := CounterIndex(ieee80211.Frame(unhex(t, mpdus[4].plain))); i != MgmtCounter {
		t.Fatalf("management counter %d", i)
	}
	if r.Fresh(3, 0) || !r.Fresh(3, 1) {
		t.Fatal("zero value must refuse PN 0 and take 1")
	}
	r.Accept(3, 10)
	if r.Fresh(3, 10) || r.Fresh(3, 9) || !r.Fresh(3, 11) || !r.Fresh(4, 1) {
		t.Fatal("counter 3 after 10")
	}
	r.Accept(3, 5) // an older PN never moves a counter back
	if r.Fresh(3, 10) {
		t.Fatal("counter moved back")
	}
	r.Reset(100)
	if r.Fresh(MgmtCounter, 100) || !r.Fresh(MgmtCounter, 101) || r.Fresh(15, 50) {
		t.Fatal("Reset")
	}
}

func TestZeroAllocs(t *testing.T) {
	k, _ := New(tk, 0)
	frame := benchFrame()
	n := testing.AllocsPerRun(100, func() {
		frame[1] &^= ieee80211.FCProtected >> 8 // Decrypt leaves it set
		enc, err := k.Encrypt(frame, 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := ParseHeader(enc); err != nil {
			t.Fatal(err)
		}
		if _, err := k.Decrypt(enc); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Fatalf("%v allocations per encrypt and decrypt", n)
	}
}

// benchFrame is a QoS data frame with a 1500-byte body (LLC/SNAP and an
// IP packet) and the room Encrypt wants.
func benchFrame() []byte {
	h := ieee80211.AppendDataHeader(nil, ieee80211.DataHeader{Flags: ieee80211.FCFromDS, QoS: true, TID: 0,
		Addr1: ieee80211.MAC{2, 0, 0, 0, 1, 0}, Addr2: ieee80211.MAC{2, 0, 0, 0, 0, 0}, Addr3: ieee80211.MAC{2, 0, 0, 0, 0, 0}})
	f := make([]byte, len(h)+HeaderLen+1500, len(h)+Overhead+1500)
	copy(f, h)
	return f
}

func BenchmarkEncrypt1500(b *testing.B) {
	k, _ := New(tk, 0)
	frame := benchFrame()
	b.SetBytes(1500)
	b.ReportAllocs()
	var pn uint64
	for b.Loop() {
		pn++
		frame[1] &^= ieee80211.FCProtected >> 8 // the same buffer each pass
		if _, err := k.Encrypt(frame, pn); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecrypt1500(b *testing.B) {
	k, _ := New(tk, 0)
	enc, _ := k.Encrypt(benchFrame(), 1)
	master := bytes.Clone(enc)
	b.SetBytes(1500)
	b.ReportAllocs()
	for b.Loop() {
		// Decrypt works in place: each pass restores the ciphertext first,
		// a 1.5 kB copy the figure includes.
		copy(enc, master)
		if _, err := k.Decrypt(enc); err != nil {
			b.Fatal(err)
		}
	}
}

func TestEncryptInHeadroom(t *testing.T) {
	for _, v := range mpdus {
		k, _ := New(unhex(t, v.tk), v.keyID)
		plain := unhex(t, v.plain)
		plain[1] &^= ieee80211.FCProtected >> 8 // as withGap
		buf := make([]byte, 0, 40+len(plain)+MICLen)
		buf = append(buf, make([]byte, 40)...)
		buf = append(buf, plain...)
		got, err := k.EncryptInHeadroom(buf, 40, v.pn)
		if err != nil || !bytes.Equal(got, unhex(t, v.encrypted)) {
			t.Fatalf("%s: %x %v", v.name, got, err)
		}
	}
	k, _ := New(tk, 0)
	plain := unhex(t, mpdus[0].plain)
	if _, err := k.EncryptInHeadroom(append(make([]byte, 4), plain...), 4, 1); !errors.Is(err, ErrRoom) {
		t.Fatalf("no headroom: %v", err)
	}
	if _, err := k.EncryptInHeadroom(append(make([]byte, 8), plain[:10]...), 8, 1); !errors.Is(err, ErrShort) {
		t.Fatalf("short frame: %v", err)
	}
}

func TestFragmentFollows(t *testing.T) {
	for _, c := range []struct {
		prev, pn uint64
		ok       bool
	}{{1, 2, true}, {41, 42, true}, {MaxPN - 1, MaxPN, true}, {1, 1, false}, {1, 3, false}, {2, 1, false},
		{MaxPN, MaxPN + 1, false}, {MaxPN, 0, false}} {
		if got := FragmentFollows(c.prev, c.pn); got != c.ok {
			t.Errorf("FragmentFollows(%d, %d) = %v", c.prev, c.pn, got)
		}
	}
}
