package main

import (
	"encoding/binary"
	"fmt"
	"syscall"
	"time"
)

// join plays a station from the monitor's own address (an active monitor
// acknowledges frames to it): an open-system authentication, then an
// association request whose RSNE offers MFP or not, and prints the status
// codes the AP answered with: "SUMMARY auth=S assoc=S" (-1: no answer
// within a second).
func join(ifname string, f mgmtForger) error {
	rx, err := packetSocket(ifname, syscall.ETH_P_ALL)
	if err != nil {
		return err
	}
	tv := syscall.NsecToTimeval(int64(50 * time.Millisecond))
	if err := syscall.SetsockoptTimeval(rx, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		return err
	}
	inj := mustInjector(ifname)
	auth, _ := f.frame("auth", false)
	inj.send(auth)
	as := answer(rx, f, 11, 4) // the authentication's status field
	assocStatus := -1
	if as == 0 {
		time.Sleep(50 * time.Millisecond)
		assoc, _ := f.frame("assoc", false)
		inj.send(assoc)
		assocStatus = answer(rx, f, 1, 2) // an association response's status field
	}
	fmt.Printf("SUMMARY auth=%d assoc=%d sent=%d errors=%d\n", as, assocStatus, inj.sent, inj.errors)
	return nil
}

// answer waits up to a second for a management frame of subtype from the
// BSSID to ta and returns the status code at offset off of its body, or -1.
func answer(fd int, f mgmtForger, subtype byte, off int) int {
	buf := make([]byte, 4096)
	for end := time.Now().Add(time.Second); time.Now().Before(end); {
		n, from, err := syscall.Recvfrom(fd, buf, 0)
		if err != nil {
			continue
		}
		if ll, ok := from.(*syscall.SockaddrLinklayer); ok && ll.Pkttype == syscall.PACKET_OUTGOING {
			continue
		}
		fr, ok := stripRadiotap(buf[:n])
		if st, ok := statusOf(fr, ok, f, subtype, off); ok {
			return st
		}
	}
	return -1
}

// statusOf reads the status code of fr if it is the answer waited for.
func statusOf(fr []byte, ok bool, f mgmtForger, subtype byte, off int) (int, bool) {
	if !ok || len(fr) < 24+off+2 || fr[0] != subtype<<4 || [6]byte(fr[4:10]) != f.ta || [6]byte(fr[10:16]) != f.bssid {
		return 0, false
	}
	return int(binary.LittleEndian.Uint16(fr[24+off:])), true
}
