package aql

import (
	"flag"
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

func TestTxqLimitKernelFormat(t *testing.T) {
	l := DefaultLimits()
	l.Low[ieee80211.ACBE], l.High[ieee80211.ACBE] = 500, 1000
	want := "AC\tAQL limit low\tAQL limit high\n" +
		"VO\t5000\t\t12000\n" +
		"VI\t5000\t\t12000\n" +
		"BE\t500\t\t1000\n" +
		"BK\t5000\t\t12000\n"
	if got := l.TxqLimitText(); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	var back Limits
	if err := back.ParseTxqLimit(want); err != nil {
		t.Fatal(err)
	}
	if back.Low != l.Low || back.High != l.High {
		t.Fatalf("round trip %+v", back)
	}
}

func TestTxqLimitWrite(t *testing.T) {
	w, err := ParseTxqLimitWrite("2 500 1000\n")
	if err != nil || w != (TxqLimitWrite{AC: ieee80211.ACBE, Low: 500, High: 1000}) {
		t.Fatalf("%+v %v", w, err)
	}
	tr := New(Config{})
	if err := w.Apply(tr); err != nil {
		t.Fatal(err)
	}
	if err := tr.SetLimit(ieee80211.ACBE, 1001, 1000); err == nil || tr.Limits().Low[ieee80211.ACBE] != 500 {
		t.Errorf("SetLimit low above high: %v, limits %+v", err, tr.Limits())
	}
	if l := tr.Limits(); l.Low[ieee80211.ACBE] != 500 || l.High[ieee80211.ACBE] != 1000 {
		t.Fatal("not applied")
	}
	for _, tc := range []struct{ in, mention string }{
		{"4 1 2", "AC \"4\": accepted range 0..3"},
		{"BE 1 2", "AC \"BE\": accepted range 0..3"},
		{"2 x 2", "BE low \"x\": accepted range 0..4294967295"},
		{"1 1 4294967296", "VI high \"4294967296\": accepted range"},
		{"1 -1 2", "VI low"},
		{"2 1000 500", "BE low 1000 µs is above high 500 µs"},
		{"1 2", "want"},
		{"1 2 3 4", "want"},
	} {
		_, err := ParseTxqLimitWrite(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%q: error %v, want mention of %q", tc.in, err, tc.mention)
		}
	}
}

func TestThresholdText(t *testing.T) {
	if got := FormatThreshold(24000); got != "24000\n" {
		t.Fatalf("%q", got)
	}
	for in, want := range map[string]uint32{"24000\n": 24000, "0x10": 16, "010": 8, "0": 0, "4294967295": 1<<32 - 1} {
		if got, err := ParseThreshold(in); err != nil || got != want {
			t.Errorf("%q: %d %v", in, got, err)
		}
	}
	for _, in := range []string{"", "-1", "4294967296", "1_000", "0b1", " 5", "x"} {
		if _, err := ParseThreshold(in); err == nil || !strings.Contains(err.Error(), "threshold") {
			t.Errorf("%q accepted (%v)", in, err)
		}
	}
}

func TestPendingKernelFormat(t *testing.T) {
	tr := New(Config{})
	tr.Add(1, ieee80211.ACBE, 700)
	tr.Add(0, ieee80211.ACVO, 20)
	want := "AC     AQL pending\n" +
		"VO     20 us\n" +
		"VI     0 us\n" +
		"BE     700 us\n" +
		"BK     0 us\n" +
		"total  720 us\n"
	p := tr.Snapshot()
	if got := p.String(); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	back, err := ParsePending(want)
	if err != nil || back != p {
		t.Fatalf("round trip %+v %v", back, err)
	}
}

func TestFlag(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	l := DefaultLimits()
	fs.Var(&l, "aql", "AQL limits")
	if err := fs.Parse([]string{"-aql", "VO=5000:12000,BE=500:1000", "-aql", "bk=1:2", "-aql", "threshold=9000"}); err != nil {
		t.Fatal(err)
	}
	want := DefaultLimits()
	want.Low[ieee80211.ACBE], want.High[ieee80211.ACBE] = 500, 1000
	want.Low[ieee80211.ACBK], want.High[ieee80211.ACBK] = 1, 2
	want.Threshold = 9000
	if l != want {
		t.Fatalf("merged %+v", l)
	}
	var back Limits
	if err := back.Set(l.String()); err != nil || back != l {
		t.Fatalf("round trip %v %+v", err, back)
	}
	for _, tc := range []struct{ in, mention string }{
		{"XX=1:2", "unknown key \"XX\""},
		{"BE=1", "BE \"1\": want LOW:HIGH"},
		{"VI=1:x", "VI high \"x\": accepted range 0..4294967295"},
		{"VO=99999999999:1", "VO low"},
		{"threshold=-5", "threshold \"-5\": accepted range"},
		{"BE", "want KEY=VALUE"},
		{"VO=5000:12000,BE=1000:500", "BE low 1000 µs is above high 500 µs: want LOW <= HIGH"},
	} {
		before := l
		err := l.Set(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%q: error %v, want mention of %q", tc.in, err, tc.mention)
		}
		if l != before {
			t.Errorf("%q: limits changed on error", tc.in)
		}
	}
}
