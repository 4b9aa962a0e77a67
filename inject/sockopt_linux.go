package inject

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sockopt reads one socket option through a raw connection, with a
// callback bound once and a buffer of its own: socket.Conn's getters
// allocate a closure and their result per call, and the shell reads
// PACKET_STATISTICS every second, a ring reader SO_ERROR as often.
// Its user serialises the calls.
type sockopt struct {
	level, name uintptr
	val         [8]byte
	size        uint32
	errno       syscall.Errno
	fn          func(fd uintptr) // get, bound once
}

func (o *sockopt) init(level, name int) {
	o.level, o.name = uintptr(level), uintptr(name)
	o.fn = o.get
}

func (o *sockopt) get(fd uintptr) {
	o.size = uint32(len(o.val))
	_, _, o.errno = unix.RawSyscall6(unix.SYS_GETSOCKOPT, fd, o.level, o.name,
		uintptr(unsafe.Pointer(&o.val[0])), uintptr(unsafe.Pointer(&o.size)), 0)
}

// read returns the option's value, valid until the next read.
func (o *sockopt) read(rc syscall.RawConn) ([]byte, error) {
	if err := rc.Control(o.fn); err != nil {
		return nil, err
	}
	if o.errno != 0 {
		return nil, o.errno
	}
	return o.val[:min(o.size, uint32(len(o.val)))], nil
}
