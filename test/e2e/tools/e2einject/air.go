package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"syscall"
	"time"

	"airq-e2e-tools/internal/air"
)

// packetSocket is a raw packet socket bound to ifname; protocol 0 queues
// nothing to it (for writing only).
func packetSocket(ifname string, protocol uint16) (int, error) { return air.Socket(ifname, protocol) }

type injector struct {
	fd           int
	sent, errors int
}

func mustInjector(ifname string) *injector {
	fd, err := packetSocket(ifname, 0)
	exitOn(err)
	return &injector{fd: fd}
}

// send injects an 802.11 frame behind a radiotap header without fields:
// the driver picks the rate.
func (j *injector) send(frame []byte) {
	frame = append([]byte{0, 0, 8, 0, 0, 0, 0, 0}, frame...)
	if _, err := syscall.Write(j.fd, frame); err != nil {
		j.errors++
		return
	}
	j.sent++
}

func (j *injector) summary() { fmt.Printf("SUMMARY sent=%d errors=%d\n", j.sent, j.errors) }

// capture keeps for d the protected ToDS data frames from ta to bssid that
// ifname receives, without radiotap header and FCS, each written to out
// behind its length (two bytes, little-endian).
func capture(ifname string, ta, bssid [6]byte, out string, d time.Duration) error {
	fd, err := packetSocket(ifname, syscall.ETH_P_ALL)
	if err != nil {
		return err
	}
	tv := syscall.NsecToTimeval(int64(100 * time.Millisecond))
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		return err
	}
	var file []byte
	captured, qos := 0, 0
	buf := make([]byte, 65536)
	for end := time.Now().Add(d); time.Now().Before(end); {
		n, from, err := syscall.Recvfrom(fd, buf, 0)
		if err != nil {
			continue // the timeout, or EINTR
		}
		if ll, ok := from.(*syscall.SockaddrLinklayer); ok && ll.Pkttype == syscall.PACKET_OUTGOING {
			continue
		}
		fr, ok := stripRadiotap(buf[:n])
		if !ok || len(fr) < 24+8 || fr[0]&0x0c != 0x08 || fr[1]&0x43 != 0x41 ||
			[6]byte(fr[4:10]) != bssid || [6]byte(fr[10:16]) != ta {
			continue
		}
		file = binary.LittleEndian.AppendUint16(file, uint16(len(fr)))
		file = append(file, fr...)
		captured++
		if isQoS(fr) {
			qos++
		}
	}
	if err := os.WriteFile(out, file, 0o644); err != nil {
		return err
	}
	fmt.Printf("SUMMARY captured=%d qos=%d\n", captured, qos)
	return nil
}

// stripRadiotap returns a copy of the 802.11 frame behind b's radiotap
// header, without its FCS.
func stripRadiotap(b []byte) ([]byte, bool) {
	fr, ok := air.Frame(b)
	return append([]byte(nil), fr...), ok
}

// readFrames reads a capture file.
func readFrames(path string) ([][]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for len(b) >= 2 {
		n := int(binary.LittleEndian.Uint16(b))
		if 2+n > len(b) {
			return nil, fmt.Errorf("%s: truncated frame", path)
		}
		out = append(out, append([]byte(nil), b[2:2+n]...))
		b = b[2+n:]
	}
	return out, nil
}
