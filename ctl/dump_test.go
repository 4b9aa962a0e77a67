package ctl

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// manyStations is n stations with AIDs 1, 3, 5, ...
func manyStations(n int) []Station {
	out := make([]Station, n)
	base := sampleStations()
	for i := range out {
		out[i] = base[i%len(base)]
		out[i].AID = uint16(2*i + 1)
		out[i].Addr = MAC{2, 0, 0, 0, byte(i >> 8), byte(i)}
	}
	return out
}

// pager fills pages from all, as the core does.
func pager(all []Station) func(p *StationPage) Reply {
	return func(p *StationPage) Reply {
		for _, s := range all {
			if s.AID < p.From {
				continue
			}
			if p.N == len(p.Into) {
				p.Next = s.AID
				break
			}
			p.Into[p.N] = s
			p.N++
		}
		return Reply{}
	}
}

// A streamed dump is, byte for byte, the reply built whole, whatever the
// number of pages; it decodes to the same stations.
func TestWriteStationDump(t *testing.T) {
	for _, n := range []int{0, 1, DumpPageSize, DumpPageSize + 1, 3*DumpPageSize + 5} {
		all := manyStations(n)
		var buf bytes.Buffer
		if err := WriteStationDump(&buf, pager(all)); err != nil {
			t.Fatal(err)
		}
		whole := Reply{Stations: all}
		if n == 0 {
			whole.Stations = nil
		}
		want, err := whole.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Fatalf("%d stations: the streamed dump differs from the whole reply", n)
		}
		r, err := DecodeReply(buf.Bytes())
		if err != nil || len(r.Stations) != n {
			t.Fatalf("%d stations: decoded %d, %v", n, len(r.Stations), err)
		}
	}
}

// A page that fails ends the dump with its errno; before anything was
// written, the reply is the failure whole, message included. A page that
// goes backwards is a protocol error, not an endless dump.
func TestWriteStationDumpFails(t *testing.T) {
	all := manyStations(2*DumpPageSize + 1)
	pages := 0
	fill := pager(all)
	var buf bytes.Buffer
	err := WriteStationDump(&buf, func(p *StationPage) Reply {
		if pages++; pages == 2 {
			return Errorf(EBUSY, "shutting down")
		}
		return fill(p)
	})
	if err != nil || !strings.HasSuffix(buf.String(), "errno=16\n\n") {
		t.Fatalf("mid-dump failure: %v, ends %q", err, buf.String()[max(buf.Len()-20, 0):])
	}
	var e *Error
	if r, err := DecodeReply(buf.Bytes()); len(r.Stations) != DumpPageSize || !errors.As(r.Err(), &e) || e.Errno != EBUSY || err != nil {
		t.Errorf("decoded %d stations (the first page), %v, %v", len(r.Stations), r.Err(), err)
	}
	buf.Reset()
	WriteStationDump(&buf, func(p *StationPage) Reply { return Errorf(EBUSY, "shutting down") })
	if r, err := DecodeReply(buf.Bytes()); err != nil || r.Errno != EBUSY || r.Error != "shutting down" {
		t.Errorf("first-page failure: %+v, %v", r, err)
	}
	buf.Reset()
	WriteStationDump(&buf, func(p *StationPage) Reply { p.N, p.Next = 1, p.From; return Reply{} })
	if r, _ := DecodeReply(buf.Bytes()); r.Errno != EPROTO {
		t.Errorf("a page that does not advance: %+v", r)
	}
}

// Encoding a station section allocates nothing once the buffer has room:
// a dump of a full table costs its buffers, not its stations.
func TestStationSectionAllocs(t *testing.T) {
	s := sampleStations()[0]
	b, _ := AppendStationSection(nil, &s)
	if n := testing.AllocsPerRun(1000, func() { b, _ = AppendStationSection(b[:0], &s) }); n != 0 {
		t.Errorf("%v allocations per station section", n)
	}
}
