package ctl

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzParseRequest: parsing never panics, and a parsed request prints to a
// canonical line that parses back to the same request.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{"status", "station dump", "station get 02:00:00:00:01:00",
		"station set 02-00-00-00-01-00 airtime_weight 512", "station del 02:00:00:00:01:00", "aql",
		"aql set BE 500 1000", "aql set 3 0 4294967295 force", "aql set BE 0 0 force", "aql threshold 24000", "scheduler", "events", "aql set be 1 2\n",
		"scan", "scan dump", "survey dump", "station get 02:00:00:00:01:00 rates", "acs", "snapshot", "dev",
		"dev guest station dump", "dev wlan0 station get 02:00:00:00:01:00 rates"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseRequest(line)
		if err != nil {
			return
		}
		again, err := ParseRequest(r.String())
		if err != nil || again != r {
			t.Fatalf("%q -> %q -> %+v, %v; want %+v", line, r.String(), again, err, r)
		}
	})
}

// FuzzReply: decoding never panics, and a decoded reply encodes to text
// that decodes to the same reply and encodes to the same bytes.
func FuzzReply(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "reply-*.txt"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("section=scheduler\nsection=ac\nac=VO\nsection=ac\nac=VI\nsection=ac\nac=BE\nsection=ac\nac=BK\nerrno=0\n\n"))
	f.Add([]byte("error=\"\\x00\\n\"\nerrno=71\n\n"))
	f.Add([]byte("section=rates\nsection=rate\nprob=1e-3\nsection=bss\nrates=63.5 HT*\nsection=rate\nerrno=0\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeReply(b)
		if err != nil {
			return
		}
		enc, err := r.Encode()
		if err != nil {
			t.Fatalf("encode %+v: %v", r, err)
		}
		back, err := DecodeReply(enc)
		if err != nil || !reflect.DeepEqual(back, r) {
			t.Fatalf("round trip: %v\n%s\n%+v\n%+v", err, enc, back, r)
		}
		if again, _ := back.Encode(); string(again) != string(enc) {
			t.Fatalf("encoding is not canonical:\n%s\n%s", enc, again)
		}
	})
}
