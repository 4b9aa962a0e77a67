package ccmp

import (
	"bytes"
	"errors"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// deauthVector is 802.11-2012 M.9.2, the unicast Deauthentication under
// MFP (mpdus[4]): PN 1, the first a new key sends.
func deauthVector(t testing.TB) (k *Key, plain, want []byte) {
	v := mpdus[4]
	k, err := New(unhex(t, v.tk), v.keyID)
	if err != nil {
		t.Fatal(err)
	}
	return k, withGap(t, unhex(t, v.plain)), unhex(t, v.encrypted)
}

func TestSealMgmtVector(t *testing.T) {
	k, plain, want := deauthVector(t)
	pn, got, err := k.SealMgmt(plain)
	if err != nil || pn != 1 || !bytes.Equal(got, want) {
		t.Fatalf("SealMgmt: PN %d %v\n got %x\nwant %x", pn, err, got, want)
	}
	var r Replay
	body, err := k.OpenMgmt(bytes.Clone(want), &r)
	if err != nil || !bytes.Equal(body, []byte{0x02, 0x00}) { // reason 2
		t.Fatalf("OpenMgmt: %x %v", body, err)
	}
}

// TestSealMgmtInHeadroom: the same bytes from a frame built without the
// CCMP gap.
func TestSealMgmtInHeadroom(t *testing.T) {
	k, _, want := deauthVector(t)
	plain := unhex(t, mpdus[4].plain)
	plain[1] &^= ieee80211.FCProtected >> 8
	buf := append(make([]byte, HeaderLen, HeaderLen+len(plain)+MICLen), plain...)
	pn, got, err := k.SealMgmtInHeadroom(buf, HeaderLen)
	if err != nil || pn != 1 || !bytes.Equal(got, want) {
		t.Fatalf("PN %d %v\n got %x\nwant %x", pn, err, got, want)
	}
	buf = append(make([]byte, HeaderLen, HeaderLen+len(plain)+MICLen), plain...)
	copy(buf[HeaderLen+4:], ieee80211.Broadcast[:])
	if _, _, err := k.SealMgmtInHeadroom(buf, HeaderLen); !errors.Is(err, ErrGroupAddressed) {
		t.Fatalf("group-addressed: %v", err)
	}
	if _, _, err := k.SealMgmtInHeadroom(buf, len(buf)+1); !errors.Is(err, ErrRoom) {
		t.Fatalf("offset past the buffer: %v", err)
	}
}

// TestMgmtSubtypeAuthenticated: unlike a data frame's, a management
// frame's subtype is in the AAD, so a Deauthentication cannot be replayed
// as a Disassociation.
func TestMgmtSubtypeAuthenticated(t *testing.T) {
	k, _, want := deauthVector(t)
	f := bytes.Clone(want)
	f[0] = ieee80211.SubtypeDisassoc << 4
	var r Replay
	if _, err := k.OpenMgmt(f, &r); !errors.Is(err, ErrMIC) {
		t.Fatalf("subtype changed: %v", err)
	}
}

// TestOpenMgmtReplay: the management counter accepts strictly increasing
// PNs, apart from the data counters; a refused frame moves nothing.
func TestOpenMgmtReplay(t *testing.T) {
	k, _ := New(tk, 0)
	seal := func(pn uint64) []byte {
		f := ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAction, ieee80211.MAC{2}, ieee80211.MAC{4}, ieee80211.MAC{2}, 1)
		f = append(f, make([]byte, HeaderLen)...)
		f = append(f, ieee80211.CategorySAQuery, 0, 0xab, 0xcd)
		out, err := k.Encrypt(append(make([]byte, 0, len(f)+MICLen), f...), pn)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	var r Replay
	if _, err := k.OpenMgmt(seal(5), &r); err != nil {
		t.Fatal(err)
	}
	for _, pn := range []uint64{5, 4} {
		f := seal(pn)
		before := bytes.Clone(f)
		if _, err := k.OpenMgmt(f, &r); !errors.Is(err, ErrReplay) || !bytes.Equal(f, before) {
			t.Fatalf("PN %d after 5: %v", pn, err)
		}
	}
	forged := seal(9)
	forged[len(forged)-1] ^= 1
	if _, err := k.OpenMgmt(forged, &r); !errors.Is(err, ErrMIC) {
		t.Fatalf("forged: %v", err)
	}
	if _, err := k.OpenMgmt(seal(6), &r); err != nil {
		t.Fatalf("PN 6 after a forged PN 9: %v", err)
	}
	if !r.Fresh(0, 1) || r.Fresh(MgmtCounter, 6) {
		t.Fatalf("counters: data %v, management %v", r.Fresh(0, 1), r.Fresh(MgmtCounter, 6))
	}
}

func TestMgmtRefused(t *testing.T) {
	k, plain, want := deauthVector(t)
	group := bytes.Clone(plain)
	copy(group[4:10], ieee80211.Broadcast[:])
	if _, _, err := k.SealMgmt(group); !errors.Is(err, ErrGroupAddressed) || k.LastPN() != 0 {
		t.Fatalf("group-addressed: %v, LastPN %d", err, k.LastPN())
	}
	if _, _, err := k.SealMgmt(qosFrame()); !errors.Is(err, ErrNotMgmt) {
		t.Fatalf("data frame: %v", err)
	}
	if _, _, err := k.SealMgmt(plain[:10]); !errors.Is(err, ErrShort) {
		t.Fatalf("short: %v", err)
	}
	var r Replay
	g := bytes.Clone(want)
	copy(g[4:10], ieee80211.Broadcast[:])
	if _, err := k.OpenMgmt(g, &r); !errors.Is(err, ErrGroupAddressed) {
		t.Fatalf("group-addressed open: %v", err)
	}
	other, _ := New(tk, 1)
	if _, err := other.OpenMgmt(bytes.Clone(want), &r); !errors.Is(err, ErrKeyID) {
		t.Fatalf("key ID: %v", err)
	}
}

func TestMgmtZeroAllocs(t *testing.T) {
	k, plain, _ := deauthVector(t)
	frame := append(make([]byte, 0, len(plain)+MICLen), plain...)
	rx, _ := New(unhex(t, mpdus[4].tk), 0)
	var r Replay
	n := testing.AllocsPerRun(100, func() {
		frame = frame[:len(plain)]
		copy(frame, plain)
		_, out, err := k.SealMgmt(frame)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rx.OpenMgmt(out, &r); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Fatalf("%v allocations per SealMgmt and OpenMgmt", n)
	}
}
