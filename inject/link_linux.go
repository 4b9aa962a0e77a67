package inject

import (
	"encoding/binary"
	"fmt"

	"golang.org/x/sys/unix"
)

// link prepares the interface: it returns its index after setting the MTU
// (when mtu > 0) and bringing it up.
func link(name string, mtu int) (int, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, fmt.Errorf("inject: open %s: control socket: %w", name, err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		return 0, fmt.Errorf("inject: open %s: %w", name, err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFINDEX, ifr); err != nil {
		return 0, fmt.Errorf("inject: open %s: interface index: %w", name, err)
	}
	index := int(ifr.Uint32())
	if mtu > 0 {
		ifr.SetUint32(uint32(mtu))
		if err := unix.IoctlIfreq(fd, unix.SIOCSIFMTU, ifr); err != nil {
			return 0, fmt.Errorf("inject: open %s: set MTU %d: %w", name, mtu, err)
		}
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return 0, fmt.Errorf("inject: open %s: get flags: %w", name, err)
	}
	if flags := ifr.Uint16(); flags&unix.IFF_UP == 0 {
		ifr.SetUint16(flags | unix.IFF_UP)
		if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
			return 0, fmt.Errorf("inject: open %s: bring up: %w", name, err)
		}
	}
	return index, nil
}

// htons converts v to network byte order, as sockaddr_ll wants it.
func htons(v uint16) uint16 {
	var b [2]byte
	binary.BigEndian.PutUint16(b[:], v)
	return binary.NativeEndian.Uint16(b[:])
}
