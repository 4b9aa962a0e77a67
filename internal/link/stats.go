package link

import (
	"encoding/binary"
	"errors"
	"fmt"
	"syscall"
)

// Counters are an interface's first counters of struct rtnl_link_stats64.
type Counters struct {
	RxPackets, TxPackets uint64
	RxBytes, TxBytes     uint64
	RxErrors, TxErrors   uint64
	RxDropped, TxDropped uint64
}

// ErrClosed is returned by a StatsReader's Read after Close.
var ErrClosed = errors.New("link: stats reader closed")

// rtnetlink's numbers for a stats request (linux/netlink.h,
// linux/rtnetlink.h, linux/if_link.h), here so that the codec builds
// everywhere.
const (
	nlmsgHdrLen  = 16 // struct nlmsghdr
	nlAttrHdrLen = 4  // struct nlattr
	nlmsgError   = 2  // NLMSG_ERROR
	nlmFRequest  = 1  // NLM_F_REQUEST
	rtmNewStats  = 92 // RTM_NEWSTATS
	rtmGetStats  = 94 // RTM_GETSTATS
	nlaTypeMask  = 0x3fff
	// iflaStatsLink64 is IFLA_STATS_LINK_64: struct rtnl_link_stats64.
	iflaStatsLink64 = 1
	// statsReqLen: struct nlmsghdr, then struct if_stats_msg (family,
	// two pads, ifindex, filter_mask).
	statsReqLen = nlmsgHdrLen + 12
	countersLen = 8 * 8
)

// putStatsRequest writes into q (statsReqLen bytes) the request for the
// 64-bit link counters (IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64)) of
// the interface with the given index.
func putStatsRequest(q []byte, index int, seq uint32) {
	ne := binary.NativeEndian
	ne.PutUint32(q[0:], statsReqLen)
	ne.PutUint16(q[4:], rtmGetStats)
	ne.PutUint16(q[6:], nlmFRequest)
	ne.PutUint32(q[8:], seq)
	ne.PutUint32(q[12:], 0) // nlmsg_pid: the kernel's
	ne.PutUint32(q[16:], 0) // family, pads
	ne.PutUint32(q[20:], uint32(index))
	ne.PutUint32(q[24:], 1<<(iflaStatsLink64-1))
}

// parseStatsReply reads the counters from a datagram of rtnetlink
// messages; mine is false when no message in it answers request seq (a
// reply to an earlier request, or a truncated one).
func parseStatsReply(b []byte, seq uint32) (c Counters, mine bool, err error) {
	ne := binary.NativeEndian
	for len(b) >= nlmsgHdrLen {
		l := int(ne.Uint32(b))
		if l < nlmsgHdrLen || l > len(b) {
			return c, false, nil
		}
		m := b[:l]
		b = b[min(len(b), align4(l)):]
		if ne.Uint32(m[8:]) != seq {
			continue
		}
		switch ne.Uint16(m[4:]) {
		case nlmsgError:
			if len(m) >= nlmsgHdrLen+4 {
				if errno := -int32(ne.Uint32(m[nlmsgHdrLen:])); errno > 0 {
					return c, true, fmt.Errorf("get stats: %w", syscall.Errno(errno))
				}
			}
			return c, true, errors.New("get stats: acknowledged without counters")
		case rtmNewStats:
			if len(m) >= statsReqLen {
				if v, ok := statsAttr(m[statsReqLen:]); ok {
					u := func(i int) uint64 { return ne.Uint64(v[8*i:]) }
					return Counters{RxPackets: u(0), TxPackets: u(1), RxBytes: u(2), TxBytes: u(3),
						RxErrors: u(4), TxErrors: u(5), RxDropped: u(6), TxDropped: u(7)}, true, nil
				}
			}
			return c, true, errors.New("get stats: no 64-bit link counters in the reply")
		}
	}
	return c, false, nil
}

// statsAttr finds IFLA_STATS_LINK_64 among a reply's attributes.
func statsAttr(b []byte) ([]byte, bool) {
	ne := binary.NativeEndian
	for len(b) >= nlAttrHdrLen {
		l := int(ne.Uint16(b))
		if l < nlAttrHdrLen || l > len(b) {
			return nil, false
		}
		if ne.Uint16(b[2:])&nlaTypeMask == iflaStatsLink64 && l >= nlAttrHdrLen+countersLen {
			return b[nlAttrHdrLen:l], true
		}
		b = b[min(len(b), align4(l)):]
	}
	return nil, false
}

func align4(n int) int { return (n + 3) &^ 3 }
