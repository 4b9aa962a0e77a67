package ieee80211

import (
	"slices"
	"testing"
)

func coexChannels(m Coex2040Mgmt) []uint8 {
	var out []uint8
	m.IntolerantChannels(func(ch uint8) bool { out = append(out, ch); return true })
	return out
}

// TestParseCoex2040Mgmt follows hostapd_2040_coex_action's length checks.
func TestParseCoex2040Mgmt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		body  []byte // after category and action
		err   bool
		info  uint8
		chans []uint8
	}{
		{name: "bits alone", body: []byte{72, 1, 0x04}, info: 0x04},
		{name: "longer element", body: []byte{72, 2, 0x02, 0xff}, info: 0x02},
		{name: "one report", body: []byte{72, 1, 0, 73, 3, 81, 1, 11}, chans: []uint8{1, 11}},
		{name: "two reports", body: []byte{72, 1, 0, 73, 2, 81, 3, 73, 2, 81, 9}, chans: []uint8{3, 9}},
		{name: "report of a class alone", body: []byte{72, 1, 0, 73, 1, 81}},
		{name: "other element ends the reports", body: []byte{72, 1, 0, 73, 2, 81, 3, 221, 0, 73, 2, 81, 9}, chans: []uint8{3}},
		{name: "two octets left", body: []byte{72, 1, 0, 73, 1}},
		{name: "empty", body: nil, err: true},
		{name: "other element first", body: []byte{73, 1, 0}, err: true},
		{name: "empty element", body: []byte{72, 0, 0}, err: true},
		{name: "truncated element", body: []byte{72, 3, 0}, err: true},
		{name: "truncated report", body: []byte{72, 1, 0x04, 73, 4, 81, 1}, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseCoex2040Mgmt(tc.body)
			if (err != nil) != tc.err {
				t.Fatalf("err %v, want error %v", err, tc.err)
			}
			if err == nil && (m.Info() != tc.info || !slices.Equal(coexChannels(m), tc.chans)) {
				t.Errorf("info %#x channels %v, want %#x %v", m.Info(), coexChannels(m), tc.info, tc.chans)
			}
		})
	}
	b := AppendCoex2040Mgmt(nil, Coex2040Intolerant, 81, 1, 13)
	a, _ := ParseAction(b)
	if m, err := ParseCoex2040Mgmt(a.Body()); err != nil || a.Category() != CategoryPublic || a.Code() != ActionCoex2040 ||
		m.Info() != Coex2040Intolerant || !slices.Equal(coexChannels(m), []uint8{1, 13}) {
		t.Errorf("encoded %x: %v", b, err)
	}
}

// FuzzParseCoex2040Mgmt: an accepted body yields its channels without
// reading past its end, and every channel lies within the body.
func FuzzParseCoex2040Mgmt(f *testing.F) {
	f.Add([]byte{72, 1, 0x04})
	f.Add([]byte{72, 1, 0, 73, 3, 81, 1, 11})
	f.Add([]byte{72, 1, 0, 73, 2, 81, 3, 73, 2, 81, 9})
	f.Add([]byte{72, 1, 0x04, 73, 4, 81, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseCoex2040Mgmt(b)
		if err != nil {
			return
		}
		n := 0
		m.IntolerantChannels(func(uint8) bool { n++; return true })
		if n > len(b) {
			t.Fatalf("%d channels from %d octets", n, len(b))
		}
		stop := 0
		m.IntolerantChannels(func(uint8) bool { stop++; return false })
		if stop > 1 {
			t.Fatalf("went on after false")
		}
	})
}
