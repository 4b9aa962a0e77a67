package pmf

import (
	"bytes"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// FuzzParseSAQuery: a body that decodes encodes back to its own bytes.
func FuzzParseSAQuery(f *testing.F) {
	f.Add(ieee80211.Frame(saQueryRequest).Body())
	f.Add([]byte{8, 1, 0xff, 0xee, 0xc1, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := ParseSAQuery(b)
		if err != nil {
			return
		}
		if re := append(AppendSAQuery(nil, q.Action, q.ID), q.Elements...); !bytes.Equal(re, b) {
			t.Fatalf("%x re-encoded as %x", b, re)
		}
	})
}

// FuzzParseTimeoutInterval: a body that decodes encodes back to its own
// element.
func FuzzParseTimeoutInterval(f *testing.F) {
	f.Add([]byte{3, 0xe8, 3, 0, 0})
	f.Add([]byte{2, 0x10, 0x0e, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		ti, err := ParseTimeoutInterval(b)
		if err != nil {
			return
		}
		if re := ti.Append(nil); !bytes.Equal(re[2:], b) || re[1] != byte(len(b)) {
			t.Fatalf("%x re-encoded as %x", b, re)
		}
	})
}

// FuzzCheck: any frame gets a verdict without a panic; a drop is only
// ever for a management frame, and a protected robust frame of an MFP
// station is opened unless group-addressed.
func FuzzCheck(f *testing.F) {
	f.Add(saQueryRequest, true)
	f.Add([]byte(mgmt(ieee80211.SubtypeDeauth, ieee80211.MAC{2}, true, 1, 2)), false)
	f.Fuzz(func(t *testing.T, b []byte, mfp bool) {
		v := Check(ieee80211.Frame(b), mfp)
		fr := ieee80211.Frame(b)
		if v != Pass && (len(b) < ieee80211.MgmtHeaderLen || fr.Type() != ieee80211.TypeMgmt) {
			t.Fatalf("verdict %v for a non-management frame", v)
		}
		if v == Open && (!mfp || !fr.Protected() || fr.Addr1().IsMulticast()) {
			t.Fatalf("opened %x (mfp %v)", b, mfp)
		}
	})
}
