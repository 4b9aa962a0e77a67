package link

import (
	"encoding/binary"
	"errors"
	"syscall"
	"testing"
)

// statsReply is the kernel's answer to request seq: the header, the
// request's if_stats_msg, an attribute the reader skips, then
// IFLA_STATS_LINK_64 with counters 1, 2, 3, ... (25 of them, as today).
func statsReply(seq uint32) []byte {
	ne := binary.NativeEndian
	b := make([]byte, statsReqLen)
	putStatsRequest(b, 7, seq)
	ne.PutUint16(b[4:], rtmNewStats)
	b = ne.AppendUint16(b, 6) // an unknown attribute, padded
	b = ne.AppendUint16(b, 9)
	b = append(b, 0xaa, 0xbb, 0, 0)
	b = ne.AppendUint16(b, nlAttrHdrLen+25*8)
	b = ne.AppendUint16(b, iflaStatsLink64)
	for i := range 25 {
		b = ne.AppendUint64(b, uint64(i+1))
	}
	ne.PutUint32(b, uint32(len(b)))
	return b
}

func statsError(seq uint32, errno syscall.Errno) []byte {
	ne := binary.NativeEndian
	b := make([]byte, statsReqLen)
	putStatsRequest(b, 7, seq)
	ne.PutUint16(b[4:], nlmsgError)
	b = ne.AppendUint32(b[:nlmsgHdrLen], uint32(-int32(errno)))
	b = append(b, make([]byte, nlmsgHdrLen)...) // the request's header
	ne.PutUint32(b, uint32(len(b)))
	return b
}

func TestParseStatsReply(t *testing.T) {
	want := Counters{RxPackets: 1, TxPackets: 2, RxBytes: 3, TxBytes: 4, RxErrors: 5, TxErrors: 6, RxDropped: 7, TxDropped: 8}
	if c, mine, err := parseStatsReply(statsReply(5), 5); !mine || err != nil || c != want {
		t.Errorf("reply: %+v, %v, %v", c, mine, err)
	}
	if _, mine, _ := parseStatsReply(statsReply(4), 5); mine {
		t.Error("an earlier request's reply taken as this one's")
	}
	if _, mine, err := parseStatsReply(statsError(5, syscall.ENODEV), 5); !mine || !errors.Is(err, syscall.ENODEV) {
		t.Errorf("error reply: %v, %v", mine, err)
	}
	if _, mine, err := parseStatsReply(statsError(5, 0), 5); !mine || err == nil {
		t.Errorf("an acknowledgement: %v, %v", mine, err)
	}
	short := statsReply(5)
	binary.NativeEndian.PutUint32(short, statsReqLen+8)
	if _, mine, err := parseStatsReply(short[:statsReqLen+8], 5); !mine || err == nil {
		t.Errorf("no counters: %v, %v", mine, err)
	}
	if _, mine, _ := parseStatsReply(statsReply(5)[:40], 5); mine {
		t.Error("a truncated datagram taken as a reply")
	}
}

// FuzzParseStatsReply: any datagram is parsed without a panic.
func FuzzParseStatsReply(f *testing.F) {
	f.Add(statsReply(1))
	f.Add(statsError(1, syscall.ENODEV))
	f.Add(append(statsReply(9), statsReply(1)...))
	f.Add(statsReply(1)[:statsReqLen+6])
	f.Fuzz(func(t *testing.T, b []byte) {
		c, mine, err := parseStatsReply(b, 1)
		if !mine && (err != nil || c != (Counters{})) {
			t.Fatalf("not a reply, yet %+v, %v", c, err)
		}
	})
}
