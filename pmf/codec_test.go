package pmf

import (
	"bytes"
	"errors"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// saQueryRequest is an SA Query Request as hostapd's
// ieee802_11_send_sa_query_req lays it out (before CCMP): header, category
// 8, action 0, transaction ID.
var saQueryRequest = []byte{
	0xd0, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x02,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x10, 0x00, 0x08, 0x00, 0x5a, 0xa5}

func TestSAQueryCodec(t *testing.T) {
	f := ieee80211.Frame(saQueryRequest)
	q, err := ParseSAQuery(f.Body())
	if err != nil || q.Action != ActionRequest || q.ID != (TransactionID{0x5a, 0xa5}) || len(q.Elements) != 0 {
		t.Fatalf("%+v %v", q, err)
	}
	re := AppendSAQuery(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAction, f.Addr1(), f.Addr2(), f.Addr3(), 1), ActionRequest, q.ID)
	if !bytes.Equal(re, saQueryRequest) {
		t.Fatalf("re-encoded %x", re)
	}
	resp := AppendSAQuery(nil, ActionResponse, q.ID)
	if r, err := ParseSAQuery(append(resp, 0xc1, 0)); err != nil || r.Action != ActionResponse || r.ID != q.ID || len(r.Elements) != 2 {
		t.Fatalf("response with an element: %+v %v", r, err)
	}
	for _, c := range []struct {
		b    []byte
		want error
	}{
		{[]byte{8, 0, 1}, ErrShort},
		{[]byte{4, 0, 1, 2}, ErrCategory},
		{[]byte{8, 2, 1, 2}, ErrAction},
	} {
		if _, err := ParseSAQuery(c.b); !errors.Is(err, c.want) {
			t.Errorf("%x: %v, want %v", c.b, err, c.want)
		}
	}
}

func TestTimeoutInterval(t *testing.T) {
	e := AppendComeback(nil, 513)
	if !bytes.Equal(e, []byte{56, 5, 3, 0x01, 0x02, 0, 0}) {
		t.Fatalf("comeback element %x", e)
	}
	elems := ieee80211.Elements(append([]byte{1, 1, 0x82}, e...))
	if tus, ok := Comeback(elems); !ok || tus != 513 {
		t.Fatalf("Comeback: %d %v", tus, ok)
	}
	key := TimeoutInterval{Type: TimeoutKeyLifetime, Value: 3600}.Append(nil)
	if _, ok := Comeback(ieee80211.Elements(key)); ok {
		t.Fatal("a key lifetime taken for a comeback time")
	}
	if _, ok := Comeback(ieee80211.Elements{56, 4, 3, 0, 0, 0}); ok {
		t.Fatal("a 4-octet element accepted")
	}
	if _, err := ParseTimeoutInterval([]byte{3, 0, 0, 0, 0, 0}); !errors.Is(err, ErrTimeoutInterval) {
		t.Fatalf("6 octets: %v", err)
	}
}

func mgmt(subtype uint8, a1 ieee80211.MAC, protected bool, body ...byte) ieee80211.Frame {
	f := ieee80211.AppendMgmtHeader(nil, subtype, a1, ieee80211.MAC{2, 0, 0, 0, 0, 9}, a1, 3)
	if protected {
		f[1] |= ieee80211.FCProtected >> 8
	}
	return append(f, body...)
}

