package ccmp

import (
	"bytes"
	"errors"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// TestSealOwnsThePN: Seal numbers frames 1, 2, 3... under each key, never
// reuses a PN Encrypt took, reports the last one for a group key's RSC,
// and stops at MaxPN.
func TestSealOwnsThePN(t *testing.T) {
	k, _ := New(tk, 0)
	if k.LastPN() != 0 {
		t.Fatalf("new key: LastPN %d", k.LastPN())
	}
	for want := uint64(1); want <= 3; want++ {
		pn, out, err := k.Seal(qosFrame())
		got, _, _ := ParseHeader(out)
		if err != nil || pn != want || got != want || k.LastPN() != want {
			t.Fatalf("Seal %d: PN %d, header %d, LastPN %d, %v", want, pn, got, k.LastPN(), err)
		}
	}
	if _, err := k.Encrypt(qosFrame(), 100); err != nil {
		t.Fatal(err)
	}
	if pn, _, _ := k.Seal(qosFrame()); pn != 101 {
		t.Fatalf("Seal after Encrypt with PN 100: %d", pn)
	}
	if _, err := k.Encrypt(qosFrame(), 50); err != nil || k.LastPN() != 101 {
		t.Fatalf("an older PN moved LastPN to %d (%v)", k.LastPN(), err)
	}
	// A refused frame uses no PN.
	enc, _ := k.Encrypt(qosFrame(), 200)
	if _, _, err := k.Seal(enc); !errors.Is(err, ErrProtected) || k.LastPN() != 200 {
		t.Fatalf("Seal of a protected frame: %v, LastPN %d", err, k.LastPN())
	}
	if _, err := k.Encrypt(qosFrame(), MaxPN-1); err != nil {
		t.Fatal(err)
	}
	if pn, _, err := k.Seal(qosFrame()); pn != MaxPN || err != nil {
		t.Fatalf("last PN: %d %v", pn, err)
	}
	for range 2 {
		if _, _, err := k.Seal(qosFrame()); !errors.Is(err, ErrPNSpent) {
			t.Fatalf("after MaxPN: %v", err)
		}
		if _, _, err := k.SealInHeadroom(headroomFrame(), 8); !errors.Is(err, ErrPNSpent) {
			t.Fatalf("after MaxPN, in headroom: %v", err)
		}
	}
}

// headroomFrame is qosFrame without the CCMP gap, after 8 bytes of
// headroom.
func headroomFrame() []byte {
	f := qosFrame()
	h := ieee80211.Frame(f).HeaderLen()
	b := append(make([]byte, HeaderLen, HeaderLen+len(f)+MICLen), f[:h]...)
	return append(b, f[h+HeaderLen:]...)
}

// TestSealInHeadroom: the same sequence, the same bytes as Seal.
func TestSealInHeadroom(t *testing.T) {
	a, _ := New(tk, 1)
	b, _ := New(tk, 1)
	for i := 0; i < 3; i++ {
		pa, fa, errA := a.Seal(qosFrame())
		pb, fb, errB := b.SealInHeadroom(headroomFrame(), HeaderLen)
		if errA != nil || errB != nil || pa != pb || !bytes.Equal(fa, fb) {
			t.Fatalf("frame %d: PN %d/%d %v %v\n%x\n%x", i, pa, pb, errA, errB, fa, fb)
		}
	}
	_, once, _ := b.SealInHeadroom(headroomFrame(), HeaderLen)
	// A protected frame after headroom (sealed twice by mistake) is
	// refused before its header moves.
	again := append(make([]byte, HeaderLen, HeaderLen+len(once)+MICLen), once...)
	before := bytes.Clone(again)
	if _, _, err := b.SealInHeadroom(again, HeaderLen); !errors.Is(err, ErrProtected) {
		t.Fatalf("SealInHeadroom of a protected frame: %v", err)
	}
	if !bytes.Equal(again, before) || b.LastPN() != 4 {
		t.Fatalf("a refused frame changed, or used a PN: LastPN %d", b.LastPN())
	}
}

func TestSealZeroAllocs(t *testing.T) {
	k, _ := New(tk, 0)
	frame := benchFrame()
	n := testing.AllocsPerRun(100, func() {
		frame[1] &^= ieee80211.FCProtected >> 8
		if _, _, err := k.Seal(frame); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Fatalf("%v allocations per Seal", n)
	}
}

func BenchmarkSeal1500(b *testing.B) {
	k, _ := New(tk, 0)
	frame := benchFrame()
	b.SetBytes(1500)
	b.ReportAllocs()
	for b.Loop() {
		frame[1] &^= ieee80211.FCProtected >> 8 // the same buffer each pass
		if _, _, err := k.Seal(frame); err != nil {
			b.Fatal(err)
		}
	}
}
