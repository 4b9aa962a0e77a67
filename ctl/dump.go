package ctl

import (
	"io"
	"strconv"
)

// A station dump is a reply of station sections, which the daemon writes as
// it goes instead of building it whole: at the AID limit (2007 stations)
// the records alone take most of a megabyte, their text several. The core
// fills one page of stations at a time into the connection's buffer
// (StationPage), the page is encoded into one reused buffer and written,
// and the next page starts after it, as nl80211 dumps a station table. The
// reply on the wire is the same as one built whole.

// DumpPageSize is how many stations a page of a streamed dump holds.
const DumpPageSize = 32

// StationPage is one page of a streamed station dump, filled in process:
// a Request of OpStationDump with Page set asks the core for the stations
// from AID From on, in AID order, written to Into[:N], and the AID to go
// on from (Next; 0 when the table is done). The caller owns Into and reuses
// it from page to page.
type StationPage struct {
	From uint16
	Into []Station
	N    int
	Next uint16
}

// WriteStationDump writes a station dump reply to w a page at a time; fill
// has the core fill the page p.From onwards (a Request of OpStationDump
// with Page p) and returns its reply, whose failure ends the dump with
// that errno. The dump is not one instant's: a station that comes or
// goes between two pages may be missing, but none is listed twice, and
// each station present throughout is listed once, in AID order.
func WriteStationDump(w io.Writer, fill func(p *StationPage) Reply) error {
	p := &StationPage{Into: make([]Station, DumpPageSize)}
	var b []byte
	for p.From, p.Next = 1, 1; p.Next != 0; p.From = p.Next {
		p.N, p.Next = 0, 0
		r := fill(p)
		if r.Errno == OK && (p.N > len(p.Into) || p.Next != 0 && p.Next <= p.From) {
			r = Errorf(EPROTO, "station dump: page from AID %d: %d stations, next AID %d", p.From, p.N, p.Next)
		}
		if r.Errno != OK {
			if p.From == 1 { // nothing written yet: the message goes too
				_, err := r.WriteTo(w)
				return err
			}
			_, err := w.Write(AppendEnd(b[:0], r.Errno))
			return err
		}
		var err error
		b = b[:0]
		for i := range p.Into[:p.N] {
			if b, err = AppendStationSection(b, &p.Into[i]); err != nil {
				return err
			}
		}
		if p.Next == 0 {
			b = AppendEnd(b, OK)
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// AppendStationSection appends s as one station section of a reply; it
// allocates nothing once b has room.
func AppendStationSection(b []byte, s *Station) ([]byte, error) {
	return appendSection(b, "station", recStation, s)
}

// AppendEnd appends the end of a reply: its errno line and the empty line.
func AppendEnd(b []byte, e Errno) []byte {
	b = append(b, "errno="...)
	b = strconv.AppendUint(b, uint64(e), 10)
	return append(b, "\n\n"...)
}