func TestRobust(t *testing.T) {
	ap := ieee80211.MAC{2, 0, 0, 0, 0, 1}
	robust := []ieee80211.Frame{
		mgmt(ieee80211.SubtypeDeauth, ap, false, 7, 0),
		mgmt(ieee80211.SubtypeDisassoc, ap, false, 8, 0),
		mgmt(ieee80211.SubtypeAction, ap, false, ieee80211.CategorySAQuery, 0, 1, 2),
		mgmt(ieee80211.SubtypeAction, ap, false, ieee80211.CategoryBlockAck, 0),
		mgmt(ieee80211.SubtypeAction, ap, false, ieee80211.CategorySpectrumMgmt, 4),
		mgmt(ieee80211.SubtypeAction, ap, false, ieee80211.CategoryWNM, 7),
		mgmt(ieee80211.SubtypeActionNoAck, ap, false, 126),
		mgmt(ieee80211.SubtypeAction, ap, true, 0, 0, 0, 0), // the category is encrypted
	}
	notRobust := []ieee80211.Frame{
		mgmt(ieee80211.SubtypeAuth, ap, false, 0, 0, 1, 0, 0, 0),
		mgmt(ieee80211.SubtypeAssocReq, ap, false, 0, 0, 10, 0),
		mgmt(ieee80211.SubtypeProbeReq, ap, false),
		mgmt(ieee80211.SubtypeAction, ap, false, ieee80211.CategoryPublic, 0),
		mgmt(ieee80211.SubtypeAction, ap, false, ieee80211.CategoryHT, 0),
		mgmt(ieee80211.SubtypeAction, ap, false, ieee80211.CategoryVHT, 0),
		mgmt(ieee80211.SubtypeAction, ap, false, 15, 1), // self-protected
		mgmt(ieee80211.SubtypeAction, ap, false, ieee80211.CategoryVendor, 0),
		mgmt(ieee80211.SubtypeAction, ap, false), // no category
		ieee80211.Frame(ieee80211.AppendNullData(nil, ap, ap, 1, false)),
	}
	for i, f := range robust {
		if !IsRobust(f) {
			t.Errorf("robust frame %d: %x", i, f)
		}
	}
	for i, f := range notRobust {
		if IsRobust(f) {
			t.Errorf("frame %d taken as robust: %x", i, f)
		}
	}
}

// TestCheck: the receive rules for a station with and without MFP.
func TestCheck(t *testing.T) {
	ap, group := ieee80211.MAC{2, 0, 0, 0, 0, 1}, ieee80211.Broadcast
	for _, c := range []struct {
		name     string
		f        ieee80211.Frame
		mfp, off Verdict
	}{
		{"unprotected deauth", mgmt(ieee80211.SubtypeDeauth, ap, false, 7, 0), DropUnprotectedDeauth, Pass},
		{"unprotected disassoc", mgmt(ieee80211.SubtypeDisassoc, ap, false, 8, 0), DropUnprotectedDisassoc, Pass},
		{"unprotected SA Query", mgmt(ieee80211.SubtypeAction, ap, false, 8, 1, 0, 0), DropUnprotectedAction, Pass},
		{"unprotected public action", mgmt(ieee80211.SubtypeAction, ap, false, 4, 0), Pass, Pass},
		{"protected deauth", mgmt(ieee80211.SubtypeDeauth, ap, true, make([]byte, 18)...), Open, DropProtected},
		{"protected action", mgmt(ieee80211.SubtypeAction, ap, true, make([]byte, 20)...), Open, DropProtected},
		{"group deauth", mgmt(ieee80211.SubtypeDeauth, group, false, 7, 0), DropGroupAddressed, Pass},
		{"authentication", mgmt(ieee80211.SubtypeAuth, ap, false, 0, 0, 1, 0, 0, 0), Pass, Pass},
		{"protected authentication", mgmt(ieee80211.SubtypeAuth, ap, true, 0, 0, 3, 0, 0, 0), DropProtected, DropProtected},
		{"association request", mgmt(ieee80211.SubtypeAssocReq, ap, false, 0, 0, 10, 0), Pass, Pass},
		{"data", ieee80211.Frame(ieee80211.AppendNullData(nil, ap, ap, 1, false)), Pass, Pass},
	} {
		if got := Check(c.f, true); got != c.mfp {
			t.Errorf("%s, MFP: %v, want %v", c.name, got, c.mfp)
		}
		if got := Check(c.f, false); got != c.off {
			t.Errorf("%s, no MFP: %v, want %v", c.name, got, c.off)
		}
	}
	if Verdict(200).String() != "verdict?" || DropUnprotectedDeauth.String() != "unprotected_deauth" {
		t.Error("verdict names")
	}
}

func TestCheckZeroAllocs(t *testing.T) {
	f := mgmt(ieee80211.SubtypeAction, ieee80211.MAC{2}, false, 8, 0, 1, 2)
	n := testing.AllocsPerRun(100, func() {
		if Check(f, true) != DropUnprotectedAction {
			t.Fatal("verdict")
		}
		if _, err := ParseSAQuery(f.Body()); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
