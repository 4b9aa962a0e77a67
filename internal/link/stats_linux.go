package link

import (
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

const (
	// statsTimeout bounds a read: the kernel answers within the request's
	// send, so only a lost reply waits this long.
	statsTimeout = 1 // second
	// statsStale bounds the replies to earlier, abandoned requests a read
	// skips before it gives up.
	statsStale = 4
)

// StatsReader reads interfaces' counters from rtnetlink (RTM_GETSTATS,
// IFLA_STATS_LINK_64) through one socket and buffers of its own, so that
// a read allocates nothing: the daemon polls the kernel's counters every
// second, and a netlink library's messages, attributes and buffers per
// poll were garbage that grew the heap toward the collector's goal on an
// otherwise quiet AP. The socket belongs to the network namespace of the
// thread that opened it, where the interface is (sysfs may show another
// namespace's).
type StatsReader struct {
	mu  sync.Mutex
	fd  int // -1 once closed
	seq uint32
	req [statsReqLen]byte
	// buf holds one reply: a header, if_stats_msg and the attribute
	// (about 240 bytes today), with room for the kernel's later fields.
	buf [1024]byte
}

// OpenStats opens a StatsReader in the calling thread's network namespace.
func OpenStats() (*StatsReader, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE)
	if err != nil {
		return nil, fmt.Errorf("rtnetlink socket: %w", err)
	}
	tv := unix.Timeval{Sec: statsTimeout}
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("rtnetlink socket timeout: %w", err)
	}
	return &StatsReader{fd: fd}, nil
}

// Read returns the counters of the interface with the given index.
func (r *StatsReader) Read(index int) (Counters, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fd < 0 {
		return Counters{}, ErrClosed
	}
	r.seq++
	putStatsRequest(r.req[:], index, r.seq)
	if _, err := unix.Write(r.fd, r.req[:]); err != nil {
		return Counters{}, fmt.Errorf("get stats: %w", err)
	}
	for range statsStale + 1 {
		n, err := unix.Read(r.fd, r.buf[:])
		if err != nil {
			return Counters{}, fmt.Errorf("get stats: %w", err)
		}
		if c, mine, err := parseStatsReply(r.buf[:n], r.seq); mine {
			return c, err
		}
	}
	return Counters{}, errors.New("get stats: no reply")
}

// Close closes the socket; a Read after it returns ErrClosed.
func (r *StatsReader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fd < 0 {
		return nil
	}
	err := unix.Close(r.fd)
	r.fd = -1
	return err
}
