package main

import (
	"syscall"
	"unsafe"
)

// rawInput turns off the terminal's line editing and echo on fd, keeping
// its signals (Ctrl-C), and returns what restores it.
func rawInput(fd int) (func(), error) {
	var old syscall.Termios
	if err := termios(fd, syscall.TCGETS, &old); err != nil {
		return nil, err
	}
	t := old
	t.Lflag &^= syscall.ICANON | syscall.ECHO
	t.Cc[syscall.VMIN], t.Cc[syscall.VTIME] = 1, 0
	if err := termios(fd, syscall.TCSETS, &t); err != nil {
		return nil, err
	}
	return func() { termios(fd, syscall.TCSETS, &old) }, nil
}

func termios(fd int, req uintptr, t *syscall.Termios) error {
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), req, uintptr(unsafe.Pointer(t)))
	if errno != 0 {
		return errno
	}
	return nil
}
