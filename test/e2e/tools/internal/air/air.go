// Package air is what the harness's injectors share: a packet socket on a
// monitor interface and the 802.11 frame behind a received radiotap header.
package air

import (
	"encoding/binary"
	"net"
	"syscall"
)

func htons(v uint16) uint16 { return v<<8 | v>>8 }

// Socket is a raw packet socket bound to ifname for protocol (0 queues
// nothing to it: for writing only; syscall.ETH_P_ALL: every frame).
func Socket(ifname string, protocol uint16) (int, error) {
	ifi, err := net.InterfaceByName(ifname)
	if err != nil {
		return -1, err
	}
	fd, err := syscall.Socket(syscall.AF_PACKET, syscall.SOCK_RAW, int(htons(protocol)))
	if err != nil {
		return -1, err
	}
	if err := syscall.Bind(fd, &syscall.SockaddrLinklayer{Protocol: htons(protocol), Ifindex: ifi.Index}); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

// Frame returns the 802.11 frame behind b's radiotap header, without its
// FCS if the radiotap flags say it has one; it shares b's memory.
func Frame(b []byte) ([]byte, bool) {
	if len(b) < 8 {
		return nil, false
	}
	rtlen := int(binary.LittleEndian.Uint16(b[2:]))
	if rtlen < 8 || rtlen > len(b) {
		return nil, false
	}
	present := binary.LittleEndian.Uint32(b[4:])
	off := 8
	for p := present; p&(1<<31) != 0; {
		if off+4 > rtlen {
			return nil, false
		}
		p = binary.LittleEndian.Uint32(b[off:])
		off += 4
	}
	if present&1 != 0 { // TSFT: 8 bytes, aligned to 8
		off = (off+7)/8*8 + 8
	}
	fr := b[rtlen:]
	if present&2 != 0 && off < rtlen && b[off]&0x10 != 0 { // Flags: FCS at end
		if len(fr) < 4 {
			return nil, false
		}
		fr = fr[:len(fr)-4]
	}
	return fr, true
}
