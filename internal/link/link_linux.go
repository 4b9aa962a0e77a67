package link

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// Index returns the interface's index.
func Index(name string) (int, error) {
	var index int
	err := ioctl(name, func(fd int, ifr *unix.Ifreq) error {
		if err := unix.IoctlIfreq(fd, unix.SIOCGIFINDEX, ifr); err != nil {
			return fmt.Errorf("interface index: %w", err)
		}
		index = int(ifr.Uint32())
		return nil
	})
	return index, err
}

// Up sets IFF_UP on the interface, unless it is up already.
func Up(name string) error { return setUp(name, true) }

// Down clears IFF_UP on the interface, unless it is down already.
func Down(name string) error { return setUp(name, false) }

func setUp(name string, up bool) error {
	return ioctl(name, func(fd int, ifr *unix.Ifreq) error {
		if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
			return fmt.Errorf("get flags: %w", err)
		}
		flags := ifr.Uint16()
		want := flags &^ unix.IFF_UP
		if up {
			want |= unix.IFF_UP
		}
		if want == flags {
			return nil
		}
		ifr.SetUint16(want)
		if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
			if up {
				return fmt.Errorf("bring up: %w", err)
			}
			return fmt.Errorf("bring down: %w", err)
		}
		return nil
	})
}

// SetMTU sets the interface's MTU.
func SetMTU(name string, mtu int) error {
	return ioctl(name, func(fd int, ifr *unix.Ifreq) error {
		ifr.SetUint32(uint32(mtu))
		if err := unix.IoctlIfreq(fd, unix.SIOCSIFMTU, ifr); err != nil {
			return fmt.Errorf("set MTU %d: %w", mtu, err)
		}
		return nil
	})
}

// ioctl runs fn with a control socket and a request naming the interface.
func ioctl(name string, fn func(fd int, ifr *unix.Ifreq) error) error {
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		return err
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("control socket: %w", err)
	}
	defer unix.Close(fd)
	return fn(fd, ifr)
}
