package aql

import (
	"testing"
)

func FuzzTxqLimit(f *testing.F) {
	d := DefaultLimits()
	f.Add(d.TxqLimitText())
	f.Add("AC\tAQL limit low\tAQL limit high\nVO\t1\t\t2\nVI\t3\t\t4\nBE\t500\t\t1000\nBK\t0\t\t4294967295\n")
	f.Add("AC AQL limit low AQL limit high\nBK 1 2\nBE 1 2\nVI 1 2\nVO 1 2")
	f.Fuzz(func(t *testing.T, s string) {
		var l Limits
		if l.ParseTxqLimit(s) != nil {
			return
		}
		var back Limits
		if err := back.ParseTxqLimit(l.TxqLimitText()); err != nil || back != l {
			t.Fatalf("parse(print(x)) != x: %v %+v %+v", err, back, l)
		}
	})
}

func FuzzTxqLimitValues(f *testing.F) {
	f.Add(uint32(5000), uint32(12000), uint32(500), uint32(1000))
	f.Fuzz(func(t *testing.T, a, b, c, d uint32) {
		l := Limits{Low: [4]uint32{a, b, c, d}, High: [4]uint32{d, c, b, a}}
		l.Threshold = a ^ d
		valid := a <= d && b <= c
		// Every parser applies one rule: LOW <= HIGH in each AC.
		var table, flagged Limits
		errT, errF := table.ParseTxqLimit(l.TxqLimitText()), flagged.Set(l.String())
		if !valid {
			if errT == nil || errF == nil || table != (Limits{}) || flagged != (Limits{}) {
				t.Fatalf("low above high accepted: table %v, flag %v", errT, errF)
			}
			return
		}
		if errT != nil || table.Low != l.Low || table.High != l.High {
			t.Fatalf("table round trip: %v %+v", errT, table)
		}
		if errF != nil || flagged != l {
			t.Fatalf("flag round trip: %v %+v", errF, flagged)
		}
	})
}

func FuzzTxqLimitWrite(f *testing.F) {
	f.Add("2 500 1000\n")
	f.Add("0 5000 12000")
	f.Add("4 1 1")
	f.Fuzz(func(t *testing.T, s string) {
		w, err := ParseTxqLimitWrite(s)
		if err != nil {
			return
		}
		if w.AC > 3 {
			t.Fatalf("AC %d accepted", w.AC)
		}
		back, err := ParseTxqLimitWrite(w.String())
		if err != nil || back != w {
			t.Fatalf("parse(print(x)) != x: %v %+v %+v", err, back, w)
		}
	})
}

func FuzzThreshold(f *testing.F) {
	f.Add("24000\n")
	f.Add("0x5dc0")
	f.Add("0777")
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseThreshold(s)
		if err != nil {
			return
		}
		back, err := ParseThreshold(FormatThreshold(v))
		if err != nil || back != v {
			t.Fatalf("parse(print(%d)) = %d, %v", v, back, err)
		}
	})
}

func FuzzPending(f *testing.F) {
	f.Add(PendingSnapshot{AC: [4]uint64{1, 2, 3, 4}, Total: 10}.String())
	f.Add("AC     AQL pending\nVO     0 us\nVI     0 us\nBE     0 us\nBK     0 us\ntotal  0 us\n")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePending(s)
		if err != nil {
			return
		}
		back, err := ParsePending(p.String())
		if err != nil || back != p {
			t.Fatalf("parse(print(x)) != x: %v %+v %+v", err, back, p)
		}
	})
}

func FuzzFlag(f *testing.F) {
	d := DefaultLimits()
	f.Add(d.String())
	f.Add("VO=5000:12000,BE=500:1000")
	f.Add("be=1:2, threshold=0")
	f.Fuzz(func(t *testing.T, s string) {
		l := DefaultLimits()
		if l.Set(s) != nil {
			if l != DefaultLimits() {
				t.Fatal("limits changed on error")
			}
			return
		}
		var back Limits
		if err := back.Set(l.String()); err != nil || back != l {
			t.Fatalf("parse(print(x)) != x: %v %+v %+v", err, back, l)
		}
	})
}
